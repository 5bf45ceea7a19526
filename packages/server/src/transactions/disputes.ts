import type { Queryable } from '../db/client.ts';
import { recordEvent } from '../events/service.ts';
import { applyReportedRefund, type ReportedOutcome } from './provider-refunds.ts';
import * as repo from './repository.ts';
import { renderTransaction } from './service.ts';

/**
 * A dispute (chargeback) a provider reports (Stripe's charge.dispute.created and
 * charge.dispute.closed; docs/refunds.md, Disputes), in the caller's transaction (the webhook's,
 * which records the provider event with it, so a redelivery changes nothing):
 *  - the transaction is marked (`dispute`, its version moves) and `transaction.disputed` is sent,
 *    when it opens and when it closes;
 *  - a dispute lost is money gone back to the buyer: it is recorded as a refund of the disputed
 *    amount (reason "dispute lost (…)") and settled like any refund: `transaction.refunded`, the
 *    refund deducted from the next payout, an affiliate commission within its hold clawed back, and,
 *    when it leaves nothing, the access the payment bought ended.
 * A dispute won changes nothing else.
 */
export interface ReportedDispute {
  provider: string;
  /** The provider's id (du_…). */
  reference: string;
  brandId: string | null;
  txref: string | null;
  /** Minor units. */
  amount: number;
  status: string;
  reason: string | null;
  closed: boolean;
}

export async function applyReportedDispute(tx: Queryable, d: ReportedDispute): Promise<ReportedOutcome> {
  const ignored: ReportedOutcome = { outcome: 'ignored', cancellations: [] };
  if (!d.brandId || !d.txref) return ignored;
  const payment = await repo.findByTxref(tx, d.brandId, 'live', d.txref, { forUpdate: true });
  if (!payment || payment.provider !== d.provider || (payment.status !== 'succeeded' && payment.status !== 'refunded')) return ignored;
  const now = new Date().toISOString();
  const earlier = payment.dispute?.id === d.reference ? payment.dispute : undefined;
  const marked = await repo.setDispute(tx, payment.brand_id, payment.id, {
    id: d.reference, status: d.status, amount: d.amount, reason: d.reason,
    createdAt: earlier?.createdAt ?? now, ...(d.closed ? { closedAt: now } : {}),
  });
  await recordEvent(tx, { brandId: marked.brand_id, mode: marked.mode, type: 'transaction.disputed', data: renderTransaction(marked), appId: marked.app_id ?? null });
  if (!d.closed || d.status !== 'lost') return { outcome: 'applied', cancellations: [] };
  const lost = await applyReportedRefund(tx, {
    provider: d.provider, reference: d.reference, amount: d.amount, state: { status: 'succeeded', reference: d.reference },
    reason: `dispute lost${d.reason ? ` (${d.reason.replaceAll('_', ' ')})` : ''}`, refundId: null, brandId: d.brandId, txref: d.txref,
  });
  return { outcome: 'applied', cancellations: lost.cancellations };
}
