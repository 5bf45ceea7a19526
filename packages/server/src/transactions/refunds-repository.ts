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
 * The transaction's refundedAmount and refunds[] (and `refunded` once nothing is left), recomputed
 * from its refund rows in the statement that changed them, with the transaction's version. Run
 * after every change of a refund row; returns the transaction as it now stands.
 */
const summarise = (refundCte: string) => `
  , summary AS (
    SELECT
      COALESCE(sum(r.amount) FILTER (WHERE r.status = 'succeeded'), 0)::bigint AS refunded,
      COALESCE(jsonb_agg(jsonb_build_object(
        'id', r.id, 'amount', r.amount, 'reason', r.reason, 'status', r.status,
        'createdAt', to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
      ) ORDER BY r.created_at, r.id), '[]'::jsonb) AS list
    FROM (
      SELECT id, amount, reason, status, created_at FROM refunds
      WHERE brand_id = $1 AND transaction_id = (SELECT transaction_id FROM ${refundCte}) AND id <> (SELECT id FROM ${refundCte})
      UNION ALL SELECT id, amount, reason, status, created_at FROM ${refundCte}
    ) r
  )
  UPDATE transactions t
  SET refunded_amount = summary.refunded,
      refunds = summary.list,
      status = CASE WHEN t.status IN ('succeeded', 'refunded') THEN CASE WHEN summary.refunded >= t.amount THEN 'refunded' ELSE 'succeeded' END ELSE t.status END,
      ${bumpVersionSql}
  FROM summary
  WHERE t.brand_id = $1 AND t.id = (SELECT transaction_id FROM ${refundCte})
  RETURNING t.*`;

/** Records a pending refund, and returns it with its transaction as it now shows it. */
export async function insertRefund(db: Queryable, r: NewRefundRow): Promise<{ refund: RefundRow; transaction: TransactionRow }> {
  const [refund] = await db.query<RefundRow>(
    `INSERT INTO refunds (brand_id, id, mode, transaction_id, amount, currency, reason, status, revoke_access, provider)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'pending', $8, $9) RETURNING *`,
    [r.brand_id, r.id, r.mode, r.transaction_id, r.amount, r.currency, r.reason, r.revoke_access, r.provider],
  );
  const transaction = await resummarise(db, r.brand_id, r.transaction_id);
  return { refund, transaction };
}

/** Recomputes a transaction's refund summary from its rows (after an insert). */
async function resummarise(db: Queryable, brandId: string, transactionId: string): Promise<TransactionRow> {
  const [row] = await db.query<TransactionRow>(
    `WITH changed AS (SELECT * FROM refunds WHERE brand_id = $1 AND transaction_id = $2 ORDER BY created_at DESC, id DESC LIMIT 1)
     ${summarise('changed')}`,
    [brandId, transactionId],
  );
  return row;
}

/**
 * Moves a pending refund to the provider's outcome, and its transaction's summary with it, in one
 * statement. Conditional on `pending`: of any number of callers racing (a retry, a webhook) one
 * gets the rows back and goes on to record the event; the others get undefined.
 */
export async function finishRefund(
  db: Queryable,
  brandId: string,
  id: string,
  outcome: { status: 'succeeded'; reference: string } | { status: 'failed'; reference: string | null; message: string },
): Promise<{ refund: RefundRow; transaction: TransactionRow } | undefined> {
  const [row] = await db.query<TransactionRow & { refund: RefundRow }>(
    `WITH moved AS (
       UPDATE refunds SET status = $3, provider_reference = COALESCE($4, provider_reference), failure_message = $5,
         updated_at = date_trunc('milliseconds', clock_timestamp())
       WHERE brand_id = $1 AND id = $2 AND status = 'pending'
       RETURNING *
     ) ${summarise('moved')}, (SELECT to_jsonb(moved) FROM moved) AS refund`,
    [brandId, id, outcome.status, outcome.reference, outcome.status === 'failed' ? outcome.message : null],
  );
  if (!row) return undefined;
  const { refund, ...transaction } = row;
  return { refund: reviveRefund(refund), transaction: transaction as TransactionRow };
}

/** to_jsonb gives timestamps as text: back to Dates, as the driver gives them. */
function reviveRefund(r: RefundRow): RefundRow {
  return { ...r, created_at: new Date(r.created_at), updated_at: new Date(r.updated_at) };
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
