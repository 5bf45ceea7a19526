import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';
import type { PaymentProviders } from '../payments/providers.ts';
import { stalePendingLinkPayments } from '../transactions/repository.ts';
import type { WorkSource } from '../worker/loop.ts';
import { reconcilePayment } from './flows.ts';

/** A link's payment pending this long has lost its buyer's request (a crash, a database outage between charge and settle). */
export const reconcileAfterMs = 5 * 60_000;
/** Older than this, the provider has given up too (a Stripe Checkout Session expires after 24 hours); verify still settles it. */
const reconcileUntilMs = 48 * 3_600_000;

/**
 * Settles payments whose outcome never reached us, without anyone calling verify: every few
 * minutes per worker process, each link's payment pending for 5 minutes to 48 hours is asked
 * of its provider (the sandbox or Stripe) and settled if the provider has an outcome, exactly as
 * POST /payments/verify would (conditional on `pending`, so it races verify and webhooks safely).
 * The rows are found through the small partial index of pending link payments
 * (transactions_link_pending), never by scanning transactions.
 */
export function reconcileSource(deps: { db: Db; log: FastifyBaseLogger; payments: PaymentProviders; everyMs?: number; batch?: number }): WorkSource {
  const everyMs = deps.everyMs ?? 5 * 60_000;
  let lastRun = -Infinity;
  return {
    name: 'payment-reconcile',
    async runOnce() {
      if (Date.now() - lastRun < everyMs) return 0;
      lastRun = Date.now();
      const stale = await stalePendingLinkPayments(deps.db, reconcileAfterMs / 1000, reconcileUntilMs / 1000, deps.batch ?? 100);
      let settled = 0;
      for (const payment of stale) {
        try {
          const now = await reconcilePayment(deps.db, deps.payments, payment);
          if (now.status !== 'pending') {
            settled++;
            deps.log.info({ txref: payment.txref, provider: payment.provider, status: now.status }, 'pending payment settled from its provider');
          }
        } catch (err) {
          // One provider's failure (Stripe unreachable) leaves the payment for the next round.
          deps.log.warn({ txref: payment.txref, provider: payment.provider, err: (err as Error).message }, 'could not reconcile a pending payment; trying again later');
        }
      }
      return 0;
    },
  };
}
