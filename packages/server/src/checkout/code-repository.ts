import type { Queryable } from '../db/client.ts';

/** checkout_codes (migration 027): the emailed code of a payment link, as a hash, with its tries. */
export interface CheckoutCodeRow {
  brand_id: string;
  payment_link_id: string;
  code_hash: string;
  expires_at: Date;
  attempts: number;
  sends: number;
  sent_at: Date;
  verified_at: Date | null;
}

export async function findCode(db: Queryable, brandId: string, linkId: string, options: { forUpdate?: boolean } = {}): Promise<CheckoutCodeRow | undefined> {
  const [row] = await db.query<CheckoutCodeRow>(
    `SELECT * FROM checkout_codes WHERE brand_id = $1 AND payment_link_id = $2${options.forUpdate ? ' FOR UPDATE' : ''}`, [brandId, linkId]);
  return row;
}

/** A new code replaces the last one: its tries start again, and the sends are counted. */
export async function saveCode(db: Queryable, brandId: string, linkId: string, codeHash: string, ttlMs: number): Promise<void> {
  await db.query(
    `INSERT INTO checkout_codes (brand_id, payment_link_id, code_hash, expires_at)
     VALUES ($1, $2, $3, clock_timestamp() + make_interval(secs => $4::double precision / 1000))
     ON CONFLICT (brand_id, payment_link_id) DO UPDATE SET code_hash = $3, expires_at = EXCLUDED.expires_at, attempts = 0,
       sends = checkout_codes.sends + 1, sent_at = date_trunc('milliseconds', clock_timestamp())`,
    [brandId, linkId, codeHash, ttlMs],
  );
}

export async function countWrongTry(db: Queryable, brandId: string, linkId: string): Promise<void> {
  await db.query('UPDATE checkout_codes SET attempts = attempts + 1 WHERE brand_id = $1 AND payment_link_id = $2', [brandId, linkId]);
}

export async function markVerified(db: Queryable, brandId: string, linkId: string): Promise<void> {
  await db.query(`UPDATE checkout_codes SET verified_at = date_trunc('milliseconds', clock_timestamp()) WHERE brand_id = $1 AND payment_link_id = $2`, [brandId, linkId]);
}
