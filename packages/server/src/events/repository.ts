import type { Queryable } from '../db/client.ts';
import type { PageRequest } from '../db/paging.ts';
import type { Mode } from '../auth/principal.ts';
import { dayOfId } from '../ids.ts';

export interface EventRow {
  brand_id: string;
  id: string;
  mode: Mode;
  type: string;
  data: Record<string, unknown>;
  /** What the event is about (events/resources.ts resourceOf): a txref, membership id or payout id. */
  resource_id: string | null;
  /** The OAuth app it came about through (migration 015), or null. */
  app_id?: string | null;
  created_at: Date;
  /** The order it was recorded in (migration 008): events of one transaction share created_at's millisecond. */
  seq: number;
}

/** An event to insert: `id_tail` is the random part of its id, which the INSERT finishes with the row's day (ids.ts datedId). */
export type NewEventRow = Omit<EventRow, 'created_at' | 'seq' | 'id'> & { id_tail: string };

const columns = 'brand_id, id, mode, type, data, resource_id, app_id, created_at, seq';

/**
 * Inserts one event; its id and created_at come from one reading of the database's clock: the id
 * names created_at's UTC day (migration 037's CHECK), so both must come from the same instant, or
 * an event recorded across midnight would fail its own insert.
 */
export async function insertEvent(tx: Queryable, e: NewEventRow): Promise<{ id: string; created_at: Date; seq: number }> {
  const [row] = await tx.query<{ id: string; created_at: Date; seq: number }>(
    `INSERT INTO events (brand_id, id, mode, type, data, resource_id, app_id, created_at)
     SELECT $1, 'evt_' || to_char(now.at AT TIME ZONE 'UTC', 'YYYYMMDD') || $2, $3, $4, $5, $6, $7, now.at
     FROM (SELECT date_trunc('milliseconds', clock_timestamp()) AS at) now
     RETURNING id, created_at, seq`,
    [e.brand_id, e.id_tail, e.mode, e.type, e.data, e.resource_id, e.app_id ?? null],
    'insert_event',
  );
  return row;
}

/**
 * Many events in one statement (bulk imports), numbered in the given order and sharing one
 * created_at; returns each one's id, created_at and seq by its id's tail. One JSON parameter
 * carries them all, whatever their number. created_at comes back as epoch milliseconds: a
 * timestamp string per event cost more to parse than the event took to insert. Ids are finished
 * here with the day of that one created_at, as insertEvent does.
 */
export async function insertEvents(tx: Queryable, events: NewEventRow[]): Promise<Map<string, { id: string; created_at: Date; seq: number }>> {
  if (!events.length) return new Map();
  const rows = await tx.query<{ id: string; created_ms: number; seq: number }>(
    `INSERT INTO events (brand_id, id, mode, type, data, resource_id, app_id, created_at)
     SELECT e.brand_id, 'evt_' || to_char(now.at AT TIME ZONE 'UTC', 'YYYYMMDD') || e.id_tail, e.mode, e.type, e.data, e.resource_id, e.app_id, now.at
     FROM (SELECT date_trunc('milliseconds', clock_timestamp()) AS at) now, ROWS FROM (json_to_recordset($1::json) AS (brand_id text, id_tail text, mode text, type text, data jsonb, resource_id text, app_id text))
       WITH ORDINALITY AS e (brand_id, id_tail, mode, type, data, resource_id, app_id, n)
     ORDER BY e.n
     RETURNING id, (extract(epoch FROM created_at) * 1000)::float8 AS created_ms, seq`,
    [JSON.stringify(events)],
    'insert_events',
  );
  // A dated id is the prefix, 8 digits of day and the tail.
  return new Map(rows.map((r) => [r.id.slice(12), { id: r.id, created_at: new Date(r.created_ms), seq: r.seq }]));
}

/**
 * One page of the mode's events, newest first, optionally of one type and/or about one resource;
 * limit + 1 rows. Only the filters given become conditions, so the index that leads with
 * brand_id, mode and that column serves the page (011_developer_settings.sql). Events of one
 * transaction share a millisecond, so within it they are ordered by seq (the order they were
 * recorded in), not by their random ids. The cursor names the last event shown; its seq is looked
 * up (an event purged meanwhile by retention counts as the first of its millisecond).
 */
export function listEvents(db: Queryable, brandId: string, mode: Mode, filter: { type?: string; resourceId?: string }, page: PageRequest) {
  const params: unknown[] = [brandId, mode, page.limit + 1];
  const conditions: string[] = [];
  if (filter.type !== undefined) { params.push(filter.type); conditions.push(`AND type = $${params.length}`); }
  if (filter.resourceId !== undefined) { params.push(filter.resourceId); conditions.push(`AND resource_id = $${params.length}`); }
  if (page.after) {
    params.push(page.after.createdAt, page.after.id);
    const at = `$${params.length - 1}`;
    conditions.push(`AND (created_at, seq) < (${at}, coalesce((SELECT c.seq FROM events c WHERE c.brand_id = $1 AND c.id = $${params.length} AND c.created_at = ${at}), 0))`);
  }
  // Named per shape, as the delivery log's list (webhooks/repository.ts listDeliveries): planned
  // once per connection rather than over every day's partition at each request.
  const shape = [filter.type !== undefined ? 'type' : '', filter.resourceId !== undefined ? 'resource' : '', page.after ? 'after' : ''].filter(Boolean).join('_');
  return db.query<EventRow>(
    `SELECT ${columns} FROM events
     WHERE brand_id = $1 AND mode = $2 ${conditions.join(' ')}
     ORDER BY created_at DESC, seq DESC LIMIT $3`,
    params,
    `list_events_${shape || 'all'}`,
  );
}

/**
 * One event by id. An id made since migration 037 names its day, and the condition on created_at
 * lets the planner read that day's partition only; an older id is looked for in every day.
 */
export async function findEvent(db: Queryable, brandId: string, mode: Mode, id: string): Promise<EventRow | undefined> {
  const day = dayOfId(id);
  const [row] = await db.query<EventRow>(
    `SELECT ${columns} FROM events WHERE brand_id = $1 AND mode = $2 AND id = $3
       ${day ? 'AND created_at >= $4 AND created_at < $5' : ''}`,
    day ? [brandId, mode, id, day.from, day.to] : [brandId, mode, id],
  );
  return row;
}
