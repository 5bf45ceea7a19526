import type { Queryable } from '../db/client.ts';
import type { Mode } from '../auth/principal.ts';

/**
 * Test clocks (docs/subscriptions.md, "Test clocks"): a brand's test-mode time is the database's
 * time plus the brand's offset; live mode is always the database's time. Reading the time from
 * the database, not from Date.now(), keeps every process (and every worker) on one clock.
 */

/** SQL for "now" in the time of row `alias` (which has brand_id and mode columns). */
export const rowNowSql = (alias: string) => `(date_trunc('milliseconds', clock_timestamp()) + CASE WHEN ${alias}.mode = 'test'
  THEN COALESCE((SELECT c.offset_ms FROM test_clocks c WHERE c.brand_id = ${alias}.brand_id), 0) ELSE 0 END * interval '1 millisecond')`;

/**
 * SQL that is false for a test-mode row whose brand's clock is being advanced right now: the
 * advance runs that brand's due jobs itself, in time order, so the background worker waits.
 */
export const notAdvancingSql = (alias: string) => `NOT (${alias}.mode = 'test' AND EXISTS (SELECT 1 FROM test_clocks c
  WHERE c.brand_id = ${alias}.brand_id AND c.busy_until > clock_timestamp()))`;

export async function modeNow(db: Queryable, brandId: string, mode: Mode): Promise<Date> {
  const [row] = await db.query<{ now: Date }>(
    `SELECT date_trunc('milliseconds', clock_timestamp()) + CASE WHEN $2 = 'test'
       THEN COALESCE((SELECT offset_ms FROM test_clocks WHERE brand_id = $1), 0) ELSE 0 END * interval '1 millisecond' AS now`,
    [brandId, mode],
  );
  return row.now;
}

/** Locks the brand's clock row (creating it), and returns its offset. */
export async function lockClock(tx: Queryable, brandId: string): Promise<{ offsetMs: number; realNow: Date }> {
  await tx.query('INSERT INTO test_clocks (brand_id) VALUES ($1) ON CONFLICT DO NOTHING', [brandId]);
  const [row] = await tx.query<{ offset_ms: number | string; real_now: Date }>(
    `SELECT offset_ms, date_trunc('milliseconds', clock_timestamp()) AS real_now FROM test_clocks WHERE brand_id = $1 FOR UPDATE`, [brandId]);
  return { offsetMs: Number(row.offset_ms), realNow: row.real_now };
}

export async function setClock(tx: Queryable, brandId: string, offsetMs: number, busyForMs: number): Promise<void> {
  await tx.query(
    `UPDATE test_clocks SET offset_ms = $2, busy_until = clock_timestamp() + $3 * interval '1 millisecond',
       updated_at = date_trunc('milliseconds', clock_timestamp()) WHERE brand_id = $1`,
    [brandId, offsetMs, busyForMs],
  );
}

export async function releaseClock(db: Queryable, brandId: string): Promise<void> {
  await db.query('UPDATE test_clocks SET busy_until = NULL WHERE brand_id = $1', [brandId]);
}
