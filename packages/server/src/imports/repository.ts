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
  /** The OAuth app that asked for the import, if one did (migration 020). */
  app_id: string | null;
  status: ImportStatus;
  record_count: number;
  duplicate_count: number;
  created_count: number;
  /** Removed or expired memberships made active again (migration 027). */
  reactivated_count: number;
  /** People left as they were: unchanged (already active) plus refused. */
  existing_count: number;
  /** Of existing_count, people whose membership was cancelled (migration 027). */
  refused_count: number;
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
  app_id: string | null;
  duplicate_count: number;
}

/**
 * Most records per stored chunk (migration 017). The API stores chunks of IMPORT_BATCH_SIZE when
 * that is smaller, so a batch takes whole chunks; a batch that reaches past a chunk's end (the
 * worker's batch size differs) splits it, so the batch size keeps its meaning exactly.
 */
export const maxChunkSize = 100;

/**
 * Stores the import and all its records, in chunks of `chunkSize`, one statement each; the
 * caller's transaction makes them appear together. One parameter carries every chunk: no per-row
 * round trips and no parameter-count limit.
 */
export async function insertImport(tx: Queryable, imp: NewImport, records: ImportRecord[], chunkSize: number): Promise<ImportRow> {
  const [row] = await tx.query<ImportRow>(
    `INSERT INTO imports (brand_id, id, mode, hub_id, product_id, plan, app_id, record_count, duplicate_count, pending_count)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $8)
     RETURNING *`,
    [imp.brand_id, imp.id, imp.mode, imp.hub_id, imp.product_id, imp.plan, imp.app_id, records.length, imp.duplicate_count],
  );
  const chunks = [];
  for (let i = 0; i < records.length; i += chunkSize) {
    const part = records.slice(i, i + chunkSize);
    chunks.push({ position: part[0].index, size: part.length, records: part });
  }
  await insertChunks(tx, imp.brand_id, imp.id, chunks);
  return row;
}

async function insertChunks(tx: Queryable, brandId: string, importId: string, chunks: { position: number; size: number; records: ImportRecord[] }[]) {
  await tx.query(
    `INSERT INTO import_chunks (brand_id, import_id, position, size, records)
     SELECT $1, $2, c.position, c.size, c.records FROM json_to_recordset($3::json) AS c (position integer, size integer, records json)`,
    [brandId, importId, JSON.stringify(chunks)],
    'insert_import_chunks',
  );
}

export async function findImport(db: Queryable, brandId: string, mode: Mode, id: string): Promise<ImportRow | undefined> {
  const [row] = await db.query<ImportRow>('SELECT * FROM imports WHERE brand_id = $1 AND mode = $2 AND id = $3', [brandId, mode, id]);
  return row;
}

/**
 * The unfinished import whose turn it is and that has records no other batch holds, with its
 * first free chunk locked; undefined when there is none. Batches lock the chunks they take
 * (SKIP LOCKED), not the import, so any number of batches, in one worker or several, run at once,
 * on different imports or on one. The least recently advanced import goes first, so a large
 * import does not hold up a small one behind it.
 */
export async function claimImport(tx: Queryable): Promise<ImportRow | undefined> {
  const [row] = await tx.query<ImportRow>(
    `WITH next AS (
       SELECT c.brand_id, c.import_id FROM import_chunks c
       JOIN imports i ON i.brand_id = c.brand_id AND i.id = c.import_id
       WHERE i.status IN ('queued', 'processing') AND i.next_attempt_at <= clock_timestamp()
       ORDER BY i.next_attempt_at, i.created_at, c.position
       LIMIT 1
       FOR UPDATE OF c SKIP LOCKED
     )
     SELECT i.* FROM imports i JOIN next ON i.brand_id = next.brand_id AND i.id = next.import_id`,
    [],
    'claim_import',
  );
  return row;
}

/**
 * An unfinished import that says records are pending but has none stored, locked: never expected,
 * and claimImport would never take it, so the worker fails it rather than leave it processing.
 */
export async function lockStrandedImport(tx: Queryable): Promise<ImportRow | undefined> {
  const [row] = await tx.query<ImportRow>(
    `SELECT * FROM imports i
     WHERE status IN ('queued', 'processing') AND next_attempt_at <= clock_timestamp()
       AND NOT EXISTS (SELECT 1 FROM import_chunks c WHERE c.brand_id = i.brand_id AND c.import_id = i.id)
     LIMIT 1
     FOR UPDATE SKIP LOCKED`,
    [],
    'lock_stranded_import',
  );
  return row;
}

/**
 * Takes (deletes) `limit` records of the import that no other batch holds, or all there are when
 * fewer, in request order: free chunks from the first one, as many as should reach `limit` (one
 * round when chunks have the batch size or maxChunkSize; chunks of another size are counted by
 * the first round and the rest taken in a second), the last one split when it goes past, its
 * records past `limit` stored again as a chunk of their own. Only the chunks taken are locked, so
 * other batches take the next ones meanwhile.
 */
export async function takeRecords(tx: Queryable, imp: ImportRow, limit: number): Promise<ImportRecord[]> {
  const records: ImportRecord[] = [];
  let perChunk = Math.min(limit, maxChunkSize);
  while (records.length < limit) {
    const chunks = await tx.query<{ records: ImportRecord[] }>(
      // A CTE, not `position IN (subquery)`: planned as a semi-join, the subquery was scanned
      // again per row, and each scan skipped the rows the DELETE had just removed and locked the
      // next ones, so the statement took every chunk of the import.
      `WITH taken AS MATERIALIZED (
         SELECT position FROM import_chunks WHERE brand_id = $1 AND import_id = $2
         ORDER BY position LIMIT $3
         FOR UPDATE SKIP LOCKED)
       DELETE FROM import_chunks c USING taken
       WHERE c.brand_id = $1 AND c.import_id = $2 AND c.position = taken.position
       RETURNING c.records`,
      [imp.brand_id, imp.id, Math.ceil((limit - records.length) / perChunk)],
      'take_import_chunks',
    );
    if (!chunks.length) break;
    let got = 0;
    for (const c of chunks) {
      records.push(...c.records);
      got += c.records.length;
    }
    perChunk = Math.max(1, Math.floor(got / chunks.length));
  }
  records.sort((a, b) => a.index - b.index);
  if (records.length <= limit) return records;
  const rest = records.slice(limit);
  await insertChunks(tx, imp.brand_id, imp.id, [{ position: rest[0].index, size: rest.length, records: rest }]);
  return records.slice(0, limit);
}

/**
 * Counts a batch, at its end. `pending_count - taken` reaching zero completes the import. Batches
 * of one import running at once take turns on this row: each adds to what the last one committed.
 */
export async function recordBatch(tx: Queryable, imp: ImportRow, counts: { taken: number; created: number; existing: number; reactivated: number; refused: number }): Promise<ImportRow> {
  const [row] = await tx.query<ImportRow>(
    `UPDATE imports SET
       created_count = created_count + $3,
       reactivated_count = reactivated_count + $6,
       refused_count = refused_count + $7,
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
    [imp.brand_id, imp.id, counts.created, counts.existing, counts.taken, counts.reactivated, counts.refused],
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
  await tx.query('DELETE FROM import_chunks WHERE brand_id = $1 AND import_id = $2', [imp.brand_id, imp.id]);
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

/** What happened to one record of an import (docs/imports.md): its index in the request, no personal data. */
export interface RecordOutcome {
  index: number;
  outcome: 'created' | 'reactivated' | 'unchanged' | 'refused';
  membershipID: string;
}

/** Keeps a batch's outcomes as one row, keyed by its first record's index (batches never overlap). */
export async function insertOutcomes(tx: Queryable, imp: ImportRow, outcomes: RecordOutcome[]): Promise<void> {
  if (!outcomes.length) return;
  const sorted = [...outcomes].sort((a, b) => a.index - b.index);
  await tx.query(
    'INSERT INTO import_outcomes (brand_id, import_id, position, outcomes) VALUES ($1, $2, $3, $4::json)',
    [imp.brand_id, imp.id, sorted[0].index, JSON.stringify(sorted)],
    'insert_import_outcomes',
  );
}

/** Every record's outcome so far, in request order. */
export async function listOutcomes(db: Queryable, brandId: string, importId: string): Promise<RecordOutcome[]> {
  const rows = await db.query<{ outcomes: RecordOutcome[] }>(
    'SELECT outcomes FROM import_outcomes WHERE brand_id = $1 AND import_id = $2 ORDER BY position', [brandId, importId]);
  return rows.flatMap((r) => r.outcomes).sort((a, b) => a.index - b.index);
}
