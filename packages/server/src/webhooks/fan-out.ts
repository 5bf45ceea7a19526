import type { Queryable } from '../db/client.ts';
import { orderKeyOf, resourceOf } from '../events/resources.ts';
import type { EventSubscriber, RecordedEvent } from '../events/service.ts';
import { datedIdTail } from '../ids.ts';
import { notifyWorker, workChannel } from '../worker/notify.ts';

/**
 * The outbox's other half (DESIGN.md, Events and the worker): in the transaction that records an
 * event, one delivery row per active endpoint of that brand and mode subscribed to its type.
 * Webhooks subscribe to events (src/subscribers.ts wires it); events know nothing of webhooks.
 */
export const webhookFanOut: EventSubscriber = {
  name: 'webhooks',
  async recorded(tx, events) {
    if (events.length === 1) await fanOutOne(tx, events[0]);
    else await fanOutMany(tx, events);
  },
};

/**
 * Whether a new delivery has an earlier one of its object to its endpoint still queued
 * (docs/webhooks.md, Order and versions): only those are checked again when claimed. The brand
 * is compared under the "C" collation, which only webhook_queue_order's brand_id has (migration
 * 039), so the primary key cannot serve the condition: it did, with the queue analyzed while
 * empty, reading the whole queue once per imported event (8–10 s for each batch of 1,000 at a
 * 30,000 backlog; webhooks/backlog.test.ts).
 */
const behindEarlier = (endpoint: string, orderKey: string, brand = '$1') =>
  `(${orderKey}::text IS NOT NULL AND EXISTS (SELECT 1 FROM webhook_queue e
     WHERE e.brand_id COLLATE "C" = ${brand} AND e.endpoint_id = ${endpoint} AND e.order_key = ${orderKey}))`;

/**
 * Marks the brand as having due work (migration 035, claim.ts): one row per transaction (keyed by
 * the transaction's start, to the microsecond, so the fan-outs of one transaction share it),
 * inserted and never updated, so concurrent transactions of one brand never wait for each
 * other's commit (two practically never start in the same microsecond).
 */
const dueBrandSql = (brand: string, when: string) =>
  `INSERT INTO webhook_due_brands (brand_id, due_at) SELECT ${brand}, now() WHERE ${when} ON CONFLICT DO NOTHING`;

/**
 * A delivery's id, finished in SQL: `whd_`, its event's UTC day and a random tail (ids.ts
 * datedId). A delivery's created_at is its event's, so it lives in its event's day (migration
 * 037) and its id names that day.
 */
const deliveryIdSql = (eventCreatedAt: string, tail: string) => `'whd_' || to_char(${eventCreatedAt} AT TIME ZONE 'UTC', 'YYYYMMDD') || ${tail}`;

const tails = (n: number) => Array.from({ length: n }, datedIdTail);

/** Delivery ids generated up front for the common case; an event with more endpoints takes a second statement. */
const prefetchedIds = 4;

/**
 * One delivery per active endpoint of the event's brand and mode subscribed to its type, in one
 * round trip, NOTIFYing the worker (at commit) when there is something to send. With
 * `endpointId`, only that endpoint gets a delivery (POST /webhooks/test), whatever it subscribes
 * to. Returns how many deliveries were queued.
 */
export async function fanOutOne(tx: Queryable, e: RecordedEvent, endpointId?: string): Promise<number> {
  const resource = resourceOf(e.type, e.data);
  const orderKey = orderKeyOf(e.type, e.data);
  const ids = tails(prefetchedIds);
  const [row] = await tx.query<{ inserted: number; rest: string[] }>(
    `WITH targets AS (
       SELECT id, row_number() OVER (ORDER BY id) AS n FROM webhook_endpoints
       WHERE brand_id = $1 AND mode = $3
         AND CASE WHEN $8::text IS NULL THEN status = 'active' AND $4 = ANY (events) ELSE id = $8 END
     ), ins AS (
       INSERT INTO webhook_deliveries (brand_id, id, mode, endpoint_id, event_id, event_type, resource_type, resource_id, created_at)
       SELECT $1, ${deliveryIdSql('$12::timestamptz', '($5::text[])[t.n]')}, $3, t.id, $2, $4, $6, $7, $12
       FROM targets t WHERE t.n <= ${prefetchedIds}
       RETURNING id, endpoint_id
     ), queued AS (
       -- The queue row carries its event's created_at, which is its log row's too (migrations 037, 038).
       INSERT INTO webhook_queue (brand_id, delivery_id, endpoint_id, event_id, event_created_at, delivery_created_at, order_key, order_seq, behind_earlier)
       SELECT $1, i.id, i.endpoint_id, $2, $12, $12, $10, $11, ${behindEarlier('i.endpoint_id', '$10')} FROM ins i
     ), due AS (
       ${dueBrandSql('$1', 'EXISTS (SELECT 1 FROM targets)')}
     )
     SELECT (SELECT count(*) FROM ins)::int AS inserted,
            (SELECT coalesce(array_agg(id ORDER BY n), '{}') FROM targets WHERE n > ${prefetchedIds}) AS rest,
            (SELECT pg_notify($9, 'delivery') WHERE EXISTS (SELECT 1 FROM targets)) AS notified`,
    [e.brandId, e.id, e.mode, e.type, ids, resource.type, resource.id, endpointId ?? null, workChannel, orderKey, e.seq, e.createdAt],
    'fan_out_event',
  );
  let deliveries = row.inserted;
  if (row.rest.length) {
    await tx.query(
      `WITH ins AS (
         INSERT INTO webhook_deliveries (brand_id, id, mode, endpoint_id, event_id, event_type, resource_type, resource_id, created_at)
         SELECT $1, ${deliveryIdSql('$11::timestamptz', 'd.tail')}, $3, d.endpoint_id, $2, $4, $5, $6, $11
         FROM unnest($7::text[], $8::text[]) AS d (tail, endpoint_id)
         RETURNING id, endpoint_id
       )
       INSERT INTO webhook_queue (brand_id, delivery_id, endpoint_id, event_id, event_created_at, delivery_created_at, order_key, order_seq, behind_earlier)
       SELECT $1, i.id, i.endpoint_id, $2, $11, $11, $9, $10, ${behindEarlier('i.endpoint_id', '$9')} FROM ins i`,
      [e.brandId, e.id, e.mode, e.type, resource.type, resource.id, tails(row.rest.length), row.rest, orderKey, e.seq, e.createdAt],
    );
    deliveries += row.rest.length;
  }
  return deliveries;
}

/**
 * Fan-out for events recorded in bulk (imports), set-based: one SELECT of the endpoints that want
 * any of them (their number sizes the delivery ids made up front), and one INSERT … SELECT joining
 * the events to those endpoints, whatever the number of events. Deliveries carry what fanOutOne
 * gives them. Of two events of one object in the call, the later one's delivery to an endpoint is
 * behind the earlier one's (the INSERT's own check does not see rows of the same statement).
 */
async function fanOutMany(tx: Queryable, events: RecordedEvent[]): Promise<number> {
  if (!events.length) return 0;
  const pairs = [...new Set(events.map((e) => `${e.brandId} ${e.mode}`))].map((p) => p.split(' '));
  const endpoints = await tx.query<{ id: string }>(
    `SELECT w.id FROM webhook_endpoints w
     JOIN unnest($1::text[], $2::text[]) AS p (brand_id, mode) ON w.brand_id = p.brand_id AND w.mode = p.mode
     WHERE w.status = 'active' AND w.events && $3::text[]`,
    [pairs.map((p) => p[0]), pairs.map((p) => p[1]), [...new Set(events.map((e) => e.type))]],
    'fan_out_endpoints',
  );
  if (!endpoints.length) return 0;
  const rows = events.map((e) => {
    const resource = resourceOf(e.type, e.data);
    return {
      brand_id: e.brandId, mode: e.mode, event_id: e.id, event_type: e.type, resource_type: resource.type, resource_id: resource.id,
      order_key: orderKeyOf(e.type, e.data), order_seq: e.seq, created_at: e.createdAt.toISOString(),
    };
  });
  const [{ inserted }] = await tx.query<{ inserted: number }>(
    `WITH e AS (
       SELECT * FROM ROWS FROM (json_to_recordset($1::json) AS (brand_id text, mode text, event_id text, event_type text,
         resource_type text, resource_id text, order_key text, order_seq bigint, created_at timestamptz)) WITH ORDINALITY AS e (brand_id, mode, event_id, event_type,
         resource_type, resource_id, order_key, order_seq, created_at, n)
     ), d AS (
       -- A delivery's log row has its event's created_at (migration 037), so the queue row
       -- carries it (migration 038) from e, without joining the log insert's RETURNING; both
       -- inserts make the same id from it.
       SELECT e.*, w.id AS endpoint_id,
         row_number() OVER (ORDER BY e.n, w.id) AS k,
         e.order_key IS NOT NULL AND row_number() OVER (PARTITION BY w.id, e.order_key ORDER BY e.n) > 1 AS in_batch
       FROM e JOIN webhook_endpoints w ON w.brand_id = e.brand_id AND w.mode = e.mode AND w.id = ANY ($2::text[])
         AND w.status = 'active' AND e.event_type = ANY (w.events)
     ), ins AS (
       INSERT INTO webhook_deliveries (brand_id, id, mode, endpoint_id, event_id, event_type, resource_type, resource_id, created_at)
       SELECT d.brand_id, ${deliveryIdSql('d.created_at', '($3::text[])[d.k]')}, d.mode, d.endpoint_id, d.event_id, d.event_type, d.resource_type, d.resource_id, d.created_at
       FROM d
       RETURNING brand_id
     ), queued AS (
       INSERT INTO webhook_queue (brand_id, delivery_id, endpoint_id, event_id, event_created_at, delivery_created_at, order_key, order_seq,
         behind_earlier)
       SELECT d.brand_id, ${deliveryIdSql('d.created_at', '($3::text[])[d.k]')}, d.endpoint_id, d.event_id, d.created_at, d.created_at, d.order_key, d.order_seq,
         d.in_batch OR ${behindEarlier('d.endpoint_id', 'd.order_key', 'd.brand_id')}
       FROM d
     ), due AS (
       INSERT INTO webhook_due_brands (brand_id, due_at) SELECT DISTINCT brand_id, now() FROM ins
       ON CONFLICT DO NOTHING
     )
     SELECT count(*)::int AS inserted FROM ins`,
    // Enough ids for every endpoint to want every event; the join uses as many as it needs.
    [JSON.stringify(rows), endpoints.map((w) => w.id), tails(events.length * endpoints.length)],
    'fan_out_events',
  );
  if (inserted) await notifyWorker(tx, 'delivery');
  return inserted;
}
