import type Stripe from 'stripe';
import type { Config } from '../config.ts';
import { paymentProviders, type PaymentProviders } from './providers.ts';

/**
 * The composition root's payment side (start.ts, the CLI): the sandbox, plus Stripe for live mode
 * when it is configured. The `stripe` package (a megabyte of modules, a twentieth of the embedded
 * server's cold start) is loaded only then.
 */
export async function configuredPayments(config: Pick<Config, 'stripe' | 'publicUrl'>): Promise<{ payments: PaymentProviders; stripe?: Stripe }> {
  if (!config.stripe) return { payments: paymentProviders() };
  const { paymentsFromConfig } = await import('./stripe/client.ts');
  return paymentsFromConfig(config);
}
