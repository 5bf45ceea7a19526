import type { Queryable } from '../db/client.ts';
import { newId, newIds } from '../ids.ts';
import type { Mode } from '../auth/principal.ts';
import { resourceOf, type EventData } from './payloads.ts';
import * as repo from './repository.ts';
import type { EventType } from './types.ts';

export interface NewEvent<T extends EventType = EventType> {
  brandId: string;
  mode: Mode;
  type: T;
  /** What the event is about, rendered exactly as the API renders it (events/payloads.ts). */
  data: EventData<T>;
  /** The OAuth app the event came about through (its client id), when one did. */
  appId?: string | null;
}

export interface RecordedEvent {
  brandId: string;
  id: string;
  mode: Mode;
  type: EventType;
  data: Record<string, unknown>;
  createdAt: Date;
  /** Increases with every event recorded, in recording order (events/repository.ts). */
  seq: number;
}

/**
 * Whoever acts on events in the transaction that records them: webhooks queue one delivery per
 * subscribed endpoint. Events know nothing of their subscribers; the composition root wires
 * them (src/subscribers.ts).
 */
export interface EventSubscriber {
  readonly name: string;
  recorded(tx: Queryable, events: RecordedEvent[]): Promise<void>;
}

const subscribers = new Map<string, EventSubscriber>();

/** Adds a subscriber; subscribing the same name again replaces it. */
export function subscribeToEvents(subscriber: EventSubscriber): void {
  subscribers.set(subscriber.name, subscriber);
}

/**
 * Records an event in the caller's transaction (the outbox): it exists if and only if the change
 * that caused it commits, and so do whatever its subscribers write in that transaction.
 * `announce: false` records it without telling subscribers (a webhook test event aimed at one
 * endpoint, which the webhooks domain routes itself).
 */
export async function recordEvent<T extends EventType>(
  tx: Queryable,
  event: NewEvent<T>,
  options: { announce?: boolean } = {},
): Promise<RecordedEvent> {
  const data = event.data as Record<string, unknown>;
  const row = { brand_id: event.brandId, id: newId('evt'), mode: event.mode, type: event.type, data, resource_id: resourceOf(event.type, data).id, app_id: event.appId ?? null };
  const inserted = await repo.insertEvent(tx, row);
  const recorded: RecordedEvent = { brandId: row.brand_id, id: row.id, mode: row.mode, type: event.type, data: row.data, createdAt: inserted.created_at, seq: inserted.seq };
  if (options.announce !== false) await announce(tx, [recorded]);
  return recorded;
}

/**
 * recordEvent for many events at once (an import batch): one INSERT for all of them, numbered
 * (`seq`) in the order given, then one call per subscriber with all of them, in the caller's
 * transaction.
 */
export async function recordEvents<T extends EventType>(tx: Queryable, events: NewEvent<T>[]): Promise<RecordedEvent[]> {
  if (!events.length) return [];
  const ids = newIds('evt', events.length);
  const rows = events.map((e, i) => {
    const data = e.data as Record<string, unknown>;
    return { brand_id: e.brandId, id: ids[i], mode: e.mode, type: e.type, data, resource_id: resourceOf(e.type, data).id, app_id: e.appId ?? null };
  });
  const inserted = await repo.insertEvents(tx, rows);
  const recorded = rows.map((r): RecordedEvent => {
    const { created_at: createdAt, seq } = inserted.get(r.id)!;
    return { brandId: r.brand_id, id: r.id, mode: r.mode, type: r.type, data: r.data, createdAt, seq };
  });
  await announce(tx, recorded);
  return recorded;
}

async function announce(tx: Queryable, events: RecordedEvent[]) {
  if (!subscribers.size) {
    // A process that records events without its subscribers would silently send no webhooks.
    throw new Error('No event subscribers are wired: call wireEventSubscribers() (src/subscribers.ts) at the composition root.');
  }
  for (const subscriber of subscribers.values()) await subscriber.recorded(tx, events);
}
