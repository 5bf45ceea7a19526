import type { Mode } from '../auth/principal.ts';
import type { Queryable } from '../db/client.ts';
import { newId } from '../ids.ts';
import type { RefundState } from '../payments/provider.ts';
import type { ProviderCancellation } from '../subscriptions/access.ts';
import * as refunds from '../transactions/refunds-repository.ts';
import type { RefundRow } from '../transactions/refunds-repository.ts';
import { refundable, settleRefund } from './service.ts';
import * as repo from '../transactions/repository.ts';

/**
 * A refund a provider reports on its own (Stripe's refund.created, refund.updated and
 * refund.failed events; docs/refunds.md): the outcome of one we asked for and left pending, or one
 * the brand made in the provider's dashboard. Runs in the caller's transaction (the webhook's,
 * which records the provider event with it), so a redelivered event changes nothing.
 */
export interface ReportedRefund {
  provider: string;
  /** The provider's id for the refund (re_…). */
  reference: string;
  /** Minor units. */
  amount: number;
  state: RefundState;
  reason: string | null;
  /** Our refund's id and brand, when we asked for it (the provider keeps them in its metadata). */
  refundId: string | null;
  brandId: string | null;
  /** The payment's txref, when the provider's payment names it (a refund made in its dashboard). */
  txref: string | null;
  /** The payment's mode: `live` for Stripe's; `test` for the sandbox's (a dispute lost there). */
  mode: Mode;
}

export type ReportedOutcome = { outcome: 'applied' | 'ignored'; cancellations: ProviderCancellation[] };

const ignored: ReportedOutcome = { outcome: 'ignored', cancellations: [] };

async function settleKnown(tx: Queryable, row: RefundRow, state: RefundState): Promise<ReportedOutcome> {
  if (row.status !== 'pending') return ignored; // settled already (our own answer, or an earlier event)
  const settled = await settleRefund(tx, row, state, null);
  return { outcome: 'applied', cancellations: settled?.cancellations ?? [] };
}

export async function applyReportedRefund(tx: Queryable, r: ReportedRefund): Promise<ReportedOutcome> {
  if (!r.brandId) return ignored;
  const ours = r.refundId ? await refunds.findRefund(tx, r.brandId, r.refundId) : undefined;
  const known = ours ?? await refunds.findByProviderReference(tx, r.brandId, r.provider, r.reference);
  if (known) return settleKnown(tx, known, r.state);
  // Made in the provider's dashboard: recorded as a refund of ours, then settled the same way.
  if (!r.txref || r.state.status === 'failed') return ignored;
  const payment = await repo.findByTxref(tx, r.brandId, r.mode, r.txref, { forUpdate: true });
  if (!payment || payment.provider !== r.provider || (payment.status !== 'succeeded' && payment.status !== 'refunded')) return ignored;
  const left = refundable(payment, await refunds.refundsOf(tx, payment.brand_id, payment.id));
  // More than we think is left (a refund of ours still pending that the provider already counts): take what is left.
  const amount = Math.min(r.amount, left);
  if (amount <= 0) return ignored;
  const { refund } = await refunds.insertRefund(tx, {
    brand_id: payment.brand_id, id: newId('rfd'), mode: payment.mode, transaction_id: payment.id, amount, currency: payment.currency,
    reason: r.reason, revoke_access: amount === left, provider: r.provider,
  });
  await refunds.notePending(tx, refund.brand_id, refund.id, r.reference);
  const settled = await settleRefund(tx, { ...refund, provider_reference: r.reference }, r.state, null);
  return { outcome: 'applied', cancellations: settled?.cancellations ?? [] };
}
