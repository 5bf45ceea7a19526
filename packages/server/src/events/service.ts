import { createHash } from 'node:crypto';
import type { Queryable } from '../db/client.ts';
import { pageRequest, toPage } from '../db/paging.ts';
import { invalid, notFound } from '../errors.ts';
import { idFilterShape, newId, newIds } from '../ids.ts';
import type { Mode, Principal } from '../auth/principal.ts';
import type { EventData } from '../webhooks/payloads.ts';
import { resourceOf } from './resources.ts';
import * as repo from './repository.ts';
import { isEventType, type EventType } from './types.ts';
import type { EventRow } from './repository.ts';

export interface NewEvent<T extends EventType = EventType> {
  brandId: string;
  mode: Mode;
  type: T;
  /** What the event is about, rendered exactly as the API renders it (webhooks/payloads.ts). */
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

/** An event as GET /events answers it: the webhook body's shape, plus the app it came through. */
export const renderEvent = (r: EventRow) => ({ id: r.id, type: r.type, created: r.created_at.toISOString(), data: r.data, ...(r.app_id ? { appId: r.app_id } : {}) });

/**
 * GET /events: the principal's mode's events, newest first, filtered by type and the resource
 * they are about. A cursor belongs to one combination of filters, so the list's name carries a
 * digest of them.
 */
export async function listEventsFor(db: Queryable, principal: Principal, query: { limit?: number; cursor?: string; type?: string; resourceID?: string }) {
  const { type, resourceID } = query;
  if (type !== undefined && !isEventType(type)) throw invalid('type', `"${type}" is not an event type`, 'query parameter');
  if (resourceID !== undefined && !idFilterShape.test(resourceID)) {
    throw invalid('resourceID', `"${resourceID.slice(0, 80)}" is not an id`, 'query parameter');
  }
  const list = `events:${createHash('sha256').update(JSON.stringify([type, resourceID])).digest('base64url').slice(0, 16)}`;
  const page = pageRequest(list, query);
  return toPage(list, page, await repo.listEvents(db, principal.brandId, principal.mode, { type, resourceId: resourceID }, page), renderEvent);
}

/** GET /events/{id}: one event of the principal's mode, exactly as its deliveries carry it. */
export async function getEvent(db: Queryable, principal: Principal, id: string) {
  const row = await repo.findEvent(db, principal.brandId, principal.mode, id);
  if (!row) throw notFound('event');
  return renderEvent(row);
}
