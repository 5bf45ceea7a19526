import type { Mode } from '../auth/principal.ts';
import type { PaymentProvider } from './provider.ts';
import { sandboxProvider } from './sandbox.ts';

/**
 * Which provider takes payments in a mode. Test mode always uses the built-in sandbox. Live mode
 * has no provider until the live (Stripe) integration lands, and checkout then refuses live
 * links outright rather than pretending to take money.
 */
export function providerForMode(mode: Mode): PaymentProvider | undefined {
  return mode === 'test' ? sandboxProvider : undefined;
}

/** The provider a stored transaction was made with, by the name recorded on it. */
export function providerNamed(name: string): PaymentProvider | undefined {
  return name === sandboxProvider.name ? sandboxProvider : undefined;
}
