import type { Queryable } from '../db/client.ts';
import type { Mode } from '../auth/principal.ts';
import type { TransactionRow } from '../transactions/repository.ts';
import type { LineItem, Purchase } from './pricing.ts';

export interface PaymentLinkRow {
  brand_id: string;
  id: string;
  mode: Mode;
  status: 'open' | 'completed';
  resource_id: string;
  purchases: Purchase[];
  line_items: LineItem[];
  amount: number;
  currency: string;
  buyer_name: string;
  buyer_email: string;
  buyer_phone: string | null;
  form_data: Record<string, string | number | boolean>;
  guests: { id: string; fullName: string; email: string }[];
  redirect_url: string | null;
  metadata: Record<string, string>;
  extras: Record<string, unknown>;
  transaction_id: string | null;
  created_at: Date;
  updated_at: Date;
}

// Arrays go in as JSON text: pg would otherwise send a JS array as a PostgreSQL array.
export type NewPaymentLink = Omit<PaymentLinkRow, 'status' | 'transaction_id' | 'created_at' | 'updated_at'>;

/** A transaction made through a payment link: one purchase attempt. */
export interface AttemptRow extends TransactionRow {
  payment_link_id: string | null;
  provider: string | null;
  provider_reference: string | null;
  failure_code: string | null;
  failure_message: string | null;
}

export async function insertLink(db: Queryable, l: NewPaymentLink): Promise<PaymentLinkRow> {
  const [row] = await db.query<PaymentLinkRow>(
    `INSERT INTO payment_links (brand_id, id, mode, status, resource_id, purchases, line_items, amount, currency,
       buyer_name, buyer_email, buyer_phone, form_data, guests, redirect_url, metadata, extras)
     VALUES ($1, $2, $3, 'open', $4, $5::text::jsonb, $6::text::jsonb, $7, $8, $9, $10, $11, $12, $13::text::jsonb, $14, $15, $16)
     RETURNING *`,
    [l.brand_id, l.id, l.mode, l.resource_id, JSON.stringify(l.purchases), JSON.stringify(l.line_items), l.amount, l.currency,
      l.buyer_name, l.buyer_email, l.buyer_phone, l.form_data, JSON.stringify(l.guests), l.redirect_url, l.metadata, l.extras],
  );
  return row;
}

export async function findLink(db: Queryable, brandId: string, id: string, options: { forUpdate?: boolean } = {}) {
  const [row] = await db.query<PaymentLinkRow>(
    `SELECT * FROM payment_links WHERE brand_id = $1 AND id = $2${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [brandId, id],
  );
  return row;
}

/** Marks the link paid by this transaction; undefined if it was already paid. */
export async function completeLink(db: Queryable, brandId: string, id: string, transactionId: string) {
  const [row] = await db.query<PaymentLinkRow>(
    `UPDATE payment_links SET status = 'completed', transaction_id = $3, updated_at = date_trunc('milliseconds', clock_timestamp())
     WHERE brand_id = $1 AND id = $2 AND status = 'open' RETURNING *`,
    [brandId, id, transactionId],
  );
  return row;
}

export async function brandName(db: Queryable, brandId: string): Promise<string> {
  const [row] = await db.query<{ name: string }>('SELECT name FROM brands WHERE id = $1', [brandId]);
  return row?.name ?? '';
}

export async function insertAttempt(
  db: Queryable,
  a: Omit<AttemptRow, 'created_at' | 'updated_at' | 'failure_code' | 'failure_message'>,
): Promise<AttemptRow> {
  const [row] = await db.query<AttemptRow>(
    `INSERT INTO transactions (brand_id, id, txref, mode, type, status, amount, currency, customer_name, customer_email,
       resource_id, metadata, payment_link_id, provider, provider_reference)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING *`,
    [a.brand_id, a.id, a.txref, a.mode, a.type, a.status, a.amount, a.currency, a.customer_name, a.customer_email,
      a.resource_id, a.metadata, a.payment_link_id, a.provider, a.provider_reference],
  );
  return row;
}

export async function pendingAttempt(db: Queryable, brandId: string, linkId: string) {
  const [row] = await db.query<AttemptRow>(
    'SELECT * FROM transactions WHERE brand_id = $1 AND payment_link_id = $2 AND status = \'pending\'',
    [brandId, linkId],
  );
  return row;
}

export async function findAttempt(db: Queryable, brandId: string, mode: Mode, txref: string) {
  const [row] = await db.query<AttemptRow>(
    'SELECT * FROM transactions WHERE brand_id = $1 AND mode = $2 AND txref = $3',
    [brandId, mode, txref],
  );
  return row;
}

export async function findAttemptById(db: Queryable, brandId: string, id: string) {
  const [row] = await db.query<AttemptRow>('SELECT * FROM transactions WHERE brand_id = $1 AND id = $2', [brandId, id]);
  return row;
}

/**
 * Moves a pending attempt to its outcome. Conditional on `pending`, so of any number of callers
 * racing (a double submission, concurrent verifies) exactly one gets the row back and goes on
 * to grant access and record events; the others get undefined.
 */
export async function finishAttempt(
  db: Queryable,
  brandId: string,
  id: string,
  outcome: { status: 'succeeded' } | { status: 'failed'; code: string; message: string },
) {
  const [row] = await db.query<AttemptRow>(
    `UPDATE transactions SET status = $3, failure_code = $4, failure_message = $5, updated_at = date_trunc('milliseconds', clock_timestamp())
     WHERE brand_id = $1 AND id = $2 AND status = 'pending' RETURNING *`,
    [brandId, id, outcome.status, outcome.status === 'failed' ? outcome.code : null, outcome.status === 'failed' ? outcome.message : null],
  );
  return row;
}
