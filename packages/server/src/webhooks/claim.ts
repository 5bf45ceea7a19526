import type { Queryable } from '../db/client.ts';
import { daysSpanning, namedForDay, withinDays } from '../db/partitions.ts';
import type { Mode } from '../auth/principal.ts';
import { workChannel } from '../worker/notify.ts';
import type { DeliveryStatus } from './repository.ts';

/**
 * The worker's SQL (and resend's): claiming due deliveries under a lease, giving claims back, and
 * recording attempts. The worker's state is in webhook_queue (migration 038), which holds only
 * what is due; the delivery log (webhook_deliveries) is written at fan-out and updated with the
 * outcome. Everything a worker does per delivery is batched: one statement claims a batch and
 * one reads its events, one records a batch's attempts and new states; only abandoning (an
 * endpoint disabled or deleted since the delivery was created) goes one row at a time, as it is
 * rare. The log and events are partitioned by day (migration 037): every statement here that
 * reaches their rows names the rows' days as constants (daysSpanning), so it is planned over
 * those days' partitions only, not every day's (docs/performance.md, "Both together").
 */

/** A claimed delivery with everything needed to send it. */
export interface ClaimedDelivery {
  brand_id: string;
  id: string;
  mode: Mode;
  endpoint_id: string;
  event_id: string;
  /** The log row's created_at: statements on the log row name it (migration 038). */
  delivery_created_at: Date;
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

const claimedColumns = `c.brand_id, c.delivery_id AS id, ev.mode, c.endpoint_id, c.event_id, c.delivery_created_at, c.attempts, c.locked_by AS claim,
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
 * Takes due deliveries for `leaseMs`, oldest due first, up to `limit` of them, and of those only
 * as many per endpoint and per brand as this worker may still hold (`caps`: see
 * delivery-source.ts, no noisy neighbours). Brand by brand (issue 28, docs/performance.md
 * "Per-brand claims"): one statement picks the brands with the oldest due work from
 * webhook_due_brands, leaving out brands already at their cap, then one statement per brand
 * claims within it (`knownDue`: brands the caller knows to have due work, claimed beside the
 * pick). Every statement that reads or writes deliveries names its brand, so a
 * cluster distributed by brand_id routes each one to a single shard.
 *
 * `retainedSince`: events older than this are past retention (EVENT_RETENTION). A queued delivery
 * of such an event counts as gone whether or not retention has removed its rows yet: it never
 * holds back its object's next delivery, and it leaves the queue unsent when it comes due (as
 * does one whose event or log row is gone). Nothing of retention's has to remember the queue.
 *
 * `onClaimed`: called with each brand's deliveries as soon as they are claimed, so the caller can
 * start sending them while the next brands are claimed (the brands are claimed one after
 * another: with ten brands due, the last one's deliveries waited for nine claims before any went).
 */
export async function claimDue(
  db: Queryable, limit: number, leaseMs: number, claim: string, caps: ClaimCaps, knownDue: string[] = [], retainedSince = new Date(0),
  onClaimed?: (brandsDeliveries: ClaimedDelivery[]) => void,
) {
  const atCap = (held: Map<string, number>, cap: number) => [...held].filter(([, n]) => n >= cap).map(([id]) => id);
  const brandsAtCap = atCap(caps.heldByBrand, caps.perBrand);
  const endpointsAtCap = atCap(caps.heldByEndpoint, caps.perEndpoint);
  // Brands the caller knows to have due work (a capped endpoint of theirs just freed a slot) are
  // claimed while the pick runs beside them: every claim is a commit, and a pick then a claim one
  // after the other made one busy endpoint drain at the pace of two commits' waits (issue 20).
  // (Claiming the picked brands side by side as well made claims smaller and cost the database
  // more per delivery, with no gain in rate; they are claimed one after another, as before.)
  const picking = pickDueBrands(db, brandsAtCap);
  picking.catch(() => {});
  const claimed: ClaimedDelivery[] = [];
  const seen = new Set(brandsAtCap);
  const claimBrand = async (brandId: string) => {
    if (claimed.length >= limit || seen.has(brandId)) return;
    seen.add(brandId);
    const got = await claimDueOfBrand(db, brandId, limit - claimed.length, leaseMs, claim, caps, endpointsAtCap, retainedSince);
    claimed.push(...got);
    if (got.length) onClaimed?.(got);
  };
  for (const brandId of knownDue) await claimBrand(brandId);
  for (const brandId of await picking) await claimBrand(brandId);
  return claimed;
}

/** How many due rows one pick looks at: a brand with many event transactions since its last claim has as many rows. */
const pickRows = 256;
/** At most this many brands per claim round; the rest are taken in the next round. */
const pickBrands = 32;

/**
 * The brands with the oldest due work, oldest first, skipping rows another worker's claim is
 * deleting right now (SKIP LOCKED: that worker is claiming that brand). Reads no tenant table:
 * on Citus, webhook_due_brands is a coordinator-local table (migration 035).
 */
async function pickDueBrands(db: Queryable, brandsAtCap: string[]) {
  const rows = await db.query<{ brand_id: string }>(
    `SELECT brand_id FROM (
       SELECT brand_id, due_at FROM webhook_due_brands
       WHERE due_at <= now() AND NOT (brand_id = ANY ($1::text[]))
       ORDER BY due_at LIMIT ${pickRows}
       FOR UPDATE SKIP LOCKED
     ) due GROUP BY brand_id ORDER BY min(due_at) LIMIT ${pickBrands}`,
    [brandsAtCap],
    'webhook_pick_due_brands',
  );
  return rows.map((r) => r.brand_id);
}

/**
 * What makes a queued row one a claim may take now: due, not leased, and (order, docs/webhooks.md)
 * not behind an earlier delivery of its object to its endpoint that is still queued.
 */
const takeable = `w.next_attempt_at <= now() AND (w.locked_until IS NULL OR w.locked_until <= now())
  AND (NOT w.behind_earlier OR NOT EXISTS (
    SELECT 1 FROM webhook_queue earlier
    WHERE earlier.brand_id COLLATE "C" = $1 AND earlier.endpoint_id = w.endpoint_id AND earlier.order_key = w.order_key
      AND earlier.order_seq < w.order_seq AND earlier.event_created_at >= $11
  ))`;

/** The brand's due rows oldest first, on webhook_queue_due (brand_id, next_attempt_at): the claim's walk when no endpoint is at its cap. */
const brandWalk = (walk: number) => `SELECT w.delivery_id AS id, w.endpoint_id, w.next_attempt_at FROM webhook_queue w
  WHERE w.brand_id = $1 AND ${takeable}
  ORDER BY w.next_attempt_at LIMIT ${walk}`;

/**
 * The walk when some endpoints are at their cap: endpoint by endpoint, each of those below it,
 * its due rows oldest first on webhook_queue_endpoint_due (brand_id, endpoint_id,
 * next_attempt_at; migration 040), then the oldest of them all. Walking the brand's rows and
 * leaving out the capped endpoints' read every row of a capped endpoint due before the first of
 * another's: one slow receiver with a backlog of 2,000 made every claim for its brand's other
 * endpoints read all 2,000 (30 ms a claim at 20,000), at every claim while its slots were full;
 * with every endpoint at its cap there is nothing to walk at all. (A retry of a delivery whose
 * endpoint was deleted while it was being sent has no endpoint to be found by: the brand's next
 * claim with no endpoint at its cap takes it, and abandons it.)
 *
 * The endpoints left out are read through a subquery, whose value no plan sees: given as the
 * array itself, a plan for the actual array (one or two endpoints) looked cheaper than the
 * generic one (ten, by default), so the statement was planned afresh at every claim (1 ms).
 */
const endpointWalk = (walk: number) => `SELECT w.* FROM webhook_endpoints e CROSS JOIN LATERAL (
    SELECT w.delivery_id AS id, w.endpoint_id, w.next_attempt_at FROM webhook_queue w
    WHERE w.brand_id = $1 AND w.endpoint_id = e.id AND ${takeable}
    ORDER BY w.next_attempt_at LIMIT ${walk}
  ) w
  WHERE e.brand_id = $1 AND NOT (e.id = ANY ((SELECT $5::text[])::text[]))
  ORDER BY w.next_attempt_at LIMIT ${walk}`;

/**
 * How many due rows a claim of `limit` walks: the first of a few lengths that holds `limit`,
 * written into the statement as a constant (one prepared statement per length). With the walk's
 * LIMIT a parameter, PostgreSQL costs the generic plan as if the walk read a tenth of the queue,
 * so it planned every claim afresh (about 1 ms, as much as running it). Few lengths, since each
 * is planned afresh five times on each connection before its generic plan is taken; a walk at
 * most four times the limit reads a few more rows than it needs, which costs far less.
 */
function walkLength(limit: number) {
  return walkLengths.find((n) => n >= limit) ?? walkLengths[walkLengths.length - 1];
}
const walkLengths = [8, 32, 128, 256];

/**
 * Claims one brand's due deliveries: at most `limit`, of each endpoint only what fits under its
 * cap and of the brand only what fits under the brand's, oldest due first, walking an index in
 * due order (brandWalk, endpointWalk) so a claim costs the rows it looks at, not the backlog.
 * Taking only what fits matters for one endpoint with a backlog: a claim that took a
 * full batch and gave back all but the few that fit rewrote every row it gave back, and one
 * endpoint drained at about 450 deliveries/s (issue 20). SKIP LOCKED lets concurrent workers pass
 * each other's rows; the lease (locked_until) is what keeps a delivery from being sent twice at
 * once after this statement commits, and what hands it to another worker if this one dies.
 *
 * In the same snapshot it deletes the brand's due rows in webhook_due_brands and writes back what
 * is still to come, so no work is left without a row: now when due deliveries remain that a
 * claim could take (the limit, a cap), the next retry's time, and the end of this claim's lease (a worker killed now leaves its deliveries due again then; rounded up to the
 * second so claims in one second share a row). Work made due by a transaction that commits after
 * this snapshot has a row of its own, which this statement cannot see and so does not delete.
 *
 * Order (docs/webhooks.md): a delivery waits while an earlier one of the same object to the same
 * endpoint (same order_key, lower order_seq) is still queued (a queued row of a delivery that was
 * delivered once has no order key), whether it is due, retrying later or in flight with another
 * worker. Only deliveries that had such an
 * earlier one when they were created (behind_earlier, fan-out.ts) are checked: one created with
 * nothing before it cannot get an earlier sibling later (one object's changes are serialised by
 * its row lock, and seq is taken in that order). That earlier row stays queued until
 * its outcome commits, so no worker can see it finished early, whatever it has locked; one
 * claim never takes two deliveries of one object. A delivery that ends `failed` (retries used up,
 * endpoint disabled or deleted) stops holding the next one back, and so does a queued one whose
 * event is past retention (`retainedSince`: claimDue). Resends (claimOne) skip this.
 */
async function claimDueOfBrand(
  db: Queryable, brandId: string, limit: number, leaseMs: number, claim: string, caps: ClaimCaps, endpointsAtCap: string[], retainedSince: Date,
): Promise<ClaimedDelivery[]> {
  const walk = walkLength(limit);
  const leased = await db.query<LeasedDelivery>(
    `WITH candidates AS (
       ${endpointsAtCap.length ? endpointWalk(walk) : brandWalk(walk)}
     ), fits AS (
       SELECT c.id FROM (
         SELECT *, row_number() OVER (PARTITION BY endpoint_id ORDER BY next_attempt_at, id) AS nth FROM candidates
       ) c LEFT JOIN unnest($6::text[], $7::int[]) AS held (endpoint_id, n) ON held.endpoint_id = c.endpoint_id
       WHERE c.nth + coalesce(held.n, 0) <= $8
       ORDER BY c.next_attempt_at, c.id LIMIT least($2::int, greatest($9::int - $10::int, 0))
     ), due AS (
       -- The rows to lease, found by key: delivery_id = ANY (the ids fits chose) is the primary
       -- key's condition, the only index a statement by key can use (migration 038), so this reads
       -- the rows it leases and no others, whatever the queue's statistics say. One whose event
       -- is past retention is dropped below; one whose event or log row is gone, by claimedEvents.
       SELECT w.delivery_id, w.event_created_at >= $11 AS alive
       FROM webhook_queue w
       WHERE w.brand_id = $1 AND w.delivery_id = ANY ((SELECT array_agg(id) FROM fits)::text[])
         AND (w.locked_until IS NULL OR w.locked_until <= now())
       FOR UPDATE OF w SKIP LOCKED
     ), c AS (
       UPDATE webhook_queue q SET locked_until = clock_timestamp() + $3 * interval '1 millisecond', locked_by = $4
       WHERE q.brand_id = $1 AND q.delivery_id = ANY ((SELECT array_agg(delivery_id) FROM due WHERE alive)::text[])
       RETURNING q.*
     ), gone AS (
       -- Its event is past retention (EVENT_RETENTION; retention may not have dropped its day
       -- yet): there is nothing to send, and left queued it would be leased and skipped forever
       -- and hold back its object's next delivery. No hook of retention's does this, so however
       -- rows go (DROP of a day, a purge), the queue follows at its next claim.
       DELETE FROM webhook_queue q
       WHERE q.brand_id = $1 AND q.delivery_id = ANY ((SELECT array_agg(delivery_id) FROM due WHERE NOT alive)::text[])
       RETURNING q.order_key
     ), seen AS (
       DELETE FROM webhook_due_brands WHERE brand_id = $1 AND due_at <= now()
     ), still_due AS (
       -- Due work this claim could have taken and did not: the limit was reached, a cap or another
       -- worker's lock left candidates behind, or an endpoint of the brand was left out at its cap.
       -- Counted from the walk already made, not by walking the brand's rows again. Leased ones
       -- are due again at their lease's end (the last row here); those waiting for an earlier
       -- delivery of their object get a row when it finishes (recordAttempts, abandonDelivery).
       SELECT now() AS due_at
       WHERE (SELECT count(*) FROM candidates) >= ${walk}
          OR (SELECT count(*) FROM candidates) > (SELECT count(*) FROM c)
          OR EXISTS (SELECT 1 FROM unnest($5::text[]) AS at_cap (id) JOIN webhook_endpoints e ON e.brand_id = $1 AND e.id = at_cap.id)
          OR EXISTS (SELECT 1 FROM gone WHERE gone.order_key IS NOT NULL)
       UNION ALL
       SELECT min(w.next_attempt_at) FROM webhook_queue w WHERE w.brand_id = $1 AND w.next_attempt_at > now()
       UNION ALL
       SELECT date_trunc('second', max(c.locked_until)) + interval '1 second' FROM c
     ), rescheduled AS (
       INSERT INTO webhook_due_brands (brand_id, due_at)
       SELECT DISTINCT $1, due_at FROM still_due WHERE due_at IS NOT NULL
       ON CONFLICT DO NOTHING
     )
     SELECT c.brand_id, c.delivery_id AS id, c.endpoint_id, c.event_id, c.event_created_at, c.delivery_created_at, c.attempts, c.locked_by AS claim,
       e.url, e.secret_sealed, e.previous_secret_sealed, e.previous_secret_expires_at, e.status AS endpoint_status
     FROM c LEFT JOIN webhook_endpoints e ON e.brand_id = $1 AND e.id = c.endpoint_id
     ORDER BY c.next_attempt_at`,
    [brandId, limit, leaseMs, claim, endpointsAtCap,
      [...caps.heldByEndpoint.keys()], [...caps.heldByEndpoint.values()], caps.perEndpoint,
      caps.perBrand, caps.heldByBrand.get(brandId) ?? 0, retainedSince],
    `webhook_claim_due_of_brand${endpointsAtCap.length ? '_capped' : ''}_${walk}`,
  );
  return claimedEvents(db, brandId, claim, leased);
}

/** A delivery leased by claimDueOfBrand, before its event is read. */
type LeasedDelivery = Omit<ClaimedDelivery, 'mode' | 'event_type' | 'event_data'>;

/**
 * The events of deliveries just leased, and of each whether its log row is still there: a
 * statement of its own, after the claim, because the days it reads are known only then. It names
 * them as constants (the leased rows' earliest and latest day), so the planner reads those days'
 * partitions of events and of the log (usually one), not every day's: joined in the claim by
 * key and day alone, they were planned over all of them at every claim, 5–6 ms at 33 days
 * (migration 037; docs/performance.md). A leased delivery whose event or log row is gone
 * (retention dropped its day while it waited for a retry) leaves the queue here, unsent: there
 * is nothing to send or to record. Should this statement fail, the leases just taken lapse and
 * the rows are claimed again (at least once, as after a killed worker).
 */
async function claimedEvents(db: Queryable, brandId: string, claim: string, leased: LeasedDelivery[]): Promise<ClaimedDelivery[]> {
  if (!leased.length) return [];
  const events = daysSpanning(leased.map((d) => d.event_created_at));
  const log = daysSpanning(leased.map((d) => d.delivery_created_at));
  const found = await db.query<{ id: string; mode: Mode; type: string; data: Record<string, unknown>; created_at: Date }>(
    `WITH l AS (
       SELECT * FROM unnest($2::text[], $3::text[], $4::timestamptz[], $5::timestamptz[]) AS l (id, event_id, event_created_at, delivery_created_at)
     ), found AS (
       -- One primary-key probe per row, whatever the statistics say (LATERAL … LIMIT 1 is never
       -- flattened into a join): as a join, with a new day's partition not analyzed yet, the
       -- planner took the day range for one row and hashed the brand's whole day read from
       -- another index (20,000 buffers for 50 deliveries).
       SELECT l.id, ev.mode, ev.type, ev.data, ev.created_at, ev.type IS NOT NULL AND w.logged IS NOT NULL AS alive
       FROM l
       LEFT JOIN LATERAL (
         SELECT ev.mode, ev.type, ev.data, ev.created_at FROM events ev
         WHERE ev.brand_id = $1 AND ev.id = l.event_id AND ev.created_at = l.event_created_at AND ${withinDays('ev.created_at', events)}
         LIMIT 1
       ) ev ON true
       LEFT JOIN LATERAL (
         SELECT true AS logged FROM webhook_deliveries w
         WHERE w.brand_id = $1 AND w.id = l.id AND w.created_at = l.delivery_created_at AND ${withinDays('w.created_at', log)}
         LIMIT 1
       ) w ON true
     ), gone AS (
       -- Ours (locked_by), so no other worker's lease is touched. A gone one with an object may
       -- have held back the object's next delivery: the brand is due again now.
       DELETE FROM webhook_queue q
       WHERE q.brand_id = $1 AND q.delivery_id = ANY ((SELECT array_agg(id) FROM found WHERE NOT alive)::text[]) AND q.locked_by = $6
       RETURNING q.order_key
     ), due AS (
       INSERT INTO webhook_due_brands (brand_id, due_at) SELECT $1, clock_timestamp() WHERE EXISTS (SELECT 1 FROM gone WHERE order_key IS NOT NULL)
       ON CONFLICT DO NOTHING
     )
     SELECT id, mode, type, data, created_at FROM found WHERE alive`,
    [brandId, leased.map((d) => d.id), leased.map((d) => d.event_id), leased.map((d) => d.event_created_at.toISOString()),
      leased.map((d) => d.delivery_created_at.toISOString()), claim],
    // A delivery's log row is in its event's day (migration 037): the two ranges are one.
    log.from.getTime() === events.from.getTime() && log.to.getTime() === events.to.getTime() ? namedForDay('webhook_claimed_events', log) : undefined,
  );
  const byId = new Map(found.map((f) => [f.id, f]));
  return leased.flatMap((d) => {
    const ev = byId.get(d.id);
    return ev ? [{ ...d, mode: ev.mode, event_type: ev.type, event_data: ev.data, event_created_at: ev.created_at }] : [];
  });
}

/** Gives claims back at once (a batch took more for one endpoint than the worker may send it now). */
export async function releaseClaims(db: Queryable, deliveries: ClaimedDelivery[]) {
  if (!deliveries.length) return;
  // Given back, they are due again at once: the brand gets a due row (migration 035).
  await db.query(
    `WITH r AS (
       UPDATE webhook_queue q SET locked_until = NULL, locked_by = NULL
       FROM unnest($1::text[], $2::text[], $3::text[]) AS r (brand_id, id, claim)
       -- delivery_id = ANY: the queue is read by its primary key however the join is planned (recordAttempts says why).
       WHERE q.delivery_id = ANY ($2::text[]) AND q.brand_id = r.brand_id AND q.delivery_id = r.id AND q.locked_by = r.claim
       RETURNING q.brand_id
     )
     INSERT INTO webhook_due_brands (brand_id, due_at) SELECT DISTINCT brand_id, clock_timestamp() FROM r
     ON CONFLICT DO NOTHING`,
    [deliveries.map((d) => d.brand_id), deliveries.map((d) => d.id), deliveries.map((d) => d.claim)],
  );
}

/**
 * Claims one delivery for a resend, whatever its status, unless it is in flight right now: the
 * lease on its queue row, or a queue row made for it when it is finished (it goes when the
 * resend's outcome is recorded). That row is due at once but leased; should this process die
 * before the outcome, the brand's due row at the lease's end makes a worker send it instead. A
 * delivered delivery's row has no order key: its retries neither wait for nor hold back others.
 * The caller has read the delivery: its created_at, which is its event's too (migration 037),
 * names the day of both, so each is read from one partition however old.
 */
export async function claimOne(db: Queryable, brandId: string, mode: Mode, id: string, createdAt: Date, leaseMs: number, claim: string) {
  const [row] = await db.query<ClaimedDelivery>(
    `WITH d AS (
       SELECT * FROM webhook_deliveries WHERE brand_id = $1 AND mode = $2 AND id = $3 AND created_at = $6
     ), c AS (
       INSERT INTO webhook_queue AS q (brand_id, delivery_id, endpoint_id, event_id, event_created_at, delivery_created_at, next_attempt_at,
         locked_until, locked_by, attempts, last_attempt_at, response_code)
       SELECT d.brand_id, d.id, d.endpoint_id, d.event_id, ev.created_at, d.created_at, clock_timestamp(), clock_timestamp() + $4 * interval '1 millisecond', $5,
         d.attempts, d.last_attempt_at, d.response_code
       FROM d JOIN events ev ON ev.brand_id = $1 AND ev.id = d.event_id AND ev.created_at = $6
       ON CONFLICT (brand_id, delivery_id) DO UPDATE SET locked_until = EXCLUDED.locked_until, locked_by = EXCLUDED.locked_by
         WHERE q.locked_until IS NULL OR q.locked_until <= now()
       RETURNING q.*
     ), due AS (
       INSERT INTO webhook_due_brands (brand_id, due_at) SELECT $1, date_trunc('second', locked_until) + interval '1 second' FROM c
       ON CONFLICT DO NOTHING
     )
     SELECT ${claimedColumns} FROM c
     JOIN events ev ON ev.brand_id = $1 AND ev.id = c.event_id AND ev.created_at = c.event_created_at AND ev.created_at = $6
     LEFT JOIN webhook_endpoints e ON e.brand_id = $1 AND e.id = c.endpoint_id`,
    [brandId, mode, id, leaseMs, claim, createdAt],
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
  const days = daysSpanning(col((r) => r.delivery.delivery_created_at));
  const done = await db.query<{ id: string }>(
    `WITH o AS (
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::int[], $7::int[],
         $8::text[], $9::text[], $10::text[], $11::timestamptz[], $12::text[], $13::timestamptz[]) AS o (
         brand_id, id, claim, status, attempted_at, duration_ms, response_code,
         error, response_body, failure_reason, next_attempt_at, disable_reason, failing_cutoff)
     ), queued AS (
       -- The batch's queue rows, found by key: one primary-key probe per row (LATERAL … LIMIT 1
       -- is never flattened into a join), then updated or deleted by row address (ctid). Nothing
       -- else in those two statements can use an index: brand and id are compared under the "C"
       -- collation, which no index of theirs has (migration 039). With the queue analyzed while
       -- empty, a join to o on the key planned a merge join over the whole primary key (60,000
       -- buffers for 128 deliveries at a 50,000 backlog); with no column statistics, a hash join
       -- over the whole queue (each id of a batch taken for 0.5% of it). Should another worker
       -- lease a row between the probe and the write (its lease expired), the write sees the
       -- newer version, where locked_by is no longer ours, and skips it.
       SELECT o.*, q.at FROM o CROSS JOIN LATERAL (
         SELECT q.ctid AS at FROM webhook_queue q WHERE q.delivery_id = o.id AND q.brand_id = o.brand_id AND q.locked_by = o.claim LIMIT 1
       ) q
     ), retried AS (
       -- A retry changes only its queue row (migration 038); the log row stays pending as it is.
       UPDATE webhook_queue q SET
         attempts = q.attempts + 1, next_attempt_at = r.next_attempt_at, last_attempt_at = r.attempted_at,
         response_code = coalesce(r.response_code, q.response_code), locked_until = NULL, locked_by = NULL
       FROM queued r WHERE q.ctid = r.at AND q.brand_id COLLATE "C" = r.brand_id AND q.delivery_id COLLATE "C" = r.id AND q.locked_by = r.claim
         AND r.status = 'pending'
       RETURNING q.brand_id, q.delivery_id, q.delivery_created_at, q.endpoint_id, q.attempts, q.response_code, q.order_key, q.order_seq
     ), finished AS (
       DELETE FROM webhook_queue q
       WHERE q.ctid = ANY ((SELECT array_agg(at) FROM queued WHERE status <> 'pending')::tid[])
         AND q.brand_id COLLATE "C" = ANY ($1::text[]) AND q.locked_by = ANY ($3::text[])
       RETURNING q.brand_id, q.delivery_id, q.delivery_created_at, q.endpoint_id, q.attempts + 1 AS attempts, q.response_code, q.order_key, q.order_seq
     ), d AS (
       -- A finished row's last answer is this attempt's, or the one before if it had none.
       SELECT r.brand_id, r.delivery_id AS id, r.delivery_created_at, r.endpoint_id, r.attempts,
         coalesce(o.response_code, r.response_code) AS last_response_code,
         r.order_key, r.order_seq, o.status, o.attempted_at, o.duration_ms, o.response_code, o.error, o.response_body, o.failure_reason,
         o.disable_reason, o.failing_cutoff, o.next_attempt_at
       FROM (SELECT * FROM retried UNION ALL SELECT * FROM finished) r JOIN o ON o.brand_id = r.brand_id AND o.id = r.delivery_id
     ), logged AS (
       -- The log row's one update: its outcome. (A resend of a finished delivery that failed with
       -- retries left is pending again, which the log says too.) By key and day (created_at: one
       -- partition once the log is partitioned by day).
       UPDATE webhook_deliveries w SET
         status = d.status, attempts = d.attempts, response_code = d.last_response_code,
         failure_reason = d.failure_reason, last_attempt_at = d.attempted_at,
         delivered_at = CASE WHEN d.status = 'succeeded' THEN d.attempted_at + d.duration_ms * interval '1 millisecond' ELSE w.delivered_at END
       FROM d WHERE w.brand_id = d.brand_id AND w.id = d.id AND w.created_at = d.delivery_created_at
         -- The batch's days as constants too: the plan then holds only those days' partitions
         -- (usually one), where the join alone would plan every day's (migration 037).
         AND ${withinDays('w.created_at', days)}
         AND (d.status <> 'pending' OR w.status <> 'pending')
     ), retry AS (
       -- A retry is due again later: its brand gets a due row for then (migration 035).
       INSERT INTO webhook_due_brands (brand_id, due_at)
       SELECT brand_id, min(next_attempt_at) FROM d WHERE status = 'pending' AND next_attempt_at IS NOT NULL GROUP BY brand_id
       ON CONFLICT DO NOTHING
     ), drained AS (
       -- A brand whose last pending deliveries these were has no work left: its rows go (they
       -- would each cost a claim statement that takes nothing, and an old row makes the brand
       -- look due before brands with real work). Only rows this snapshot sees, whose work it
       -- sees too; a transaction committing later keeps its own row. This batch's own rows are
       -- still pending in this snapshot: the brand is drained when it has no more pending rows
       -- than those, counted with a LIMIT so the probe stops within the batch, whatever the backlog.
       DELETE FROM webhook_due_brands g
       USING (SELECT brand_id, count(*) AS n FROM d GROUP BY brand_id HAVING bool_and(status <> 'pending')) b
       WHERE g.brand_id = b.brand_id AND (
         SELECT count(*) FROM (
           -- next_attempt_at IS NOT NULL (always true) lets it use webhook_queue_due (migration 038).
           SELECT 1 FROM webhook_queue w WHERE w.brand_id = b.brand_id AND w.next_attempt_at IS NOT NULL LIMIT b.n + 1
         ) pending
       ) <= b.n
     ), a AS (
       -- In its delivery's day (migration 037): rows are routed when inserted, nothing is planned per day.
       INSERT INTO webhook_attempts (brand_id, delivery_id, number, attempted_at, duration_ms, response_code, error, response_body, delivery_created_at)
       SELECT brand_id, id, attempts, attempted_at, duration_ms, response_code, error, response_body, delivery_created_at FROM d
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
       -- Its brand gets a due row now (migration 035), or the next claim of the brand could have
       -- deleted the rows that stood for it while it waited.
       SELECT DISTINCT d.brand_id FROM d CROSS JOIN LATERAL (
         SELECT n.behind_earlier FROM webhook_queue n
         WHERE n.brand_id COLLATE "C" = d.brand_id AND n.endpoint_id = d.endpoint_id AND n.order_key = d.order_key
           AND n.order_seq > d.order_seq
         ORDER BY n.order_seq LIMIT 1
       ) next
       WHERE d.status <> 'pending' AND next.behind_earlier
     ), released_due AS (
       INSERT INTO webhook_due_brands (brand_id, due_at) SELECT brand_id, clock_timestamp() FROM released
       ON CONFLICT DO NOTHING
     ), woken AS (
       SELECT pg_notify($14, 'delivery') WHERE EXISTS (SELECT 1 FROM released)
     )
     SELECT id FROM d LEFT JOIN woken ON true`,
    [
      col((r) => r.delivery.brand_id), col((r) => r.delivery.id), col((r) => r.delivery.claim), col((r) => r.outcome.status),
      col((r) => r.attempt.attemptedAt.toISOString()), col((r) => r.attempt.durationMs), col((r) => r.attempt.responseCode),
      col((r) => r.attempt.error), col((r) => r.attempt.responseBody), col((r) => r.outcome.failureReason),
      col((r) => r.outcome.nextAttemptAt?.toISOString() ?? null), col((r) => r.outcome.disableReason),
      col((r) => r.outcome.failingCutoff.toISOString()), workChannel,
    ],
    namedForDay('webhook_record_attempts', days),
  );
  return new Set(done.map((r) => r.id));
}

/** Finishes a claimed delivery without an attempt: its endpoint was disabled or deleted meanwhile. */
export async function abandonDelivery(db: Queryable, d: ClaimedDelivery, reason: string) {
  // Failed, it no longer holds back the next delivery of its object (which is abandoned in turn,
  // for the same reason, unless the endpoint is enabled again first): wake the workers for it.
  await db.query(
    `WITH f AS (
       DELETE FROM webhook_queue WHERE brand_id = $1 AND delivery_id = $2 AND locked_by = $3 RETURNING order_key, delivery_created_at
     ), logged AS (
       UPDATE webhook_deliveries w SET status = 'failed', failure_reason = $4
       FROM f WHERE w.brand_id = $1 AND w.id = $2 AND w.created_at = f.delivery_created_at AND w.created_at = $6
     ), due AS (
       INSERT INTO webhook_due_brands (brand_id, due_at) SELECT $1, clock_timestamp() FROM f WHERE f.order_key IS NOT NULL
       ON CONFLICT DO NOTHING
     )
     SELECT pg_notify($5, 'delivery') FROM f WHERE f.order_key IS NOT NULL`,
    [d.brand_id, d.id, d.claim, reason, workChannel, d.delivery_created_at],
  );
}
