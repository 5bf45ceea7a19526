import type { Queryable } from '../db/client.ts';
import { pageRequest, toPage } from '../db/paging.ts';
import { notFound } from '../errors.ts';
import type { Principal } from '../auth/principal.ts';
import type { PayoutSettings } from '../config.ts';
import { exponentOf, toMajor } from '../money.ts';
import { versionOf } from '../object-version.ts';
import * as repo from './repository.ts';
import { renderShipping } from '../shipping/render.ts';
import type { Transaction, TransactionListQuery, TransactionTotals, TransactionTotalsQuery } from './schemas.ts';

/**
 * The platform fee on one paid transaction, in minor units (docs/payouts.md): the percentage of
 * its amount, rounded half up to the currency's minor unit, plus the fixed part in that
 * currency's units (0.30 is 30 cents, 0 yen), never more than the amount itself. Free
 * transactions carry no fee and are in no payout.
 */
export function feeOf(amount: number, currency: string, settings: Pick<PayoutSettings, 'feeBasisPoints' | 'feeFixed'>): number {
  if (amount <= 0) return 0;
  const percent = Math.floor((amount * settings.feeBasisPoints + 5_000) / 10_000);
  const fixed = Math.round(settings.feeFixed * 10 ** exponentOf(currency));
  return Math.min(amount, percent + fixed);
}

/** The fee settings (config.payouts) that `fee` and `net` are rendered with. */
export type FeeSettings = Pick<PayoutSettings, 'feeBasisPoints' | 'feeFixed'>;

/**
 * `fee` and `net` of a payment that succeeded (refunded since or not): the platform fee its payout
 * charged, or, before it is paid out, the fee the next payout will charge under the current
 * settings (docs/payouts.md); net is the amount less that fee less what refunds gave back.
 */
function feesOf(row: repo.TransactionRow, fees: FeeSettings | undefined): { fee?: number; net?: number } {
  if (!fees || (row.status !== 'succeeded' && row.status !== 'refunded')) return {};
  const fee = row.fee ?? feeOf(row.amount, row.currency, fees);
  return { fee: toMajor(fee, row.currency), net: toMajor(row.amount - fee - (row.refunded_amount ?? 0), row.currency) };
}

/** A transaction as the API shows it; with `fees`, also its `fee` and `net` (GET, lists, refunds). */
export function renderTransaction(row: repo.TransactionRow, fees?: FeeSettings): Transaction {
  return {
    txref: row.txref,
    type: row.type,
    status: row.status,
    amount: toMajor(row.amount, row.currency),
    currency: row.currency,
    customer: { name: row.customer_name, email: row.customer_email },
    createdAt: row.created_at.toISOString(),
    ...(row.resource_id ? { resourceID: row.resource_id } : {}),
    metadata: row.metadata,
    refundedAmount: toMajor(row.refunded_amount ?? 0, row.currency),
    refunds: (row.refunds ?? []).map((r) => ({ ...r, amount: toMajor(r.amount, row.currency) })),
    ...feesOf(row, fees),
    ...(row.attribution && Object.keys(row.attribution).length ? { attribution: row.attribution } : {}),
    ...(row.coupon_code ? { coupon: row.coupon_code, discount: toMajor(Number(row.discount ?? 0), row.currency) } : {}),
    ...(row.affiliate ? { affiliate: { id: row.affiliate.id, code: row.affiliate.code } } : {}),
    ...(row.dispute ? { dispute: { ...row.dispute, amount: toMajor(row.dispute.amount, row.currency) } } : {}),
    ...(row.shipping ? { shipping: renderShipping(row.shipping, row.currency) } : {}),
    ...(row.fulfilment_status ? { fulfilment: { status: row.fulfilment_status, ...row.fulfilment } } : {}),
    ...versionOf(row),
  };
}

/** The API's filter parameters as the repository takes them. */
function filterOf(query: Omit<TransactionListQuery, 'limit' | 'cursor' | 'order'>): repo.TransactionFilter {
  return {
    status: query.status,
    resourceId: query.resourceID,
    createdFrom: query.createdFrom ? new Date(query.createdFrom) : undefined,
    createdBefore: query.createdBefore ? new Date(query.createdBefore) : undefined,
    q: query.q?.trim() || undefined,
    fulfilment: query.fulfilment,
  };
}

export async function listTransactions(db: Queryable, principal: Principal, query: TransactionListQuery, fees?: FeeSettings) {
  // Each order its own list name, so a cursor of one is refused by the other (db/paging.ts).
  const list = query.order === 'oldest' ? 'transactions_oldest' : 'transactions';
  const page = pageRequest(list, query);
  const rows = await repo.listTransactions(db, principal.brandId, principal.mode, page, filterOf(query), query.order);
  return toPage(list, page, rows, (row) => renderTransaction(row, fees));
}

/** What the transactions a filter selects add up to, per currency (GET /transactions/totals). */
export async function transactionTotals(db: Queryable, principal: Principal, query: TransactionTotalsQuery): Promise<TransactionTotals> {
  const rows = await repo.totalsOf(db, principal.brandId, principal.mode, filterOf(query));
  return {
    items: rows.map((r) => ({
      currency: r.currency, count: r.count, paidCount: r.paid_count,
      paid: toMajor(Number(r.paid), r.currency), refunded: toMajor(Number(r.refunded), r.currency),
    })),
  };
}

/** A transaction of the principal's brand and mode; anything else is not_found, never forbidden. */
export async function getTransaction(db: Queryable, principal: Principal, txref: string, fees?: FeeSettings) {
  const row = await repo.findByTxref(db, principal.brandId, principal.mode, txref);
  if (!row) throw notFound('transaction');
  return renderTransaction(row, fees);
}
