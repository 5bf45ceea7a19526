import type { Queryable } from '../db/client.ts';
import type { Mode } from '../auth/principal.ts';

/** The idempotency_keys table (db/migrations/005_idempotency.sql): its one owner. */

export interface IdempotencyRow {
  brand_id: string;
  mode: Mode;
  key: string;
  fingerprint: string;
  status: 'in_progress' | 'completed';
  claim_token: string | null;
  locked_until: Date | null;
  response_status: number | null;
  response_body: string | null;
  created_at: Date;
}

/** How long a key is remembered (Stripe's 24 hours). */
export const keptHours = 24;

/**
 * Claims the key for one request: a new key, one older than 24 hours, or an abandoned claim of
 * the same request (its lease ran out: the process died) is taken; anything else is returned as
 * it stands for the caller to answer from. Its own short transaction, so a twin sees the claim.
 */
export async function claim(
  db: Queryable,
  k: { brandId: string; mode: Mode; key: string; fingerprint: string; token: string; leaseMs: number },
): Promise<{ claimed: true } | { claimed: false; row: IdempotencyRow }> {
  const [taken] = await db.query<{ claim_token: string }>(
    `INSERT INTO idempotency_keys (brand_id, mode, key, fingerprint, claim_token, locked_until)
     VALUES ($1, $2, $3, $4, $5, clock_timestamp() + $6 * interval '1 millisecond')
     ON CONFLICT (brand_id, mode, key) DO UPDATE
       SET fingerprint = EXCLUDED.fingerprint, status = 'in_progress', claim_token = EXCLUDED.claim_token,
           locked_until = EXCLUDED.locked_until, response_status = NULL, response_body = NULL,
           created_at = date_trunc('milliseconds', clock_timestamp())
       WHERE idempotency_keys.created_at < clock_timestamp() - interval '${keptHours} hours'
          OR (idempotency_keys.status = 'in_progress' AND idempotency_keys.locked_until < clock_timestamp()
              AND idempotency_keys.fingerprint = EXCLUDED.fingerprint)
     RETURNING claim_token`,
    [k.brandId, k.mode, k.key, k.fingerprint, k.token, k.leaseMs],
    'idempotency_claim',
  );
  if (taken?.claim_token === k.token) return { claimed: true };
  const [row] = await db.query<IdempotencyRow>(
    'SELECT * FROM idempotency_keys WHERE brand_id = $1 AND mode = $2 AND key = $3',
    [k.brandId, k.mode, k.key],
  );
  return { claimed: false, row };
}

/**
 * Stores the response on the claimed key, in the caller's transaction (the one that made the
 * change). False when the claim was lost meanwhile (its lease ran out and another request took
 * the key): the caller must then roll its change back.
 */
export async function complete(
  tx: Queryable,
  k: { brandId: string; mode: Mode; key: string; token: string },
  response: { status: number; body: string },
): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE idempotency_keys SET status = 'completed', response_status = $5, response_body = $6, claim_token = NULL, locked_until = NULL
     WHERE brand_id = $1 AND mode = $2 AND key = $3 AND claim_token = $4 RETURNING 1`,
    [k.brandId, k.mode, k.key, k.token, response.status, response.body],
    'idempotency_complete',
  );
  return rows.length === 1;
}

/** Gives the key up (a refused or failed request is not remembered, so it may be retried). */
export async function release(db: Queryable, k: { brandId: string; mode: Mode; key: string; token: string }): Promise<void> {
  await db.query(
    'DELETE FROM idempotency_keys WHERE brand_id = $1 AND mode = $2 AND key = $3 AND claim_token = $4',
    [k.brandId, k.mode, k.key, k.token],
  );
}

/** Deletes keys older than 24 hours, brand by brand in batches; returns how many. */
export async function purgeExpired(db: Queryable, brandIds: string[], batch = 1000): Promise<number> {
  let purged = 0;
  for (const brandId of brandIds) {
    for (;;) {
      const rows = await db.query(
        `DELETE FROM idempotency_keys WHERE brand_id = $1 AND (mode, key) IN (
           SELECT mode, key FROM idempotency_keys WHERE brand_id = $1 AND created_at < clock_timestamp() - interval '${keptHours} hours' LIMIT $2
         ) RETURNING 1`,
        [brandId, batch],
      );
      purged += rows.length;
      if (rows.length < batch) break;
    }
  }
  return purged;
}
