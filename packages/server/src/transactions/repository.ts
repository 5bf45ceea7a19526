import type { Queryable } from '../db/client.ts';
import { afterCursor, type PageRequest } from '../db/paging.ts';
import type { Mode } from '../auth/principal.ts';
import { bumpVersionSql } from '../object-version.ts';

export interface TransactionRow {
  brand_id: string;
  id: string;
  txref: string;
  mode: Mode;
  type: string;
  status: string;
  amount: number;
  currency: string;
  customer_name: string;
  customer_email: string;
  resource_id: string | null;
  metadata: Record<string, string>;
  /** The payment link it pays, when it came from checkout. */
  payment_link_id: string | null;
  /** The payment provider asked, and its reference for this payment (none for free links). */
  provider: string | null;
  provider_reference: string | null;
  failure_code: string | null;
  failure_message: string | null;
  /** The payout it was settled into, and the platform fee charged on it (minor units). */
  payout_id?: string | null;
  fee?: number | null;
  /** The OAuth app whose payment link this pays (migration 015), or null. */
  app_id?: string | null;
  /** Succeeded refunds in all, and every refund as the API lists it (amounts in minor units), kept by refunds-repository.ts. */
  refunded_amount?: number;
  refunds?: RefundSummary[];
  /** What the payment holds of limited stock (checkout/stock.ts), and where the buyer came from (migration 023). */
  stock_held?: import('../checkout/stock.ts').StockHeld | null;
  attribution?: Attribution | null;
  /** The coupon code the payment used and what it took off, minor units (migration 024). */
  coupon_code?: string | null;
  discount?: number | string | null;
  /** The affiliate the payment is attributed to (migration 025, affiliates/). */
  affiliate?: { id: string; code: string } | null;
  /** A dispute of the payment the provider reported (migration 025, refunds/disputes.ts). */
  dispute?: DisputeSummary | null;
  /** What a physical order chose at checkout, and where its fulfilment stands (migration 030, shipping/). */
  shipping?: import('../shipping/checkout.ts').ShippingChoice | null;
  fulfilment_status?: import('../shipping/schemas.ts').FulfilmentStatus | null;
  fulfilment?: FulfilmentDetails | null;
  created_at: Date;
  /** Incremented, with updated_at, by every UPDATE here (object-version.ts). */
  version: number;
  updated_at: Date;
}

export interface RefundSummary {
  id: string;
  amount: number;
  reason: string | null;
  status: 'pending' | 'succeeded' | 'failed';
  createdAt: string;
}

/** The carrier, tracking and the time of each fulfilment step (ISO instants). */
export interface FulfilmentDetails {
  carrier?: string;
  trackingNumber?: string;
  trackingUrl?: string;
  shippedAt?: string;
  readyForPickupAt?: string;
  pickedUpAt?: string;
}

export interface DisputeSummary {
  id: string;
  status: string;
  /** Minor units. */
  amount: number;
  reason: string | null;
  createdAt: string;
  closedAt?: string;
}

export type NewTransaction = Omit<TransactionRow, 'refunded_amount' | 'refunds' | 'created_at' | 'updated_at' | 'version' | 'failure_code' | 'failure_message'>;

/** Where a buyer came from: utm_* of the checkout page's address, and an ad click id (gclid, fbclid). */
export interface Attribution {
  utmRef?: string;
  adClickID?: string;
  adType?: string;
}

export async function insertTransaction(db: Queryable, t: NewTransaction): Promise<TransactionRow> {
  const [row] = await db.query<TransactionRow>(
    `INSERT INTO transactions (brand_id, id, txref, mode, type, status, amount, currency, customer_name, customer_email,
       resource_id, metadata, payment_link_id, provider, provider_reference, app_id, stock_held, attribution, coupon_code, discount,
       shipping, fulfilment_status)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17::text::jsonb, $18::text::jsonb, $19, $20,
       $21::text::jsonb, $22) RETURNING *`,
    [t.brand_id, t.id, t.txref, t.mode, t.type, t.status, t.amount, t.currency, t.customer_name, t.customer_email,
      t.resource_id, t.metadata, t.payment_link_id, t.provider, t.provider_reference, t.app_id ?? null,
      t.stock_held ? JSON.stringify(t.stock_held) : null, t.attribution ? JSON.stringify(t.attribution) : null, t.coupon_code ?? null, t.discount ?? null,
      t.shipping ? JSON.stringify(t.shipping) : null, t.shipping ? 'unfulfilled' : null],
  );
  return row;
}

/** The list filters (TransactionFilters), resolved: instants as Dates. */
export interface TransactionFilter {
  status?: string;
  resourceId?: string;
  createdFrom?: Date;
  createdBefore?: Date;
  /** The txref exactly, or part of the customer's email ignoring case. */
  q?: string;
  /** Only physical orders whose fulfilment stands here. */
  fulfilment?: string;
}

/** `AND ...` for the filter, with parameters numbered from `next`. */
function filterSql(filter: TransactionFilter, next: number): { sql: string; params: unknown[] } {
  const sql: string[] = [];
  const params: unknown[] = [];
  const param = (value: unknown) => { params.push(value); return `$${next + params.length - 1}`; };
  if (filter.status !== undefined) sql.push(`AND status = ${param(filter.status)}`);
  if (filter.resourceId !== undefined) sql.push(`AND resource_id = ${param(filter.resourceId)}`);
  if (filter.fulfilment !== undefined) sql.push(`AND fulfilment_status = ${param(filter.fulfilment)}`);
  if (filter.createdFrom !== undefined) sql.push(`AND created_at >= ${param(filter.createdFrom.toISOString())}`);
  if (filter.createdBefore !== undefined) sql.push(`AND created_at < ${param(filter.createdBefore.toISOString())}`);
  if (filter.q !== undefined) {
    const q = param(filter.q);
    // strpos rather than LIKE, so % and _ in what was typed are plain characters.
    sql.push(`AND (txref = ${q} OR strpos(lower(customer_email), lower(${q})) > 0)`);
  }
  return { sql: sql.join(' '), params };
}

/** Newest first; `oldest` (the fulfilment queue's order) pages the other way, from the cursor on. */
export function listTransactions(db: Queryable, brandId: string, mode: Mode, page: PageRequest, filter: TransactionFilter = {}, order: 'newest' | 'oldest' = 'newest') {
  const where = filterSql(filter, 4);
  const after = order === 'oldest' ? laterThanCursor(page, 4 + where.params.length) : afterCursor(page, 4 + where.params.length);
  const direction = order === 'oldest' ? 'ASC' : 'DESC';
  return db.query<TransactionRow>(
    `SELECT * FROM transactions
     WHERE brand_id = $1 AND mode = $2 ${where.sql} ${after.sql}
     ORDER BY created_at ${direction}, id ${direction}
     LIMIT $3`,
    [brandId, mode, page.limit + 1, ...where.params, ...after.params],
  );
}

/** Per currency, what the transactions a filter selects add up to (minor units). */
export function totalsOf(db: Queryable, brandId: string, mode: Mode, filter: TransactionFilter) {
  const where = filterSql(filter, 3);
  return db.query<{ currency: string; count: number; paid_count: number; paid: number; refunded: number }>(
    `SELECT currency, count(*)::integer AS count,
       (count(*) FILTER (WHERE status IN ('succeeded', 'refunded')))::integer AS paid_count,
       coalesce(sum(amount) FILTER (WHERE status IN ('succeeded', 'refunded')), 0)::bigint AS paid,
       coalesce(sum(refunded_amount), 0)::bigint AS refunded
     FROM transactions
     WHERE brand_id = $1 AND mode = $2 ${where.sql}
     GROUP BY currency ORDER BY currency`,
    [brandId, mode, ...where.params],
  );
}

export async function findByTxref(db: Queryable, brandId: string, mode: Mode, txref: string, options: { forUpdate?: boolean } = {}) {
  const [row] = await db.query<TransactionRow>(
    `SELECT * FROM transactions WHERE brand_id = $1 AND mode = $2 AND txref = $3${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [brandId, mode, txref],
  );
  return row;
}

/** Transactions recorded for one provider object (a Stripe invoice: each charge attempt on it is its own transaction). */
export function findByProviderReference(db: Queryable, brandId: string, provider: string, reference: string) {
  return db.query<TransactionRow>(
    'SELECT * FROM transactions WHERE brand_id = $1 AND provider = $2 AND provider_reference = $3 ORDER BY created_at, id',
    [brandId, provider, reference],
  );
}

/** The link's payment in progress, if one is. */
export async function pendingForLink(db: Queryable, brandId: string, linkId: string) {
  const [row] = await db.query<TransactionRow>(
    'SELECT * FROM transactions WHERE brand_id = $1 AND payment_link_id = $2 AND status = \'pending\'',
    [brandId, linkId],
  );
  return row;
}

/**
 * Link payments pending between `fromSeconds` and `untilSeconds` old, oldest first, in every brand:
 * what the worker asks providers about (checkout/jobs.ts). The predicate matches the
 * partial index transactions_link_pending, which holds pending link payments only.
 */
export function stalePendingLinkPayments(db: Queryable, fromSeconds: number, untilSeconds: number, limit: number) {
  return db.query<TransactionRow>(
    `SELECT * FROM transactions
     WHERE payment_link_id IS NOT NULL AND status = 'pending' AND provider IS NOT NULL
       AND created_at < clock_timestamp() - make_interval(secs => $1::integer)
       AND created_at > clock_timestamp() - make_interval(secs => $2::integer)
     ORDER BY created_at LIMIT $3`,
    [fromSeconds, untilSeconds, limit],
  );
}

export async function findById(db: Queryable, brandId: string, id: string) {
  const [row] = await db.query<TransactionRow>('SELECT * FROM transactions WHERE brand_id = $1 AND id = $2', [brandId, id]);
  return row;
}

/**
 * Moves a pending attempt to its outcome. Conditional on `pending`, so of any number of callers
 * racing (a double submission, concurrent verifies) exactly one gets the row back and goes on
 * to grant access and record events; the others get undefined.
 */
export async function finishPending(
  db: Queryable,
  brandId: string,
  id: string,
  outcome: { status: 'succeeded' } | { status: 'failed'; code: string; message: string },
) {
  const [row] = await db.query<TransactionRow>(
    `UPDATE transactions SET status = $3, failure_code = $4, failure_message = $5, ${bumpVersionSql}
     WHERE brand_id = $1 AND id = $2 AND status = 'pending' RETURNING *`,
    [brandId, id, outcome.status, outcome.status === 'failed' ? outcome.code : null, outcome.status === 'failed' ? outcome.message : null],
  );
  return row;
}

/**
 * Paid transactions of a brand and mode that succeeded (refunded since or not) and are not yet in
 * a payout, locked for settling: a refund is deducted as its own line (docs/refunds.md).
 */
export function unsettled(db: Queryable, brandId: string, mode: Mode) {
  return db.query<TransactionRow>(
    `SELECT * FROM transactions WHERE brand_id = $1 AND mode = $2 AND status IN ('succeeded', 'refunded') AND payout_id IS NULL AND amount > 0
     ORDER BY created_at, id FOR UPDATE`,
    [brandId, mode],
  );
}

/** Puts transactions into a payout, each with the fee charged on it (minor units). */
export async function settleInto(db: Queryable, brandId: string, payoutId: string, fees: { id: string; fee: number }[]): Promise<void> {
  await db.query(
    `UPDATE transactions t SET payout_id = $2, fee = f.fee, ${bumpVersionSql}
     FROM jsonb_to_recordset($3::jsonb) AS f(id text, fee bigint)
     WHERE t.brand_id = $1 AND t.id = f.id AND t.payout_id IS NULL`,
    [brandId, payoutId, JSON.stringify(fees)],
  );
}

/** Records the affiliate a payment is attributed to, in the statement's transaction that settles it (affiliates/commissions.ts). */
export async function setAffiliate(db: Queryable, brandId: string, id: string, affiliate: { id: string; code: string }): Promise<TransactionRow> {
  const [row] = await db.query<TransactionRow>(
    'UPDATE transactions SET affiliate = $3::text::jsonb WHERE brand_id = $1 AND id = $2 RETURNING *',
    [brandId, id, JSON.stringify(affiliate)],
  );
  return row;
}

/** The transactions a payout settled, oldest first (its lines, payouts/service.ts). */
export function inPayout(db: Queryable, brandId: string, payoutId: string) {
  return db.query<TransactionRow>('SELECT * FROM transactions WHERE brand_id = $1 AND payout_id = $2 ORDER BY created_at, id', [brandId, payoutId]);
}

/** Records where a dispute of the payment stands (a change of the transaction: its version moves). */
export async function setDispute(db: Queryable, brandId: string, id: string, dispute: DisputeSummary): Promise<TransactionRow> {
  const [row] = await db.query<TransactionRow>(
    `UPDATE transactions SET dispute = $3::text::jsonb, ${bumpVersionSql} WHERE brand_id = $1 AND id = $2 RETURNING *`,
    [brandId, id, JSON.stringify(dispute)],
  );
  return row;
}

/** Paid sales (amount > 0, succeeded or refunded since) of one local day, per currency: the home's revenue (metrics/). */
export interface DailySales { day: number; currency: string; gross: number; count: number }

/**
 * Sales per currency and per day, `days` being when each local day starts and ends (oldest first;
 * `day` in the answer counts from 1): the boundaries come from the brand's time zone, computed by
 * the caller, so the SQL needs no time zone data.
 */
export function salesByDay(db: Queryable, brandId: string, mode: Mode, days: { starts: Date; ends: Date }[]) {
  return db.query<DailySales>(
    `SELECT d.day::integer AS day, t.currency, sum(t.amount)::bigint AS gross, count(*)::integer AS count
     FROM unnest($3::timestamptz[], $4::timestamptz[]) WITH ORDINALITY AS d(starts, ends, day)
     JOIN transactions t ON t.brand_id = $1 AND t.mode = $2 AND t.status IN ('succeeded', 'refunded') AND t.amount > 0
       AND t.created_at >= d.starts
       AND t.created_at < d.ends
     GROUP BY d.day, t.currency`,
    [brandId, mode, days.map((d) => d.starts.toISOString()), days.map((d) => d.ends.toISOString())],
  );
}

/** The newest paid sales (succeeded or refunded since), for the home's "recent sales". */
export function recentSales(db: Queryable, brandId: string, mode: Mode, limit: number) {
  return db.query<TransactionRow>(
    `SELECT * FROM transactions
     WHERE brand_id = $1 AND mode = $2 AND status IN ('succeeded', 'refunded') AND amount > 0
     ORDER BY created_at DESC, id DESC LIMIT $3`,
    [brandId, mode, limit],
  );
}

/** Whether the brand has a succeeded (or since refunded) payment in a mode (the home's setup checklist). */
export async function hasPaidTransaction(db: Queryable, brandId: string, mode: Mode): Promise<boolean> {
  const [row] = await db.query<{ any: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM transactions WHERE brand_id = $1 AND mode = $2 AND status IN ('succeeded', 'refunded')) AS any`, [brandId, mode]);
  return row.any;
}

/** One person's (a lower-cased email) newest transactions of a mode, every status: their customer page. */
export function transactionsOfPerson(db: Queryable, brandId: string, mode: Mode, person: string, limit: number) {
  return db.query<TransactionRow>(
    `SELECT * FROM transactions WHERE brand_id = $1 AND mode = $2 AND lower(customer_email) = $3
     ORDER BY created_at DESC, id DESC LIMIT $4`,
    [brandId, mode, person, limit],
  );
}

/** "Newer than the cursor": afterCursor's mirror, for a list paged oldest first. */
function laterThanCursor(req: PageRequest, next: number): { sql: string; params: unknown[] } {
  if (!req.after) return { sql: '', params: [] };
  return { sql: `AND (created_at, id) > ($${next}, $${next + 1})`, params: [req.after.createdAt, req.after.id] };
}

/**
 * Moves a physical order's fulfilment from `from` to `to`, merging `details` in; undefined when
 * it no longer stands at `from` (someone else moved it first), so a step happens once.
 */
export async function moveFulfilment(
  tx: Queryable, brandId: string, id: string, from: string, to: string, details: FulfilmentDetails,
): Promise<TransactionRow | undefined> {
  const [row] = await tx.query<TransactionRow>(
    `UPDATE transactions SET fulfilment_status = $4, fulfilment = coalesce(fulfilment, '{}'::jsonb) || $5::text::jsonb, ${bumpVersionSql}
     WHERE brand_id = $1 AND id = $2 AND fulfilment_status = $3 RETURNING *`,
    [brandId, id, from, to, JSON.stringify(details)],
  );
  return row;
}
