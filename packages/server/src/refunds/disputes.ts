import type { Mode, Principal } from '../auth/principal.ts';
import type { Queryable } from '../db/client.ts';
import { AppError, notFound } from '../errors.ts';
import { applyReportedRefund, type ReportedOutcome } from './provider-refunds.ts';
import * as repo from '../transactions/repository.ts';
import { recordDisputed } from '../transactions/lifecycle.ts';

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
  /** `live` for Stripe's disputes; `test` for the sandbox's (test card 4000 0000 0000 0259). */
  mode: Mode;
  /** Minor units. */
  amount: number;
  status: string;
  reason: string | null;
  closed: boolean;
}

export async function applyReportedDispute(tx: Queryable, d: ReportedDispute): Promise<ReportedOutcome> {
  const ignored: ReportedOutcome = { outcome: 'ignored', cancellations: [] };
  if (!d.brandId || !d.txref) return ignored;
  const payment = await repo.findByTxref(tx, d.brandId, d.mode, d.txref, { forUpdate: true });
  if (!payment || payment.provider !== d.provider || (payment.status !== 'succeeded' && payment.status !== 'refunded')) return ignored;
  const now = new Date().toISOString();
  const earlier = payment.dispute?.id === d.reference ? payment.dispute : undefined;
  const marked = await repo.setDispute(tx, payment.brand_id, payment.id, {
    id: d.reference, status: d.status, amount: d.amount, reason: d.reason,
    createdAt: earlier?.createdAt ?? now, ...(d.closed ? { closedAt: now } : {}),
  });
  await recordDisputed(tx, marked);
  if (!d.closed || d.status !== 'lost') return { outcome: 'applied', cancellations: [] };
  const lost = await applyReportedRefund(tx, {
    provider: d.provider, reference: d.reference, amount: d.amount, state: { status: 'succeeded', reference: d.reference },
    reason: `dispute lost${d.reason ? ` (${d.reason.replaceAll('_', ' ')})` : ''}`, refundId: null, brandId: d.brandId, txref: d.txref, mode: d.mode,
  });
  return { outcome: 'applied', cancellations: lost.cancellations };
}

/**
 * The sandbox's side of a dispute: the one a payment with test card 4000 0000 0000 0259 opens as
 * it succeeds (checkout/service.ts, settlePayment), reported as Stripe's charge.dispute.created is.
 */
export async function openPlayedDispute(tx: Queryable, payment: { brand_id: string; mode: Mode; txref: string; amount: number }, dispute: { reference: string; reason: string }, provider: string) {
  await applyReportedDispute(tx, {
    provider, reference: dispute.reference, brandId: payment.brand_id, txref: payment.txref, mode: payment.mode,
    amount: payment.amount, status: 'needs_response', reason: dispute.reason, closed: false,
  });
}

/**
 * POST /test/transactions/{txref}/dispute/close (test keys only): decides a sandbox dispute as the buyer's
 * bank would, `won` or `lost`, through the same path as Stripe's charge.dispute.closed (a lost
 * one is a refund). Stripe's test mode decides its disputes by the evidence given ("winning_evidence",
 * "losing_evidence"); the sandbox takes the outcome itself. Returns the refund's provider
 * cancellations (none for the sandbox) for symmetry with the webhook.
 */
export async function closeTestDispute(tx: Queryable, principal: Principal, txref: string, outcome: 'won' | 'lost') {
  if (principal.mode !== 'test') {
    throw new AppError('not_found', 'Disputes are closed by hand in test mode only (the sandbox); a live dispute is decided by the buyer\'s bank and reported by Stripe.');
  }
  const payment = await repo.findByTxref(tx, principal.brandId, 'test', txref, { forUpdate: true });
  if (!payment) throw notFound('transaction');
  const { dispute } = payment;
  if (!dispute) throw new AppError('conflict', `Transaction ${txref} is not disputed. Pay with test card 4000 0000 0000 0259 to have a dispute opened.`);
  if (dispute.closedAt) throw new AppError('conflict', `The dispute of transaction ${txref} was already closed (${dispute.status}).`);
  await applyReportedDispute(tx, {
    provider: payment.provider ?? 'sandbox', reference: dispute.id, brandId: payment.brand_id, txref, mode: 'test',
    amount: dispute.amount, status: outcome, reason: dispute.reason, closed: true,
  });
  return (await repo.findByTxref(tx, principal.brandId, 'test', txref))!;
}
