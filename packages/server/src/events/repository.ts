import type { Queryable } from '../db/client.ts';
import type { PageRequest } from '../db/paging.ts';
import type { Mode } from '../auth/principal.ts';

export interface EventRow {
  brand_id: string;
  id: string;
  mode: Mode;
  type: string;
  data: Record<string, unknown>;
  created_at: Date;
  /** The order it was recorded in (migration 008): events of one transaction share created_at's millisecond. */
  seq: number;
}

export type NewEventRow = Omit<EventRow, 'created_at' | 'seq'>;

export async function insertEvent(tx: Queryable, e: NewEventRow): Promise<{ created_at: Date; seq: number }> {
  const [row] = await tx.query<{ created_at: Date; seq: number }>(
    'INSERT INTO events (brand_id, id, mode, type, data) VALUES ($1, $2, $3, $4, $5) RETURNING created_at, seq',
    [e.brand_id, e.id, e.mode, e.type, e.data],
    'insert_event',
  );
  return row;
}

/** Many events in one statement (bulk imports), numbered in the given order; returns each one's created_at and seq by id. */
export async function insertEvents(tx: Queryable, events: NewEventRow[]): Promise<Map<string, { created_at: Date; seq: number }>> {
  if (!events.length) return new Map();
  const rows = await tx.query<{ id: string; created_at: Date; seq: number }>(
    `INSERT INTO events (brand_id, id, mode, type, data)
     SELECT brand_id, id, mode, type, data
     FROM ROWS FROM (jsonb_to_recordset($1::jsonb) AS (brand_id text, id text, mode text, type text, data jsonb)) WITH ORDINALITY AS e(brand_id, id, mode, type, data, n)
     ORDER BY n
     RETURNING id, created_at, seq`,
    [JSON.stringify(events)],
    'insert_events',
  );
  return new Map(rows.map((r) => [r.id, { created_at: r.created_at, seq: r.seq }]));
}

/**
 * One page of the mode's events, newest first, optionally of one type; limit + 1 rows. Events of
 * one transaction share a millisecond, so within it they are ordered by seq (the order they were
 * recorded in), not by their random ids. The cursor names the last event shown; its seq is looked
 * up (an event purged meanwhile by retention counts as the first of its millisecond).
 */
export function listEvents(db: Queryable, brandId: string, mode: Mode, type: string | undefined, page: PageRequest) {
  const after = page.after
    ? {
      sql: `AND (created_at, seq) < ($5, coalesce((SELECT c.seq FROM events c WHERE c.brand_id = $1 AND c.id = $6 AND c.created_at = $5), 0))`,
      params: [page.after.createdAt, page.after.id],
    }
    : { sql: '', params: [] };
  return db.query<EventRow>(
    `SELECT brand_id, id, mode, type, data, created_at, seq FROM events
     WHERE brand_id = $1 AND mode = $2 AND ($4::text IS NULL OR type = $4) ${after.sql}
     ORDER BY created_at DESC, seq DESC LIMIT $3`,
    [brandId, mode, page.limit + 1, type ?? null, ...after.params],
  );
}

export async function findEvent(db: Queryable, brandId: string, mode: Mode, id: string): Promise<EventRow | undefined> {
  const [row] = await db.query<EventRow>(
    'SELECT brand_id, id, mode, type, data, created_at, seq FROM events WHERE brand_id = $1 AND mode = $2 AND id = $3',
    [brandId, mode, id],
  );
  return row;
}

/**
 * Deletes up to `batch` of the brand's events older than `cutoff`, and with them (ON DELETE
 * CASCADE) their webhook deliveries and attempts; returns how many.
 */
export async function purgeBefore(db: Queryable, brandId: string, cutoff: Date, batch: number): Promise<number> {
  const rows = await db.query(
    `DELETE FROM events WHERE brand_id = $1 AND id IN (
       SELECT id FROM events WHERE brand_id = $1 AND created_at < $2 LIMIT $3
     ) RETURNING id`,
    [brandId, cutoff, batch],
  );
  return rows.length;
}
