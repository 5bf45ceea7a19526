import type { Queryable } from '../db/client.ts';
import { ensureLogPartitions } from '../db/partitions.ts';
import { dayStamp } from '../ids.ts';

/**
 * Moves an event recorded now, with its deliveries and their attempts, to `at` (a past or future
 * day), as if it had been recorded then: the delivery log is partitioned by day (migration 037),
 * a row's id names its day, and a delivery's created_at is its event's, so all of them change
 * together. Makes the day's partitions first. Returns the event's and deliveries' new ids (by
 * old id). A test of retention or of an old delivery's resend starts from here; an UPDATE of
 * created_at alone would now break the CHECK that ties an id to its day.
 */
export async function moveEventToDay(db: Queryable, brandId: string, eventId: string, at: Date) {
  await ensureLogPartitions(db, at, at);
  const reId = (id: string) => `${id.slice(0, 4)}${dayStamp(at)}${id.slice(12)}`;
  const newEventId = reId(eventId);
  const deliveries = await db.query<{ id: string }>('SELECT id FROM webhook_deliveries WHERE brand_id = $1 AND event_id = $2', [brandId, eventId]);
  const deliveryIds = new Map(deliveries.map((d) => [d.id, reId(d.id)]));
  await db.query('UPDATE events SET id = $3, created_at = $4 WHERE brand_id = $1 AND id = $2', [brandId, eventId, newEventId, at]);
  await db.query(
    `UPDATE webhook_deliveries d SET id = m.new_id, event_id = $3, created_at = $4
     FROM unnest($5::text[], $6::text[]) AS m (old_id, new_id) WHERE d.brand_id = $1 AND d.event_id = $2 AND d.id = m.old_id`,
    [brandId, eventId, newEventId, at, [...deliveryIds.keys()], [...deliveryIds.values()]],
  );
  // A pending delivery's queue row names both (migration 038).
  await db.query(
    `UPDATE webhook_queue q SET delivery_id = m.new_id, event_id = $3, event_created_at = $4, delivery_created_at = $4
     FROM unnest($5::text[], $6::text[]) AS m (old_id, new_id) WHERE q.brand_id = $1 AND q.event_id = $2 AND q.delivery_id = m.old_id`,
    [brandId, eventId, newEventId, at, [...deliveryIds.keys()], [...deliveryIds.values()]],
  );
  await db.query(
    `UPDATE webhook_attempts a SET delivery_id = m.new_id, delivery_created_at = $2
     FROM unnest($3::text[], $4::text[]) AS m (old_id, new_id) WHERE a.brand_id = $1 AND a.delivery_id = m.old_id`,
    [brandId, at, [...deliveryIds.keys()], [...deliveryIds.values()]],
  );
  return { eventId: newEventId, deliveryIds };
}
