import type { PayoutSettings } from '../config.ts';
import type { Queryable } from '../db/client.ts';
import { pageRequest, toPage } from '../db/paging.ts';
import { notFound } from '../errors.ts';
import { recordEvent } from '../events/service.ts';
import type { EventData } from '../webhooks/payloads.ts';
import { newId } from '../ids.ts';
import { versionOf } from '../object-version.ts';
import type { Principal } from '../auth/principal.ts';
import { toMajor } from '../money.ts';
import * as transactions from '../transactions/repository.ts';
import { feeOf } from '../transactions/service.ts';
import * as refunds from '../transactions/refunds-repository.ts';
import * as commissions from '../affiliates/commissions-repository.ts';
import { commissionAmount } from '../affiliates/commissions.ts';
import type { PayoutDetail } from './schemas.ts';
import * as repo from './repository.ts';
import type { PayoutRow, ScheduleRow } from './repository.ts';

export function renderPayout(row: PayoutRow): EventData<'payout.settled'> {
  return {
    id: row.id,
    amount: toMajor(row.amount, row.currency),
    currency: row.currency,
    fee: toMajor(row.fee, row.currency),
    transactionCount: row.transaction_count,
    refunded: toMajor(row.refunded ?? 0, row.currency),
    refundCount: row.refund_count ?? 0,
    gross: toMajor(row.amount + row.fee + (row.refunded ?? 0) + (row.affiliate_commission ?? 0), row.currency),
    affiliateCommission: toMajor(row.affiliate_commission ?? 0, row.currency),
    commissionCount: row.commission_count ?? 0,
    periodStart: row.period_start.toISOString(),
    periodEnd: row.period_end.toISOString(),
    settledAt: row.settled_at.toISOString(),
    mode: row.mode,
    ...versionOf(row),
  };
}

/**
 * One payout run of a brand's balance in one mode, at `at` (the schedule's boundary), in the
 * caller's transaction. Per currency: every paid transaction that succeeded and is not yet in a
 * payout (refunded since or not), with its fee, less every succeeded refund not yet deducted
 * (docs/refunds.md), less every affiliate commission earned by `at` (its hold over) and not yet
 * deducted (docs/affiliates.md). A currency whose balance would be negative (refunds of money already paid
 * out, more than the new sales) gets no payout: its transactions and refunds stay unsettled and
 * are carried forward to the next run that has something to pay out of (docs/payouts.md). One
 * payout.settled per payout made. With nothing left to pay, the balance is dropped until
 * something is paid or refunded again. Returns the payouts made.
 */
export async function settleBalance(tx: Queryable, schedule: ScheduleRow, at: Date, settings: PayoutSettings): Promise<PayoutRow[]> {
  const sales = await transactions.unsettled(tx, schedule.brand_id, schedule.mode);
  const givenBack = await refunds.unsettledRefunds(tx, schedule.brand_id, schedule.mode);
  const earned = await commissions.earnedUnsettled(tx, schedule.brand_id, schedule.mode, new Date(at.getTime() - settings.affiliateHoldMs));
  const currencies = [...new Set([...sales, ...givenBack, ...earned].map((r) => r.currency))].sort();
  const payouts: PayoutRow[] = [];
  for (const currency of currencies) {
    const rows = sales.filter((t) => t.currency === currency);
    const refundRows = givenBack.filter((r) => r.currency === currency);
    const fees = rows.map((t) => ({ id: t.id, fee: feeOf(t.amount, currency, settings) }));
    const gross = rows.reduce((sum, t) => sum + t.amount, 0);
    const fee = fees.reduce((sum, f) => sum + f.fee, 0);
    const refunded = refundRows.reduce((sum, r) => sum + r.amount, 0);
    // A commission's net is on the fee its payment's payout charged: this run's, for a payment settled in it.
    const feeNow = new Map(fees.map((f) => [f.id, f.fee]));
    const owed = earned.filter((c) => c.currency === currency).map((c) => ({
      id: c.id,
      amount: commissionAmount(c, settings, c.payment_fee ?? feeNow.get(c.transaction_id) ?? feeOf(Number(c.payment_amount), currency, settings)),
    }));
    const commission = owed.reduce((sum, c) => sum + c.amount, 0);
    if (gross - fee - refunded - commission < 0) continue; // carried forward
    const payout = await repo.insertPayout(tx, {
      brand_id: schedule.brand_id, id: newId('po'), mode: schedule.mode, currency, amount: gross - fee - refunded - commission, fee,
      transaction_count: rows.length, refunded, refund_count: refundRows.length,
      affiliate_commission: commission, commission_count: owed.filter((c) => c.amount > 0).length,
      period_start: schedule.period_start, period_end: at, settled_at: at,
    });
    await transactions.settleInto(tx, schedule.brand_id, payout.id, fees);
    await refunds.deductInto(tx, schedule.brand_id, payout.id, refundRows.map((r) => r.id));
    await commissions.deductInto(tx, schedule.brand_id, payout.id, owed);
    await recordEvent(tx, { brandId: payout.brand_id, mode: payout.mode, type: 'payout.settled', data: renderPayout(payout) });
    payouts.push(payout);
  }
  // A negative balance waits for a sale (which notes the balance payable again), not for every run.
  // Commissions still in their hold keep the balance scheduled, so they are deducted once earned.
  if (payouts.length || await commissions.anyUnsettled(tx, schedule.brand_id, schedule.mode)) await repo.moveSchedule(tx, schedule.brand_id, schedule.mode, at);
  else await repo.deleteSchedule(tx, schedule.brand_id, schedule.mode);
  return payouts;
}

export async function listPayouts(db: Queryable, principal: Principal, query: { limit?: number; cursor?: string }) {
  const page = pageRequest('payouts', query);
  const rows = await repo.listPayouts(db, principal.brandId, principal.mode, page);
  return toPage('payouts', page, rows, renderPayout);
}

/** GET /payouts/{id}: the payout with its lines (every payment, fee, refund and commission), which add up to its amount. */
export async function getPayout(db: Queryable, principal: Principal, id: string): Promise<PayoutDetail> {
  const row = await repo.findPayout(db, principal.brandId, principal.mode, id);
  if (!row) throw notFound('payout');
  const [paid, givenBack, owed] = await Promise.all([
    transactions.inPayout(db, row.brand_id, row.id),
    refunds.deductedBy(db, row.brand_id, row.id),
    commissions.deductedBy(db, row.brand_id, row.id),
  ]);
  const major = (minor: number) => toMajor(minor, row.currency);
  const lines: PayoutDetail['lines'] = paid.flatMap((t) => [
    { type: 'payment' as const, amount: major(t.amount), txref: t.txref },
    { type: 'fee' as const, amount: major(-(t.fee ?? 0)), txref: t.txref },
  ]);
  for (const r of givenBack) lines.push({ type: 'refund', amount: major(-r.amount), txref: r.txref, id: r.id });
  for (const c of owed) lines.push({ type: 'affiliate_commission', amount: major(-Number(c.amount)), txref: c.txref, id: c.id, affiliateID: c.affiliate_id });
  return { ...renderPayout(row), lines };
}
