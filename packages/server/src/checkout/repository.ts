import type { Queryable } from '../db/client.ts';
import type { Mode } from '../auth/principal.ts';
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
  /** How it was created and, through an OAuth app, which (migration 015). */
  via?: 'api_key' | 'oauth' | 'session' | 'checkout_link' | null;
  app_id?: string | null;
  /** The reusable checkout link whose page made it (migration 023), or null. */
  checkout_link_id?: string | null;
  transaction_id: string | null;
  created_at: Date;
  updated_at: Date;
}

// Arrays go in as JSON text: pg would otherwise send a JS array as a PostgreSQL array.
export type NewPaymentLink = Omit<PaymentLinkRow, 'status' | 'transaction_id' | 'created_at' | 'updated_at'>;

export async function insertLink(db: Queryable, l: NewPaymentLink): Promise<PaymentLinkRow> {
  const [row] = await db.query<PaymentLinkRow>(
    `INSERT INTO payment_links (brand_id, id, mode, status, resource_id, purchases, line_items, amount, currency,
       buyer_name, buyer_email, buyer_phone, form_data, guests, redirect_url, metadata, extras, via, app_id, checkout_link_id)
     VALUES ($1, $2, $3, 'open', $4, $5::text::jsonb, $6::text::jsonb, $7, $8, $9, $10, $11, $12, $13::text::jsonb, $14, $15, $16, $17, $18, $19)
     RETURNING *`,
    [l.brand_id, l.id, l.mode, l.resource_id, JSON.stringify(l.purchases), JSON.stringify(l.line_items), l.amount, l.currency,
      l.buyer_name, l.buyer_email, l.buyer_phone, l.form_data, JSON.stringify(l.guests), l.redirect_url, l.metadata, l.extras, l.via ?? null, l.app_id ?? null,
      l.checkout_link_id ?? null],
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

/** Which of these tiers some payment link (any mode, paid or still open) sells: a buyer may hold it. */
export async function tiersInLinks(db: Queryable, brandId: string, tierIds: string[]): Promise<string[]> {
  const rows = await db.query<{ tier_id: string }>(
    // Containment, so the payment_links_tiers GIN index answers it instead of unpacking every link.
    `SELECT t AS tier_id FROM unnest($2::text[]) AS t
     WHERE EXISTS (SELECT 1 FROM payment_links WHERE brand_id = $1 AND purchases @> jsonb_build_array(jsonb_build_object('tierId', t)))`,
    [brandId, tierIds],
  );
  return rows.map((r) => r.tier_id);
}

/** Whether the brand has made a payment link in either mode (the home's setup checklist). */
export async function hasPaymentLinks(db: Queryable, brandId: string): Promise<boolean> {
  const [row] = await db.query<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM payment_links WHERE brand_id = $1) AS any', [brandId]);
  return row.any;
}
