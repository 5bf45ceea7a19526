import type { Queryable } from '../db/client.ts';
import { afterCursor, type PageRequest } from '../db/paging.ts';
import type { Mode } from '../auth/principal.ts';
import { dayOfId } from '../ids.ts';
import { daysSpanning } from '../db/partitions.ts';

export interface EndpointRow {
  brand_id: string;
  id: string;
  mode: Mode;
  url: string;
  events: string[];
  status: 'active' | 'disabled';
  disabled_reason: string | null;
  description: string | null;
  secret_sealed: string;
  /** During a secret roll's overlap: the previous secret, which signs too until it expires. */
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
  failing_since: Date | null;
  created_at: Date;
  updated_at: Date;
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface DeliveryRow {
  brand_id: string;
  id: string;
  mode: Mode;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  resource_type: string | null;
  resource_id: string | null;
  status: DeliveryStatus;
  attempts: number;
  response_code: number | null;
  failure_reason: string | null;
  next_attempt_at: Date | null;
  last_attempt_at: Date | null;
  delivered_at: Date | null;
  created_at: Date;
}

export interface DeliveryAttemptRow {
  number: number;
  attempted_at: Date;
  duration_ms: number;
  response_code: number | null;
  error: string | null;
  response_body: string | null;
}

// ---- endpoints -------------------------------------------------------------------------------

export async function insertEndpoint(db: Queryable, e: Pick<EndpointRow, 'brand_id' | 'id' | 'mode' | 'url' | 'events' | 'description' | 'secret_sealed'>) {
  const [row] = await db.query<EndpointRow>(
    `INSERT INTO webhook_endpoints (brand_id, id, mode, url, events, status, description, secret_sealed)
     VALUES ($1, $2, $3, $4, $5, 'active', $6, $7) RETURNING *`,
    [e.brand_id, e.id, e.mode, e.url, e.events, e.description, e.secret_sealed],
  );
  return row;
}

export function listEndpoints(db: Queryable, brandId: string, mode: Mode, page: PageRequest) {
  const after = afterCursor(page, 4);
  return db.query<EndpointRow>(
    `SELECT * FROM webhook_endpoints WHERE brand_id = $1 AND mode = $2 ${after.sql}
     ORDER BY created_at DESC, id DESC LIMIT $3`,
    [brandId, mode, page.limit + 1, ...after.params],
  );
}

export async function findEndpoint(db: Queryable, brandId: string, mode: Mode, id: string) {
  const [row] = await db.query<EndpointRow>(
    'SELECT * FROM webhook_endpoints WHERE brand_id = $1 AND mode = $2 AND id = $3',
    [brandId, mode, id],
  );
  return row;
}

export async function updateEndpoint(
  db: Queryable,
  brandId: string,
  mode: Mode,
  id: string,
  patch: { url?: string; events?: string[]; status?: 'active' | 'disabled'; description?: string },
) {
  // Enabling (again) forgets why it was disabled and the failure streak that led there.
  const [row] = await db.query<EndpointRow>(
    `UPDATE webhook_endpoints SET
       url = coalesce($4, url),
       events = coalesce($5, events),
       status = coalesce($6, status),
       description = CASE WHEN $7::boolean THEN $8 ELSE description END,
       disabled_reason = CASE WHEN $6 IS NULL THEN disabled_reason ELSE NULL END,
       failing_since = CASE WHEN $6 = 'active' THEN NULL ELSE failing_since END,
       updated_at = date_trunc('milliseconds', clock_timestamp())
     WHERE brand_id = $1 AND mode = $2 AND id = $3 RETURNING *`,
    [brandId, mode, id, patch.url ?? null, patch.events ?? null, patch.status ?? null, patch.description !== undefined, patch.description ?? null],
  );
  return row;
}

/**
 * Replaces the signing secret. With an overlap the current secret becomes the previous one and
 * signs too until `overlapSeconds` from now; a roll during an overlap drops the older previous
 * secret (only the two newest sign). With 0 the old secret stops at once.
 */
export async function rollSecret(db: Queryable, brandId: string, mode: Mode, id: string, sealed: string, overlapSeconds: number) {
  const [row] = await db.query<EndpointRow>(
    `UPDATE webhook_endpoints SET
       previous_secret_sealed = CASE WHEN $5 > 0 THEN secret_sealed END,
       previous_secret_expires_at = CASE WHEN $5 > 0 THEN date_trunc('milliseconds', clock_timestamp()) + $5 * interval '1 second' END,
       secret_sealed = $4,
       updated_at = date_trunc('milliseconds', clock_timestamp())
     WHERE brand_id = $1 AND mode = $2 AND id = $3 RETURNING *`,
    [brandId, mode, id, sealed, overlapSeconds],
  );
  return row;
}

export async function deleteEndpoint(db: Queryable, brandId: string, mode: Mode, id: string): Promise<boolean> {
  const rows = await db.query(
    'DELETE FROM webhook_endpoints WHERE brand_id = $1 AND mode = $2 AND id = $3 RETURNING id',
    [brandId, mode, id],
  );
  if (!rows.length) return false;
  // Its deliveries stay in the log; the ones still waiting can no longer be sent. One a worker is
  // sending right now is left to its outcome (recorded as usual; a retry is then abandoned).
  // next_attempt_at IS NOT NULL (always true) walks the endpoint's queued rows on
  // webhook_queue_endpoint_due (migration 040; 038 says why such an index has the predicate).
  const queued = await db.query<{ id: string; created_at: Date }>(
    `DELETE FROM webhook_queue WHERE brand_id = $1 AND next_attempt_at IS NOT NULL AND endpoint_id = $2
       AND (locked_until IS NULL OR locked_until <= now())
     RETURNING delivery_id AS id, delivery_created_at AS created_at`,
    [brandId, id],
  );
  if (!queued.length) return true;
  // Then their log rows, by key and day, with the days' range as constants (the caller's
  // transaction holds both statements together): the planner reads only those days' partitions
  // (migration 037), where a join on the queue's rows alone would plan every day's.
  const days = daysSpanning(queued.map((q) => q.created_at));
  await db.query(
    `UPDATE webhook_deliveries d SET status = 'failed', failure_reason = 'endpoint_deleted'
     FROM unnest($2::text[], $3::timestamptz[]) AS q (id, created_at)
     WHERE d.brand_id = $1 AND d.id = q.id AND d.created_at = q.created_at AND d.status = 'pending'
       AND d.created_at >= $4 AND d.created_at < $5`,
    [brandId, queued.map((q) => q.id), queued.map((q) => q.created_at.toISOString()), days.from, days.to],
  );
  return true;
}

// ---- the delivery log ------------------------------------------------------------------------

export interface DeliveryFilter {
  status?: DeliveryStatus;
  endpointId?: string;
  eventType?: string;
  resourceId?: string;
  eventId?: string;
}

const deliveryFilterColumns = { endpointId: 'endpoint_id', eventType: 'event_type', resourceId: 'resource_id', eventId: 'event_id' } as const;

/**
 * The status filter as conditions on the log row (no index holds status: migration 039). A failed
 * delivery, and only a failed one, has a failure reason, which is what the partial index
 * webhook_deliveries_failed holds; pending is found from the queue instead (listDeliveries).
 */
const statusConditions: Record<DeliveryStatus, string> = {
  failed: `AND failure_reason IS NOT NULL AND status = 'failed'`,
  succeeded: `AND status = 'succeeded'`,
  pending: `AND status = 'pending'`,
};

/**
 * A delivery as the API shows it. The log row says what is final; while it is pending, its
 * progress (attempts so far, the last answer, when it is tried next) is in its queue row
 * (migration 038), which only the worker and resend write.
 */
const deliveryColumns = `d.brand_id, d.id, d.mode, d.endpoint_id, d.event_id, d.event_type, d.resource_type, d.resource_id, d.status,
  coalesce(q.attempts, d.attempts) AS attempts, coalesce(q.response_code, d.response_code) AS response_code, d.failure_reason,
  q.next_attempt_at, coalesce(q.last_attempt_at, d.last_attempt_at) AS last_attempt_at, d.delivered_at, d.created_at`;
const queueJoin = `LEFT JOIN webhook_queue q ON q.brand_id = $1 AND q.delivery_id = d.id AND d.status = 'pending'`;

/**
 * One page of the delivery log, newest first. Only the filters given become conditions (no
 * `$n IS NULL OR …`), so the planner sees plain equalities and uses the index that leads with
 * brand_id, mode and that column (011_developer_settings.sql), keyset-paged on (created_at, id).
 */
export function listDeliveries(db: Queryable, brandId: string, mode: Mode, filter: DeliveryFilter, page: PageRequest) {
  const params: unknown[] = [brandId, mode, page.limit + 1];
  const conditions = Object.entries(deliveryFilterColumns).flatMap(([key, column]) => {
    const value = filter[key as keyof DeliveryFilter];
    if (value === undefined) return [];
    params.push(value);
    return [`AND ${column} = $${params.length}`];
  });
  if (filter.status) conditions.push(statusConditions[filter.status]);
  // An event's deliveries live in its day (migration 037), which a dated event id names.
  const eventDay = filter.eventId === undefined ? undefined : dayOfId(filter.eventId);
  if (eventDay) {
    params.push(eventDay.from, eventDay.to);
    conditions.push(`AND created_at >= $${params.length - 1} AND created_at < $${params.length}`);
  }
  const after = afterCursor(page, params.length + 1);
  // Named, one name per shape of the statement: planning it over every day's partition (about 40
  // at the default retention) cost more than running it, and a prepared statement is planned once
  // per connection (docs/performance.md, "Daily partitions").
  const shape = [
    filter.status ? `status_${filter.status}` : '',
    ...Object.keys(deliveryFilterColumns).filter((key) => filter[key as keyof DeliveryFilter] !== undefined),
    eventDay ? 'day' : '', page.after ? 'after' : '',
  ].filter(Boolean).join('_');
  if (filter.status === 'pending') {
    // Every pending delivery is queued (migration 038): the brand's queued rows newest first, each
    // then read from the log by key and day (one primary-key probe, run-time pruned to its day)
    // until the page is full. It costs the brand's queued rows, not its log: a pending delivery
    // retried for days sits far below the newest ones, where a walk of the log would have to
    // reach. (Resends of finished deliveries are queued too; the log says they are not pending.)
    return db.query<DeliveryRow>(
      `SELECT ${deliveryColumns} FROM (
         SELECT * FROM (SELECT *, delivery_created_at AS created_at, delivery_id AS id FROM webhook_queue
           WHERE brand_id = $1 AND next_attempt_at IS NOT NULL) queued
         WHERE true ${after.sql}
         ORDER BY created_at DESC, id DESC
       ) q CROSS JOIN LATERAL (
         SELECT * FROM webhook_deliveries
         WHERE brand_id = $1 AND id = q.delivery_id AND created_at = q.delivery_created_at AND mode = $2 ${conditions.join(' ')}
       ) d
       ORDER BY q.created_at DESC, q.id DESC LIMIT $3`,
      [...params, ...after.params],
      `list_deliveries_${shape}`,
    );
  }
  // The page is found in the log alone; its pending rows then read their progress from the queue
  // (one primary-key probe each).
  return db.query<DeliveryRow>(
    `SELECT ${deliveryColumns} FROM (
       SELECT * FROM webhook_deliveries
       WHERE brand_id = $1 AND mode = $2 ${conditions.join(' ')} ${after.sql}
       ORDER BY created_at DESC, id DESC LIMIT $3
     ) d ${queueJoin}
     ORDER BY d.created_at DESC, d.id DESC`,
    [...params, ...after.params],
    `list_deliveries_${shape || 'all'}`,
  );
}

/**
 * One delivery by id. An id made since migration 037 names its day (its event's), and the
 * condition on created_at lets the planner read that day's partition only; an older id is looked
 * for in every day.
 */
export async function findDelivery(db: Queryable, brandId: string, mode: Mode, id: string) {
  const day = dayOfId(id);
  const [row] = await db.query<DeliveryRow>(
    `SELECT ${deliveryColumns} FROM webhook_deliveries d ${queueJoin} WHERE d.brand_id = $1 AND d.mode = $2 AND d.id = $3
       ${day ? 'AND d.created_at >= $4 AND d.created_at < $5' : ''}`,
    day ? [brandId, mode, id, day.from, day.to] : [brandId, mode, id],
  );
  return row;
}

/** A delivery's attempts, from its day's partition (attempts are partitioned by their delivery's created_at). */
export function deliveryAttempts(db: Queryable, brandId: string, deliveryId: string, deliveryCreatedAt: Date) {
  return db.query<DeliveryAttemptRow>(
    `SELECT number, attempted_at, duration_ms, response_code, error, response_body FROM webhook_attempts
     WHERE brand_id = $1 AND delivery_id = $2 AND delivery_created_at = $3 ORDER BY number`,
    [brandId, deliveryId, deliveryCreatedAt],
  );
}
