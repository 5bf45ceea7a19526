import Stripe from 'stripe';
import { AppError } from '../../errors.ts';

/**
 * A Stripe failure as the service reports it: 503, in words, never the request or the key. The
 * buyer's page says to try again; verify can simply be repeated.
 */
export function stripeUnavailable(err: unknown): AppError {
  const kind = err instanceof Stripe.errors.StripeError ? `${err.type}${err.code ? `: ${err.code}` : ''}` : 'no answer';
  return new AppError('service_unavailable', `Stripe could not take the request just now (${kind}).`);
}

/** Runs a Stripe call, turning its failures into stripeUnavailable. */
export async function callStripe<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw stripeUnavailable(err);
  }
}
