import type { Queryable } from '../db/client.ts';
import type { Mode } from '../auth/principal.ts';
import { workChannel } from '../worker/notify.ts';
import { undeliveredSql, type DeliveryStatus } from './repository.ts';

/**
 * The worker's SQL (and resend's): claiming due deliveries under a lease, giving claims back, and
 * recording attempts. Everything a worker does per delivery is batched: one statement claims a
 * batch, one records a batch's attempts and new states; only abandoning (an endpoint disabled or
 * deleted since the delivery was created) goes one row at a time, as it is rare.
 */

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

const claimedColumns = `c.brand_id, c.id, c.mode, c.endpoint_id, c.event_id, c.attempts, c.locked_by AS claim,
  ev.type AS event_type, ev.data AS event_data, ev.created_at AS event_created_at,
  e.url, e.secret_sealed, e.previous_secret_sealed, e.previous_secret_expires_at, e.status AS endpoint_status`;

/** What this worker already holds (being sent or ready), and the most it may hold, per endpoint and per brand. */
export interface ClaimCaps {
  heldByEndpoint: Map<string, number>;
  heldByBrand: Map<string, number>;
  perEndpoint: number;
  perBrand: number;
}

/**
 * Takes due deliveries for `leaseMs`, oldest due first, looking at up to `limit` of them (walking
 * webhook_deliveries_queue, migration 018, so a claim costs the rows it looks at, not the
 * backlog), and of those only as many per endpoint and per brand as this worker may still hold
 * (`caps`: see delivery-source.ts, no noisy neighbours). Endpoints and brands already at their cap
 * are left out of the walk. Taking only what fits matters for one endpoint with a backlog: a
 * claim that took a full batch and gave back all but the few that fit rewrote every row it gave
 * back, and one endpoint drained at about 450 deliveries/s (issue 20). SKIP LOCKED lets
 * concurrent workers pass each other's rows; the lease (locked_until) is what keeps a delivery
 * from being sent twice at once after this statement commits, and what hands it to another
 * worker if this one dies.
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
export function claimDue(db: Queryable, limit: number, leaseMs: number, claim: string, caps: ClaimCaps) {
  const atCap = (held: Map<string, number>, cap: number) => [...held].filter(([, n]) => n >= cap).map(([id]) => id);
  return db.query<ClaimedDelivery>(
    `WITH candidates AS (
       SELECT w.brand_id, w.id, w.endpoint_id, w.next_attempt_at FROM webhook_deliveries w
       WHERE w.status = 'pending' AND w.next_attempt_at <= now() AND (w.locked_until IS NULL OR w.locked_until <= now())
         AND NOT (w.endpoint_id = ANY ($4::text[])) AND NOT (w.brand_id = ANY ($5::text[]))
         AND (NOT w.behind_earlier OR NOT EXISTS (
           SELECT 1 FROM webhook_deliveries earlier
           WHERE earlier.brand_id = w.brand_id AND earlier.endpoint_id = w.endpoint_id AND earlier.order_key = w.order_key
             AND earlier.order_seq < w.order_seq AND ${undeliveredSql('earlier')}
         ))
       ORDER BY w.next_attempt_at LIMIT $1
     ), fits_endpoint AS (
       SELECT c.brand_id, c.id, c.next_attempt_at FROM (
         SELECT *, row_number() OVER (PARTITION BY endpoint_id ORDER BY next_attempt_at, id) AS nth FROM candidates
       ) c LEFT JOIN unnest($6::text[], $7::int[]) AS held (endpoint_id, n) ON held.endpoint_id = c.endpoint_id
       WHERE c.nth + coalesce(held.n, 0) <= $10
     ), fits AS (
       SELECT c.brand_id, c.id FROM (
         SELECT *, row_number() OVER (PARTITION BY brand_id ORDER BY next_attempt_at, id) AS nth FROM fits_endpoint
       ) c LEFT JOIN unnest($8::text[], $9::int[]) AS held (brand_id, n) ON held.brand_id = c.brand_id
       WHERE c.nth + coalesce(held.n, 0) <= $11
     ), due AS (
       -- Spelled so that no partial index on pending rows matches (status <> …, not = 'pending';
       -- pending by the CHECK): with statistics that lagged a burst, the planner took such an
       -- index for a handful of rows and walked all of it once per row to lock, instead of the
       -- primary key (issue 20).
       SELECT w.brand_id, w.id FROM webhook_deliveries w JOIN fits ON w.brand_id = fits.brand_id AND w.id = fits.id
       WHERE w.status <> 'succeeded' AND w.status <> 'failed' AND (w.locked_until IS NULL OR w.locked_until <= now())
       FOR UPDATE OF w SKIP LOCKED
     ), c AS (
       UPDATE webhook_deliveries d SET locked_until = clock_timestamp() + $2 * interval '1 millisecond', locked_by = $3
       FROM due WHERE d.brand_id = due.brand_id AND d.id = due.id
       RETURNING d.*
     )
     SELECT ${claimedColumns} FROM c
     JOIN events ev ON ev.brand_id = c.brand_id AND ev.id = c.event_id
     LEFT JOIN webhook_endpoints e ON e.brand_id = c.brand_id AND e.id = c.endpoint_id
     ORDER BY c.next_attempt_at`,
    [limit, leaseMs, claim, atCap(caps.heldByEndpoint, caps.perEndpoint), atCap(caps.heldByBrand, caps.perBrand),
      [...caps.heldByEndpoint.keys()], [...caps.heldByEndpoint.values()], [...caps.heldByBrand.keys()], [...caps.heldByBrand.values()],
      caps.perEndpoint, caps.perBrand],
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
  const col = <T>(pick: (r: RecordedAttempt) => T) => batch.map(pick);
  const done = await db.query<{ id: string }>(
    `WITH o AS (
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::int[], $7::int[],
         $8::text[], $9::text[], $10::text[], $11::timestamptz[], $12::text[], $13::timestamptz[]) AS o (
         brand_id, id, claim, status, attempted_at, duration_ms, response_code,
         error, response_body, failure_reason, next_attempt_at, disable_reason, failing_cutoff)
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
       -- wake the workers at commit rather than at their next poll. The next one is looked up
       -- per finished delivery in a LATERAL … LIMIT 1, which the planner cannot turn into a join
       -- of its own choosing: as a semi-join, with statistics that lagged a burst of new
       -- deliveries, it scanned the whole pending set once per finished delivery (issue 20:
       -- 18–30 s a batch at a backlog of 270,000, then the statement timeout).
       SELECT pg_notify($14, 'delivery') WHERE EXISTS (
         SELECT 1 FROM d CROSS JOIN LATERAL (
           SELECT n.behind_earlier FROM webhook_deliveries n
           WHERE n.brand_id = d.brand_id AND n.endpoint_id = d.endpoint_id AND n.order_key = d.order_key
             AND n.order_seq > d.order_seq AND ${undeliveredSql('n')}
           ORDER BY n.order_seq LIMIT 1
         ) next
         WHERE d.status <> 'pending' AND next.behind_earlier)
     )
     SELECT id FROM d LEFT JOIN released ON true`,
    [
      col((r) => r.delivery.brand_id), col((r) => r.delivery.id), col((r) => r.delivery.claim), col((r) => r.outcome.status),
      col((r) => r.attempt.attemptedAt.toISOString()), col((r) => r.attempt.durationMs), col((r) => r.attempt.responseCode),
      col((r) => r.attempt.error), col((r) => r.attempt.responseBody), col((r) => r.outcome.failureReason),
      col((r) => r.outcome.nextAttemptAt?.toISOString() ?? null), col((r) => r.outcome.disableReason),
      col((r) => r.outcome.failingCutoff.toISOString()), workChannel,
    ],
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
