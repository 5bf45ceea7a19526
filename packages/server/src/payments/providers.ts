import type { Mode } from '../auth/principal.ts';
import type { PaymentProvider } from './provider.ts';
import { sandboxProvider } from './sandbox.ts';

/**
 * Which provider takes payments in a mode, built once by the composition root (deps.payments).
 * Test mode always uses the built-in sandbox. Live mode uses Stripe when STRIPE_SECRET_KEY and
 * STRIPE_WEBHOOK_SECRET are set; without them it has no provider, and checkout refuses live links
 * outright (503) rather than pretending to take money.
 */
export interface PaymentProviders {
  forMode(mode: Mode): PaymentProvider | undefined;
  /** The provider a stored transaction or subscription was made with, by the name recorded on it. */
  named(name: string): PaymentProvider | undefined;
}

export function paymentProviders(live?: PaymentProvider): PaymentProviders {
  const byName = new Map<string, PaymentProvider>([[sandboxProvider.name, sandboxProvider]]);
  if (live) byName.set(live.name, live);
  return {
    forMode: (mode) => (mode === 'test' ? sandboxProvider : live),
    named: (name) => byName.get(name),
  };
}

/**
 * Test mode's providers: the sandbox only. For code that acts on test mode alone (a test clock
 * advance runs test-mode renewals), where no live provider can be involved.
 */
export const testModeProviders = paymentProviders();

/**
 * Providers that bill a subscription's renewals themselves (Stripe Billing) and tell us by
 * webhook: our worker never bills those (docs/subscriptions.md). By name, not through a
 * configured provider, so a worker started without the Stripe settings still leaves them alone.
 */
export const billsRenewalsItself = (providerName: string | null): boolean => providerName === 'stripe';
