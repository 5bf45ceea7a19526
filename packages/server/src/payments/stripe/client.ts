import Stripe from 'stripe';
import type { Config, StripeSettings } from '../../config.ts';
import { paymentProviders, type PaymentProviders } from '../providers.ts';
import { stripeProvider } from './provider.ts';

/** Where the client sends its requests: Stripe by default; tests point it at testing/stripe-fake.ts. */
export interface StripeEndpoint {
  host: string;
  port: number;
  protocol: 'http' | 'https';
}

/**
 * The one Stripe client of a process, built by its composition root from STRIPE_SECRET_KEY. It
 * speaks the API version the `stripe` package is written for (Stripe.API_VERSION), which is also
 * the version to give the webhook endpoint in Stripe's dashboard, so events arrive in the shape
 * this code reads.
 */
export function createStripeClient(settings: StripeSettings, endpoint?: StripeEndpoint): Stripe {
  return new Stripe(settings.secretKey, {
    // Every POST carries an idempotency key (ours where it matters), so retrying is safe.
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    ...endpoint,
  });
}

/** The composition root's payment side: the sandbox, plus Stripe for live mode when it is configured. */
export function paymentsFromConfig(config: Pick<Config, 'stripe' | 'publicUrl'>, endpoint?: StripeEndpoint): { payments: PaymentProviders; stripe?: Stripe } {
  if (!config.stripe) return { payments: paymentProviders() };
  const stripe = createStripeClient(config.stripe, endpoint);
  const checkoutOrigin = endpoint ? `${endpoint.protocol}://${endpoint.host}:${endpoint.port}` : undefined;
  return { payments: paymentProviders(stripeProvider(stripe, config.publicUrl, checkoutOrigin)), stripe };
}
