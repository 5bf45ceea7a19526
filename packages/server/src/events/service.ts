import type { Queryable } from '../db/client.ts';
import { newId } from '../ids.ts';
import type { Mode } from '../auth/principal.ts';
import type { EventType } from './types.ts';
import { fanOutInserted, insertEventWithDeliveries } from '../webhooks/fan-out.ts';
import { resourceOf } from '../webhooks/samples.ts';

export interface NewEvent {
  brandId: string;
  mode: Mode;
  type: EventType;
  /** What the event is about, rendered exactly as the API renders it (a Transaction, a Membership…). */
  data: Record<string, unknown>;
}

/** Channel the worker listens on; a NOTIFY is delivered only when the transaction that sent it commits. */
export const workChannel = 'service_work';

/**
 * Records an event in the caller's transaction (the outbox): it exists if and only if the change
 * that caused it commits. In the same statement it queues one webhook delivery per active endpoint
 * of the brand and mode subscribed to the type, and NOTIFYs the worker (at commit) when it did.
 * `target.endpointId` (POST /webhooks/test) sends to that one endpoint instead.
 */
export async function recordEvent(
  tx: Queryable,
  event: NewEvent,
  target?: { endpointId: string },
): Promise<{ id: string; createdAt: Date; deliveries: number }> {
  const id = newId('evt');
  const resource = resourceOf(event.data);
  const { createdAt, deliveries } = await insertEventWithDeliveries(tx, workChannel, {
    brandId: event.brandId, id, mode: event.mode, type: event.type, data: event.data,
    resourceType: resource.type, resourceId: resource.id, endpointId: target?.endpointId,
  });
  return { id, createdAt, deliveries };
}

/**
 * recordEvent for many events at once (bulk imports): one INSERT for all of them and one NOTIFY,
 * in the caller's transaction. Returns the ids in the order of `events`.
 */
export async function recordEvents(tx: Queryable, events: NewEvent[]): Promise<{ id: string }[]> {
  if (!events.length) return [];
  const rows = events.map((e) => ({ brand_id: e.brandId, id: newId('evt'), mode: e.mode, type: e.type, data: e.data }));
  await tx.query(
    `INSERT INTO events (brand_id, id, mode, type, data)
     SELECT brand_id, id, mode, type, data
     FROM jsonb_to_recordset($1::jsonb) AS e(brand_id text, id text, mode text, type text, data jsonb)`,
    [JSON.stringify(rows)],
    'record_events',
  );
  await fanOutInserted(tx, workChannel, rows);
  await tx.query(`SELECT pg_notify('${workChannel}', 'event')`);
  return rows.map((r) => ({ id: r.id }));
}
