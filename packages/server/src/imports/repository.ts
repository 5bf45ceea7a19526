import type { Queryable } from '../db/client.ts';
import type { Mode } from '../auth/principal.ts';

export type ImportStatus = 'queued' | 'processing' | 'completed' | 'failed';

export interface ImportRow {
  brand_id: string;
  id: string;
  mode: Mode;
  hub_id: string | null;
  product_id: string | null;
  plan: string;
  status: ImportStatus;
  record_count: number;
  duplicate_count: number;
  created_count: number;
  existing_count: number;
  failed_count: number;
  pending_count: number;
  attempts: number;
  last_error: string | null;
  next_attempt_at: Date;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  updated_at: Date;
}

/** A validated, normalised record as stored until the worker takes it. */
export interface ImportRecord {
  /** The record's index in the request. */
  index: number;
  name: string;
  email: string;
  phone?: string;
  fields: Record<string, unknown>;
}

export interface NewImport {
  brand_id: string;
  id: string;
  mode: Mode;
  hub_id: string | null;
  product_id: string | null;
  plan: string;
  duplicate_count: number;
}

/** Stores the import and all its records in one statement each; the caller's transaction makes them appear together. */
export async function insertImport(tx: Queryable, imp: NewImport, records: ImportRecord[]): Promise<ImportRow> {
  const [row] = await tx.query<ImportRow>(
    `INSERT INTO imports (brand_id, id, mode, hub_id, product_id, plan, record_count, duplicate_count, pending_count)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $7)
     RETURNING *`,
    [imp.brand_id, imp.id, imp.mode, imp.hub_id, imp.product_id, imp.plan, records.length, imp.duplicate_count],
  );
  // One parameter carrying every record: no per-row round trips and no parameter-count limit.
  await tx.query(
    `INSERT INTO import_records (brand_id, import_id, position, record)
     SELECT $1, $2, (r ->> 'index')::integer, r FROM jsonb_array_elements($3::jsonb) AS r`,
    [imp.brand_id, imp.id, JSON.stringify(records)],
  );
  return row;
}

export async function findImport(db: Queryable, brandId: string, mode: Mode, id: string): Promise<ImportRow | undefined> {
  const [row] = await db.query<ImportRow>('SELECT * FROM imports WHERE brand_id = $1 AND mode = $2 AND id = $3', [brandId, mode, id]);
  return row;
}

/**
 * Locks the unfinished import whose turn it is, or returns undefined. SKIP LOCKED lets any
 * number of workers run: each takes a different import. The least recently advanced import goes
 * first, so a large import does not hold up a small one behind it.
 */
export async function claimImport(tx: Queryable): Promise<ImportRow | undefined> {
  const [row] = await tx.query<ImportRow>(
    `SELECT * FROM imports
     WHERE status IN ('queued', 'processing') AND next_attempt_at <= clock_timestamp()
     ORDER BY next_attempt_at, created_at
     LIMIT 1
     FOR UPDATE SKIP LOCKED`,
    [],
    'claim_import',
  );
  return row;
}

/**
 * Takes (deletes) the next `limit` records of the import, in request order. Written as a range
 * up to a bound, not `position IN (subquery)`: on a freshly filled, not yet analysed table the
 * IN form was planned as a nested loop over every record (seconds per batch instead of ms).
 */
export async function takeRecords(tx: Queryable, imp: ImportRow, limit: number): Promise<ImportRecord[]> {
  const rows = await tx.query<{ record: ImportRecord }>(
    `DELETE FROM import_records
     WHERE brand_id = $1 AND import_id = $2 AND position <= (
       SELECT max(position) FROM (
         SELECT position FROM import_records WHERE brand_id = $1 AND import_id = $2 ORDER BY position LIMIT $3) AS batch)
     RETURNING record`,
    [imp.brand_id, imp.id, limit],
    'take_import_records',
  );
  return rows.map((r) => r.record).sort((a, b) => a.index - b.index);
}

/**
 * Counts a committed batch. `pending_count - taken` reaching zero completes the import; the row
 * lock taken by claimImport means no other batch of this import runs meanwhile.
 */
export async function recordBatch(tx: Queryable, imp: ImportRow, counts: { taken: number; created: number; existing: number }): Promise<ImportRow> {
  const [row] = await tx.query<ImportRow>(
    `UPDATE imports SET
       created_count = created_count + $3,
       existing_count = existing_count + $4,
       pending_count = pending_count - $5,
       status = CASE WHEN pending_count - $5 = 0 THEN 'completed' ELSE 'processing' END,
       attempts = 0,
       last_error = NULL,
       started_at = COALESCE(started_at, date_trunc('milliseconds', clock_timestamp())),
       finished_at = CASE WHEN pending_count - $5 = 0 THEN date_trunc('milliseconds', clock_timestamp()) END,
       next_attempt_at = date_trunc('milliseconds', clock_timestamp()),
       updated_at = date_trunc('milliseconds', clock_timestamp())
     WHERE brand_id = $1 AND id = $2
     RETURNING *`,
    [imp.brand_id, imp.id, counts.created, counts.existing, counts.taken],
    'record_import_batch',
  );
  return row;
}

/** Notes a failed batch attempt and when to try again. */
export async function recordFailedAttempt(db: Queryable, imp: ImportRow, error: string, retryInMs: number): Promise<ImportRow | undefined> {
  const [row] = await db.query<ImportRow>(
    `UPDATE imports SET
       attempts = attempts + 1,
       last_error = $3,
       next_attempt_at = date_trunc('milliseconds', clock_timestamp()) + $4 * interval '1 millisecond',
       updated_at = date_trunc('milliseconds', clock_timestamp())
     WHERE brand_id = $1 AND id = $2 AND status IN ('queued', 'processing')
     RETURNING *`,
    [imp.brand_id, imp.id, error, retryInMs],
  );
  return row;
}

/** Gives up on an import: whatever is still pending counts as failed and its records are dropped. */
export async function failImport(tx: Queryable, imp: ImportRow, error: string): Promise<void> {
  await tx.query('DELETE FROM import_records WHERE brand_id = $1 AND import_id = $2', [imp.brand_id, imp.id]);
  await tx.query(
    `UPDATE imports SET
       status = 'failed',
       failed_count = failed_count + pending_count,
       pending_count = 0,
       last_error = $3,
       finished_at = date_trunc('milliseconds', clock_timestamp()),
       updated_at = date_trunc('milliseconds', clock_timestamp())
     WHERE brand_id = $1 AND id = $2 AND status IN ('queued', 'processing')`,
    [imp.brand_id, imp.id, error],
  );
}

/** The import, locked, while it is still queued or processing; undefined once it has finished. */
export async function lockUnfinishedImport(tx: Queryable, brandId: string, id: string): Promise<ImportRow | undefined> {
  const [row] = await tx.query<ImportRow>(
    `SELECT * FROM imports WHERE brand_id = $1 AND id = $2 AND status IN ('queued', 'processing') FOR UPDATE`,
    [brandId, id],
  );
  return row;
}

/** Which of these tiers some import (any mode, any status) puts people on. */
export async function plansInUse(db: Queryable, brandId: string, tierIds: string[]): Promise<string[]> {
  const rows = await db.query<{ plan: string }>('SELECT DISTINCT plan FROM imports WHERE brand_id = $1 AND plan = ANY($2)', [brandId, tierIds]);
  return rows.map((r) => r.plan);
}
