import type { Db } from '../db/client.ts';
import { AppError, notFound } from '../errors.ts';
import { appOf, type Principal } from '../auth/principal.ts';
import type { PaymentProvider, RefundState } from '../payments/provider.ts';
import type { PaymentProviders } from '../payments/providers.ts';
import type { ProviderCancellation } from '../subscriptions/access.ts';
import * as refunds from '../transactions/refunds-repository.ts';
import type { RefundRow } from '../transactions/refunds-repository.ts';
import { beginRefund, settleRefund } from './service.ts';
import * as repo from '../transactions/repository.ts';
import type { TransactionRow } from '../transactions/repository.ts';
import type { RefundBody, Transaction } from '../transactions/schemas.ts';
import { renderTransaction, type FeeSettings } from '../transactions/service.ts';

/**
 * The refund flow (docs/refunds.md; DESIGN.md, Who commits): like paying a link, in three steps,
 * so that no refund is ever paid twice:
 *  1. under a lock on the transaction, check what is left and record the refund `pending`,
 *     holding its amount, and commit: the refund exists before any money moves, and two refunds
 *     racing cannot together give back more than was paid;
 *  2. ask the provider, with our refund's id as its idempotency key: asked again (a retry after a
 *     crash or a timeout), it answers the first refund and moves no money;
 *  3. settle: one conditional update moves the refund out of `pending`; only the caller that moved
 *     it records transaction.refunded and ends the access bought.
 * A refund left pending (the process died after 1, the provider timed out, or the provider is
 * still processing it) is finished by the next refund request on that transaction: step 2 again,
 * or, when the provider gave a reference, a look-up of that refund.
 */

/** A pending refund younger than this is another request's, still under way: leave it to that request. */
const resumeAfterMs = 60_000;

function providerFor(providers: PaymentProviders, name: string): PaymentProvider {
  const provider = providers.named(name);
  if (!provider) {
    throw new AppError('service_unavailable', `This transaction was paid through ${name}, which is not configured on this server, so it cannot be refunded here.`);
  }
  return provider;
}

function askProvider(provider: PaymentProvider, db: Db, payment: TransactionRow, refund: RefundRow): Promise<RefundState> {
  if (refund.provider_reference && provider.lookupRefund) return provider.lookupRefund(db, { brandId: refund.brand_id, reference: refund.provider_reference });
  return provider.refundPayment(db, {
    brandId: refund.brand_id,
    reference: payment.provider_reference!,
    refundId: refund.id,
    amount: refund.amount,
    currency: refund.currency,
    txref: payment.txref,
    reason: refund.reason,
  });
}

/** Tells providers that bill subscriptions themselves to stop the ones a refund ended (after commit; repeatable). */
async function stopProviderBilling(providers: PaymentProviders, cancellations: ProviderCancellation[]) {
  for (const c of cancellations) await providers.named(c.provider)?.cancelSubscription?.({ reference: c.reference, atPeriodEnd: false });
}

/** Steps 2 and 3 for one pending refund. */
async function complete(db: Db, providers: PaymentProviders, payment: TransactionRow, refund: RefundRow, appId: string | null) {
  const state = await askProvider(providerFor(providers, refund.provider), db, payment, refund);
  const settled = await db.transaction((tx) => settleRefund(tx, refund, state, appId));
  if (settled) await stopProviderBilling(providers, settled.cancellations);
  return { state, settled };
}

/**
 * Finishes the transaction's refunds left pending by an earlier request (see the top of this
 * file). A payment whose provider this server does not have (Stripe not configured) is refused
 * here, before anything is written.
 */
async function resumePending(db: Db, providers: PaymentProviders, principal: Principal, txref: string) {
  const payment = await repo.findByTxref(db, principal.brandId, principal.mode, txref);
  if (!payment) throw notFound('transaction');
  if (payment.provider) providerFor(providers, payment.provider);
  const stale = (await refunds.refundsOf(db, payment.brand_id, payment.id))
    .filter((r) => r.status === 'pending' && Date.now() - r.updated_at.getTime() >= resumeAfterMs);
  for (const refund of stale) await complete(db, providers, payment, refund, appOf(principal));
}

/** POST /transactions/{txref}/refund: the transaction as it stands after the refund (pending, when the provider is still processing it). */
export async function refundTransaction(db: Db, providers: PaymentProviders, principal: Principal, txref: string, body: RefundBody, fees?: FeeSettings): Promise<Transaction> {
  await resumePending(db, providers, principal, txref);
  const begun = await db.transaction((tx) => beginRefund(tx, principal, txref, body));
  const { state, settled } = await complete(db, providers, begun.transaction, begun.refund, appOf(principal));
  if (state.status === 'failed') {
    throw new AppError('conflict', `The refund was refused: ${state.message} Nothing was given back; the refund is listed as failed on the transaction.`);
  }
  return renderTransaction(settled?.transaction ?? (await repo.findByTxref(db, principal.brandId, principal.mode, txref))!, fees);
}
