import type { Queryable } from '../db/client.ts';
import type { Mode } from '../auth/principal.ts';
import { bumpVersionSql } from '../object-version.ts';
import type { TransactionRow } from './repository.ts';

/** The refunds table (migration 021): one refund of a transaction, pending until the provider answers. */
export interface RefundRow {
  brand_id: string;
  id: string;
  mode: Mode;
  transaction_id: string;
  amount: number;
  currency: string;
  reason: string | null;
  status: 'pending' | 'succeeded' | 'failed';
  revoke_access: boolean;
  provider: string;
  provider_reference: string | null;
  failure_message: string | null;
  payout_id: string | null;
  created_at: Date;
  updated_at: Date;
}

export type NewRefundRow = Pick<RefundRow, 'brand_id' | 'id' | 'mode' | 'transaction_id' | 'amount' | 'currency' | 'reason' | 'revoke_access' | 'provider'>;

/**
 * Recomputes the transaction's refundedAmount and refunds[] (and `refunded` once nothing is left)
 * from its refund rows, with the transaction's version, and returns the transaction. Its own
 * statement, run after the change of a refund row while the caller holds the transaction's row
 * lock: it reads every refund committed before that lock was granted, so two refunds of one
 * transaction settling at once cannot each write a summary that misses the other.
 */
async function resummarise(db: Queryable, brandId: string, transactionId: string): Promise<TransactionRow> {
  const [row] = await db.query<TransactionRow>(
    `WITH summary AS (
       SELECT
         COALESCE(sum(r.amount) FILTER (WHERE r.status = 'succeeded'), 0)::bigint AS refunded,
         COALESCE(jsonb_agg(jsonb_build_object(
           'id', r.id, 'amount', r.amount, 'reason', r.reason, 'status', r.status,
           'createdAt', to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
         ) ORDER BY r.created_at, r.id), '[]'::jsonb) AS list
       FROM refunds r WHERE r.brand_id = $1 AND r.transaction_id = $2
     )
     UPDATE transactions t
     SET refunded_amount = summary.refunded,
         refunds = summary.list,
         status = CASE WHEN t.status IN ('succeeded', 'refunded') THEN CASE WHEN summary.refunded >= t.amount THEN 'refunded' ELSE 'succeeded' END ELSE t.status END,
         ${bumpVersionSql}
     FROM summary
     WHERE t.brand_id = $1 AND t.id = $2
     RETURNING t.*`,
    [brandId, transactionId],
  );
  return row;
}

/** Records a pending refund (the caller holds the transaction's row lock), and returns it with its transaction as it now shows it. */
export async function insertRefund(db: Queryable, r: NewRefundRow): Promise<{ refund: RefundRow; transaction: TransactionRow }> {
  const [refund] = await db.query<RefundRow>(
    `INSERT INTO refunds (brand_id, id, mode, transaction_id, amount, currency, reason, status, revoke_access, provider)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'pending', $8, $9) RETURNING *`,
    [r.brand_id, r.id, r.mode, r.transaction_id, r.amount, r.currency, r.reason, r.revoke_access, r.provider],
  );
  const transaction = await resummarise(db, r.brand_id, r.transaction_id);
  return { refund, transaction };
}

/**
 * Moves a pending refund to the provider's outcome, and its transaction's summary with it, under
 * the transaction's row lock. Conditional on `pending`: of any number of callers racing (a retry,
 * a webhook) one gets the rows back and goes on to record the event; the others get undefined.
 */
export async function finishRefund(
  db: Queryable,
  brandId: string,
  id: string,
  outcome: { status: 'succeeded'; reference: string } | { status: 'failed'; reference: string | null; message: string },
): Promise<{ refund: RefundRow; transaction: TransactionRow } | undefined> {
  await db.query(
    `SELECT 1 FROM transactions WHERE brand_id = $1 AND id = (SELECT transaction_id FROM refunds WHERE brand_id = $1 AND id = $2) FOR UPDATE`,
    [brandId, id],
  );
  const [refund] = await db.query<RefundRow>(
    `UPDATE refunds SET status = $3, provider_reference = COALESCE($4, provider_reference), failure_message = $5,
       updated_at = date_trunc('milliseconds', clock_timestamp())
     WHERE brand_id = $1 AND id = $2 AND status = 'pending'
     RETURNING *`,
    [brandId, id, outcome.status, outcome.reference, outcome.status === 'failed' ? outcome.message : null],
  );
  if (!refund) return undefined;
  return { refund, transaction: await resummarise(db, brandId, refund.transaction_id) };
}

/** Keeps the provider's reference of a refund still pending (the provider is processing it). */
export async function notePending(db: Queryable, brandId: string, id: string, reference: string): Promise<void> {
  await db.query('UPDATE refunds SET provider_reference = $3 WHERE brand_id = $1 AND id = $2 AND status = \'pending\'', [brandId, id, reference]);
}

export function refundsOf(db: Queryable, brandId: string, transactionId: string) {
  return db.query<RefundRow>('SELECT * FROM refunds WHERE brand_id = $1 AND transaction_id = $2 ORDER BY created_at, id', [brandId, transactionId]);
}

export async function findRefund(db: Queryable, brandId: string, id: string) {
  const [row] = await db.query<RefundRow>('SELECT * FROM refunds WHERE brand_id = $1 AND id = $2', [brandId, id]);
  return row;
}

/** A refund by the provider's reference for it (a Stripe re_…), for what the provider reports later. */
export async function findByProviderReference(db: Queryable, brandId: string, provider: string, reference: string) {
  const [row] = await db.query<RefundRow>(
    'SELECT * FROM refunds WHERE brand_id = $1 AND provider = $2 AND provider_reference = $3', [brandId, provider, reference]);
  return row;
}

/** Succeeded refunds of a brand and mode not yet deducted by a payout, locked for settling. */
export function unsettledRefunds(db: Queryable, brandId: string, mode: Mode) {
  return db.query<RefundRow>(
    `SELECT * FROM refunds WHERE brand_id = $1 AND mode = $2 AND status = 'succeeded' AND payout_id IS NULL
     ORDER BY created_at, id FOR UPDATE`,
    [brandId, mode],
  );
}

export async function deductInto(db: Queryable, brandId: string, payoutId: string, ids: string[]): Promise<void> {
  await db.query('UPDATE refunds SET payout_id = $2 WHERE brand_id = $1 AND id = ANY($3::text[]) AND payout_id IS NULL', [brandId, payoutId, ids]);
}

/** The refunds a payout deducted, oldest first, with their transaction's txref (its lines). */
export function deductedBy(db: Queryable, brandId: string, payoutId: string) {
  return db.query<RefundRow & { txref: string }>(
    `SELECT r.*, t.txref FROM refunds r JOIN transactions t ON t.brand_id = r.brand_id AND t.id = r.transaction_id
     WHERE r.brand_id = $1 AND r.payout_id = $2 ORDER BY r.created_at, r.id`,
    [brandId, payoutId],
  );
}

/** Succeeded refunds per currency and local day, as transactions/repository.ts salesByDay counts sales. */
export function refundsByDay(db: Queryable, brandId: string, mode: Mode, days: { starts: Date; ends: Date }[]) {
  return db.query<{ day: number; currency: string; refunded: number }>(
    `SELECT d.day::integer AS day, r.currency, sum(r.amount)::bigint AS refunded
     FROM unnest($3::timestamptz[], $4::timestamptz[]) WITH ORDINALITY AS d(starts, ends, day)
     JOIN refunds r ON r.brand_id = $1 AND r.mode = $2 AND r.status = 'succeeded'
       AND r.created_at >= d.starts
       AND r.created_at < d.ends
     GROUP BY d.day, r.currency`,
    [brandId, mode, days.map((d) => d.starts.toISOString()), days.map((d) => d.ends.toISOString())],
  );
}
