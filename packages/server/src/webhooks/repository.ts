import type { Queryable } from '../db/client.ts';
import { afterCursor, type PageRequest } from '../db/paging.ts';
import type { Mode } from '../auth/principal.ts';
import { workChannel } from '../worker/notify.ts';

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
  // Its deliveries stay in the log; the ones still waiting can no longer be sent.
  await db.query(
    `UPDATE webhook_deliveries SET status = 'failed', failure_reason = 'endpoint_deleted', next_attempt_at = NULL
     WHERE brand_id = $1 AND mode = $2 AND endpoint_id = $3 AND status = 'pending'`,
    [brandId, mode, id],
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

const deliveryFilterColumns = { status: 'status', endpointId: 'endpoint_id', eventType: 'event_type', resourceId: 'resource_id', eventId: 'event_id' } as const;

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
  const after = afterCursor(page, params.length + 1);
  return db.query<DeliveryRow>(
    `SELECT * FROM webhook_deliveries
     WHERE brand_id = $1 AND mode = $2 ${conditions.join(' ')} ${after.sql}
     ORDER BY created_at DESC, id DESC LIMIT $3`,
    [...params, ...after.params],
  );
}

export async function findDelivery(db: Queryable, brandId: string, mode: Mode, id: string) {
  const [row] = await db.query<DeliveryRow>(
    'SELECT * FROM webhook_deliveries WHERE brand_id = $1 AND mode = $2 AND id = $3',
    [brandId, mode, id],
  );
  return row;
}

export function deliveryAttempts(db: Queryable, brandId: string, deliveryId: string) {
  return db.query<DeliveryAttemptRow>(
    `SELECT number, attempted_at, duration_ms, response_code, error, response_body FROM webhook_attempts
     WHERE brand_id = $1 AND delivery_id = $2 ORDER BY number`,
    [brandId, deliveryId],
  );
}

// ---- claims (the worker, and resend) ---------------------------------------------------------

/** A claimed delivery with everything needed to send it. */
export interface ClaimedDelivery {
  brand_id: string;
  id: string;
  mode: Mode;
  endpoint_id: string;
  event_id: string;
  attempts: number;
  claim: string;
  event_type: string;
  event_data: Record<string, unknown>;
  event_created_at: Date;
  url: string | null;
  secret_sealed: string | null;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
  endpoint_status: 'active' | 'disabled' | null;
}

/**
 * "Not finished and never delivered": pending, spelled so that only webhook_deliveries_order
 * matches it (migration 008 says why).
 */
export const undeliveredSql = (alias: string) =>
  `${alias}.status <> 'succeeded' AND ${alias}.status <> 'failed' AND ${alias}.delivered_at IS NULL`;

const claimedColumns = `c.brand_id, c.id, c.mode, c.endpoint_id, c.event_id, c.attempts, c.locked_by AS claim,
  ev.type AS event_type, ev.data AS event_data, ev.created_at AS event_created_at,
  e.url, e.secret_sealed, e.previous_secret_sealed, e.previous_secret_expires_at, e.status AS endpoint_status`;

/**
 * Takes up to `limit` due deliveries for `leaseMs`, oldest due first, except those of the
 * endpoints and brands the worker is already sending as much as it may to (`busy`: see
 * delivery-source.ts, no noisy neighbours). SKIP LOCKED lets concurrent workers pass each other's
 * rows; the lease (locked_until) is what keeps a delivery from being sent twice at once after this
 * statement commits, and what hands it to another worker if this one dies.
 *
 * Order (docs/webhooks.md): a delivery waits while an earlier one of the same object to the same
 * endpoint (same order_key, lower order_seq) is still pending and was never delivered, whether it
 * is due, retrying later or in flight with another worker. Only deliveries that had such an
 * earlier one when they were created (behind_earlier, fan-out.ts) are checked: one created with
 * nothing before it cannot get an earlier sibling later (one object's changes are serialised by
 * its row lock, and seq is taken in that order). That earlier row stays pending until
 * its outcome commits, so no worker can see it finished early, whatever it has locked; one
 * claim never takes two deliveries of one object. A delivery that ends `failed` (retries used up,
 * endpoint disabled or deleted) stops holding the next one back. Resends (claimOne) skip this.
 */
export function claimDue(db: Queryable, limit: number, leaseMs: number, claim: string, busy: { endpoints: string[]; brands: string[] }) {
  return db.query<ClaimedDelivery>(
    `WITH due AS (
       SELECT w.brand_id, w.id FROM webhook_deliveries w
       WHERE w.status = 'pending' AND w.next_attempt_at <= now() AND (w.locked_until IS NULL OR w.locked_until <= now())
         AND NOT (w.endpoint_id = ANY ($4::text[])) AND NOT (w.brand_id = ANY ($5::text[]))
         AND (NOT w.behind_earlier OR NOT EXISTS (
           SELECT 1 FROM webhook_deliveries earlier
           WHERE earlier.brand_id = w.brand_id AND earlier.endpoint_id = w.endpoint_id AND earlier.order_key = w.order_key
             AND earlier.order_seq < w.order_seq AND ${undeliveredSql('earlier')}
         ))
       ORDER BY w.next_attempt_at LIMIT $1
       FOR UPDATE SKIP LOCKED
     ), c AS (
       UPDATE webhook_deliveries d SET locked_until = clock_timestamp() + $2 * interval '1 millisecond', locked_by = $3
       FROM due WHERE d.brand_id = due.brand_id AND d.id = due.id
       RETURNING d.*
     )
     SELECT ${claimedColumns} FROM c
     JOIN events ev ON ev.brand_id = c.brand_id AND ev.id = c.event_id
     LEFT JOIN webhook_endpoints e ON e.brand_id = c.brand_id AND e.id = c.endpoint_id`,
    [limit, leaseMs, claim, busy.endpoints, busy.brands],
    'webhook_claim_due',
  );
}

/** Gives claims back at once (a batch took more for one endpoint than the worker may send it now). */
export async function releaseClaims(db: Queryable, deliveries: ClaimedDelivery[]) {
  if (!deliveries.length) return;
  await db.query(
    `UPDATE webhook_deliveries d SET locked_until = NULL, locked_by = NULL
     FROM unnest($1::text[], $2::text[], $3::text[]) AS r (brand_id, id, claim)
     WHERE d.brand_id = r.brand_id AND d.id = r.id AND d.locked_by = r.claim`,
    [deliveries.map((d) => d.brand_id), deliveries.map((d) => d.id), deliveries.map((d) => d.claim)],
  );
}

/** Claims one delivery for a resend, whatever its status, unless it is in flight right now. */
export async function claimOne(db: Queryable, brandId: string, mode: Mode, id: string, leaseMs: number, claim: string) {
  const [row] = await db.query<ClaimedDelivery>(
    `WITH c AS (
       UPDATE webhook_deliveries SET locked_until = clock_timestamp() + $4 * interval '1 millisecond', locked_by = $5
       WHERE brand_id = $1 AND mode = $2 AND id = $3 AND (locked_until IS NULL OR locked_until <= now())
       RETURNING *
     )
     SELECT ${claimedColumns} FROM c
     JOIN events ev ON ev.brand_id = c.brand_id AND ev.id = c.event_id
     LEFT JOIN webhook_endpoints e ON e.brand_id = c.brand_id AND e.id = c.endpoint_id`,
    [brandId, mode, id, leaseMs, claim],
  );
  return row;
}

export interface AttemptRecord {
  attemptedAt: Date;
  durationMs: number;
  responseCode: number | null;
  error: string | null;
  responseBody: string | null;
}

export interface Outcome {
  status: DeliveryStatus;
  /** For pending: when to try again. */
  nextAttemptAt: Date | null;
  failureReason: string | null;
  /** Why to disable the endpoint now (410 Gone), if at all. */
  disableReason: string | null;
  /** Disable the endpoint when it has been failing since before this instant. */
  failingCutoff: Date;
}

export interface RecordedAttempt {
  delivery: ClaimedDelivery;
  attempt: AttemptRecord;
  outcome: Outcome;
}

/**
 * Records attempts and the deliveries' new states, and moves their endpoints' failure streaks, in
 * one statement for the whole batch (the worker flushes whatever finished while the previous
 * batch was being written). Attempts whose claim is no longer ours are skipped; returns the ids
 * that were recorded.
 */
export async function recordAttempts(db: Queryable, batch: RecordedAttempt[]): Promise<Set<string>> {
  if (!batch.length) return new Set();
  const rows = batch.map(({ delivery: d, attempt: a, outcome: o }) => ({
    brand_id: d.brand_id, id: d.id, claim: d.claim, status: o.status,
    attempted_at: a.attemptedAt.toISOString(), duration_ms: a.durationMs, response_code: a.responseCode,
    error: a.error, response_body: a.responseBody, failure_reason: o.failureReason,
    next_attempt_at: o.nextAttemptAt?.toISOString() ?? null, disable_reason: o.disableReason,
    failing_cutoff: o.failingCutoff.toISOString(),
  }));
  const done = await db.query<{ id: string }>(
    `WITH o AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS o (
         brand_id text, id text, claim text, status text, attempted_at timestamptz, duration_ms int, response_code int,
         error text, response_body text, failure_reason text, next_attempt_at timestamptz, disable_reason text, failing_cutoff timestamptz)
     ), d AS (
       UPDATE webhook_deliveries w SET
         status = o.status, attempts = w.attempts + 1, response_code = coalesce(o.response_code, w.response_code),
         failure_reason = o.failure_reason, next_attempt_at = o.next_attempt_at, last_attempt_at = o.attempted_at,
         delivered_at = CASE WHEN o.status = 'succeeded' THEN o.attempted_at + o.duration_ms * interval '1 millisecond' ELSE w.delivered_at END,
         locked_until = NULL, locked_by = NULL
       FROM o WHERE w.brand_id = o.brand_id AND w.id = o.id AND w.locked_by = o.claim
       RETURNING w.brand_id, w.id, w.endpoint_id, w.attempts, o.status, o.attempted_at, o.duration_ms, o.response_code,
         o.error, o.response_body, o.disable_reason, o.failing_cutoff, w.order_key, w.order_seq
     ), a AS (
       INSERT INTO webhook_attempts (brand_id, delivery_id, number, attempted_at, duration_ms, response_code, error, response_body)
       SELECT brand_id, id, attempts, attempted_at, duration_ms, response_code, error, response_body FROM d
     ), per_endpoint AS (
       SELECT brand_id, endpoint_id,
         bool_or(status = 'succeeded') AS any_success,
         min(attempted_at) FILTER (WHERE status <> 'succeeded') AS first_failure,
         max(failing_cutoff) AS cutoff,
         max(disable_reason) AS gone
       FROM d GROUP BY brand_id, endpoint_id
     ), e AS (
       UPDATE webhook_endpoints w SET
         failing_since = CASE WHEN p.any_success THEN NULL ELSE coalesce(w.failing_since, p.first_failure) END,
         status = CASE WHEN p.gone IS NOT NULL OR (NOT p.any_success AND coalesce(w.failing_since, p.first_failure) <= p.cutoff) THEN 'disabled' ELSE w.status END,
         disabled_reason = CASE
           WHEN w.status = 'disabled' THEN w.disabled_reason
           WHEN p.gone IS NOT NULL THEN p.gone
           WHEN NOT p.any_success AND coalesce(w.failing_since, p.first_failure) <= p.cutoff
             THEN 'failing: every delivery attempt since ' || to_char(coalesce(w.failing_since, p.first_failure) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') || ' failed'
           ELSE w.disabled_reason END,
         updated_at = CASE WHEN w.status = 'active' AND (p.gone IS NOT NULL OR (NOT p.any_success AND coalesce(w.failing_since, p.first_failure) <= p.cutoff))
           THEN date_trunc('milliseconds', clock_timestamp()) ELSE w.updated_at END
       FROM per_endpoint p WHERE w.brand_id = p.brand_id AND w.id = p.endpoint_id
         AND (NOT p.any_success OR w.failing_since IS NOT NULL)
     ), released AS (
       -- A delivery that finished may be what the next one of its object waited for (order):
       -- wake the workers at commit rather than at their next poll.
       SELECT pg_notify($2, 'delivery') WHERE EXISTS (
         SELECT 1 FROM d JOIN webhook_deliveries n
           ON n.brand_id = d.brand_id AND n.endpoint_id = d.endpoint_id AND n.order_key = d.order_key AND n.order_seq > d.order_seq
         WHERE d.status <> 'pending' AND n.behind_earlier AND ${undeliveredSql('n')})
     )
     SELECT id FROM d LEFT JOIN released ON true`,
    [JSON.stringify(rows), workChannel],
    'webhook_record_attempts',
  );
  return new Set(done.map((r) => r.id));
}

/** Finishes a claimed delivery without an attempt: its endpoint was disabled or deleted meanwhile. */
export async function abandonDelivery(db: Queryable, d: ClaimedDelivery, reason: string) {
  // Failed, it no longer holds back the next delivery of its object (which is abandoned in turn,
  // for the same reason, unless the endpoint is enabled again first): wake the workers for it.
  await db.query(
    `WITH f AS (
       UPDATE webhook_deliveries SET status = 'failed', failure_reason = $4, next_attempt_at = NULL, locked_until = NULL, locked_by = NULL
       WHERE brand_id = $1 AND id = $2 AND locked_by = $3 RETURNING order_key
     )
     SELECT pg_notify($5, 'delivery') FROM f WHERE f.order_key IS NOT NULL`,
    [d.brand_id, d.id, d.claim, reason, workChannel],
  );
}
