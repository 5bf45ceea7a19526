import type { Queryable } from '../db/client.ts';
import { noteRefund as noteAffiliateRefund } from '../affiliates/commissions.ts';
import { AppError, invalid, notFound } from '../errors.ts';
import { newId } from '../ids.ts';
import type { Principal } from '../auth/principal.ts';
import { modeNow } from '../clock/repository.ts';
import { formatMoney, toMajor, toMinor } from '../money.ts';
import type { RefundState } from '../payments/provider.ts';
import { notePayable } from '../payouts/repository.ts';
import { endAccessBought, type ProviderCancellation } from '../subscriptions/access.ts';
import * as refunds from '../transactions/refunds-repository.ts';
import type { RefundRow } from '../transactions/refunds-repository.ts';
import * as repo from '../transactions/repository.ts';
import { recordRefunded } from '../transactions/lifecycle.ts';
import type { TransactionRow } from '../transactions/repository.ts';
import type { RefundBody } from '../transactions/schemas.ts';
import { releaseCoupon } from '../coupons/redemptions.ts';

/**
 * Refunds (docs/refunds.md): the steps of flows.ts's refund flow that run in one
 * database transaction each. Nothing here commits or calls a provider.
 */

export const renderRefund = (r: RefundRow) => ({
  id: r.id,
  amount: toMajor(r.amount, r.currency),
  reason: r.reason,
  status: r.status,
  createdAt: r.created_at.toISOString(),
});

/** What is left to give back: the amount paid less the refunds made and under way. */
export function refundable(payment: TransactionRow, rows: RefundRow[]): number {
  return payment.amount - rows.filter((r) => r.status !== 'failed').reduce((sum, r) => sum + r.amount, 0);
}

/** The transaction the principal may refund, locked so that two refunds of it are decided one after the other. */
export async function lockRefundable(tx: Queryable, principal: Principal, txref: string): Promise<TransactionRow> {
  const payment = await repo.findByTxref(tx, principal.brandId, principal.mode, txref, { forUpdate: true });
  if (!payment) throw notFound('transaction');
  return payment;
}

/**
 * Step 1: checks the refund against the transaction and records it `pending`, holding its amount.
 * Refused: a transaction that has not succeeded (409), one refunded in full (409), one no provider
 * took (409), an amount with more decimals than the currency has or more than is left (400 naming
 * `amount`).
 */
export async function beginRefund(tx: Queryable, principal: Principal, txref: string, body: RefundBody): Promise<{ refund: RefundRow; transaction: TransactionRow }> {
  const payment = await lockRefundable(tx, principal, txref);
  if (payment.status === 'refunded') throw new AppError('conflict', `Transaction ${txref} is already fully refunded; there is nothing left to give back.`);
  if (payment.status !== 'succeeded') throw new AppError('conflict', `Transaction ${txref} is ${payment.status}: only a succeeded payment can be refunded.`);
  if (payment.amount === 0) throw new AppError('conflict', `Transaction ${txref} was free: there is no money to give back.`);
  if (!payment.provider || !payment.provider_reference) {
    throw new AppError('conflict', `Transaction ${txref} was not paid through a payment provider (it was imported or recorded by hand), so the service cannot refund it.`);
  }
  const rows = await refunds.refundsOf(tx, payment.brand_id, payment.id);
  const left = refundable(payment, rows);
  if (left <= 0) {
    throw new AppError('conflict', `Refunds of all of transaction ${txref} are already under way; nothing is left to give back. `
      + 'GET the transaction to see them settle.');
  }
  let amount = left;
  if (body.amount !== undefined) {
    const minor = toMinor(body.amount, payment.currency);
    if (minor === null) throw invalid('amount', `has more decimals than ${payment.currency} allows`);
    if (minor > left) throw invalid('amount', `is more than the ${formatMoney(left, payment.currency)} left to refund on this transaction`);
    amount = minor;
  }
  return refunds.insertRefund(tx, {
    brand_id: payment.brand_id,
    id: newId('rfd'),
    mode: payment.mode,
    transaction_id: payment.id,
    amount,
    currency: payment.currency,
    reason: body.reason ?? null,
    // A refund that gives back all that is left ends the access bought, unless told otherwise.
    revoke_access: body.revokeAccess ?? amount === left,
    provider: payment.provider,
  });
}

export interface SettledRefund {
  refund: RefundRow;
  transaction: TransactionRow;
  /** Provider subscriptions to stop after commit (access.ts). */
  cancellations: ProviderCancellation[];
}

/**
 * Step 3: the provider's answer. Pending keeps the refund pending (its reference kept, to ask
 * again). Final moves it once (refunds-repository.ts, finishRefund); for the caller that moved it
 * to `succeeded`: transaction.refunded, the refund owed to the next payout, and, when the refund
 * says so, the end of the access bought (member.removed after transaction.refunded).
 */
export async function settleRefund(tx: Queryable, refund: RefundRow, state: RefundState, appId: string | null): Promise<SettledRefund | undefined> {
  if (state.status === 'pending') {
    await refunds.notePending(tx, refund.brand_id, refund.id, state.reference);
    return undefined;
  }
  const moved = await refunds.finishRefund(tx, refund.brand_id, refund.id, state);
  if (!moved) return undefined;
  if (moved.refund.status !== 'succeeded') return { ...moved, cancellations: [] };
  await recordRefunded(tx, moved.transaction, renderRefund(moved.refund), appId);
  await notePayable(tx, moved.transaction.brand_id, moved.transaction.mode, await modeNow(tx, moved.transaction.brand_id, moved.transaction.mode));
  // A full refund gives the coupon's use back, as if the payment had never been made.
  if (moved.transaction.status === 'refunded') await releaseCoupon(tx, moved.transaction.brand_id, moved.transaction.txref);
  await noteAffiliateRefund(tx, moved.transaction, moved.refund.amount); // a refund within the hold claws the commission back
  const cancellations = moved.refund.revoke_access ? await endAccessBought(tx, moved.transaction, appId) : [];
  return { ...moved, cancellations };
}
