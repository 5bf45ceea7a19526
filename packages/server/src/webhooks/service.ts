import { createHash } from 'node:crypto';
import type { Queryable } from '../db/client.ts';
import { pageRequest, toPage } from '../db/paging.ts';
import { recordEvent } from '../events/service.ts';
import { isEventType, type EventType } from '../events/types.ts';
import { AppError, invalid, invalidAll, notFound, type ErrorDetail } from '../errors.ts';
import { idFilterShape, newId } from '../ids.ts';
import { appOf, type Principal } from '../auth/principal.ts';
import { createDeliverer, type Deliverer, type DelivererDeps } from './delivery.ts';
import { fanOutOne } from './fan-out.ts';
import * as repo from './repository.ts';
import { sampleEventData } from './samples.ts';
import type { WebhookDelivery, WebhookDeliveryDetail, WebhookEndpoint } from './schemas.ts';
import { openSecret, sealSecret, secretContext } from '../security/secret-box.ts';
import { newSigningSecret } from './signing.ts';
import { checkEndpointUrl, type Lookup } from '../security/url-guard.ts';

export interface WebhookDeps {
  /** Seals signing secrets at rest. */
  key: Buffer;
  lookup?: Lookup;
  /** WEBHOOK_ALLOW_LOOPBACK: whether test-mode endpoints may be on this machine's loopback. */
  allowLoopback: boolean;
  leaseMs: number;
  deliverer: Deliverer;
}

/**
 * What the webhook routes' services need from the process (resend and the test event send at
 * once, outside the worker): built once when the routes register; `close` ends the sender's
 * connections with the app.
 */
export function webhookDeps(deps: DelivererDeps): WebhookDeps & { close(): void } {
  const deliverer = createDeliverer(deps);
  return {
    key: deps.key, lookup: deps.lookup, allowLoopback: deps.settings.allowLoopback, leaseMs: deps.settings.claimLeaseMs,
    deliverer, close: () => deliverer.close(),
  };
}

type PageQuery = { limit?: number; cursor?: string };

const invalidValue = (field: string, message: string, value?: string) =>
  invalid(field, value === undefined ? message : `"${value}" ${message}`);

export function renderEndpoint(row: repo.EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    status: row.status,
    ...(row.disabled_reason ? { disabledReason: row.disabled_reason } : {}),
    ...(row.description !== null ? { description: row.description } : {}),
    ...(row.previous_secret_sealed && row.previous_secret_expires_at && row.previous_secret_expires_at.getTime() > Date.now()
      ? { previousSecretExpiresAt: row.previous_secret_expires_at.toISOString() } : {}),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export function renderDelivery(row: repo.DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    endpointID: row.endpoint_id,
    eventID: row.event_id,
    eventType: row.event_type,
    ...(row.resource_type ? { resourceType: row.resource_type } : {}),
    ...(row.resource_id ? { resourceID: row.resource_id } : {}),
    status: row.status,
    attempts: row.attempts,
    ...(row.response_code !== null ? { responseCode: row.response_code } : {}),
    ...(row.failure_reason ? { failureReason: row.failure_reason } : {}),
    mode: row.mode,
    createdAt: row.created_at.toISOString(),
    ...(row.last_attempt_at ? { lastAttemptAt: row.last_attempt_at.toISOString() } : {}),
    ...(row.status === 'pending' && row.next_attempt_at ? { nextAttemptAt: row.next_attempt_at.toISOString() } : {}),
    ...(row.delivered_at ? { deliveredAt: row.delivered_at.toISOString() } : {}),
  };
}

/** At least one known event type, each once; the message names the first bad value. */
function checkEvents(events: string[]): EventType[] {
  if (!events.length) throw invalidValue('events', 'must list at least one event type');
  const seen = new Set<string>();
  const details: ErrorDetail[] = [];
  events.forEach((e, index) => {
    if (!isEventType(e)) details.push({ field: `events[${index}]`, message: `"${e}" is not an event type` });
    else if (seen.has(e)) details.push({ field: `events[${index}]`, message: `"${e}" is listed twice` });
    seen.add(e);
  });
  if (details.length) {
    throw invalidAll(details);
  }
  return events as EventType[];
}

async function checkUrl(url: string, principal: Principal, deps: Pick<WebhookDeps, 'lookup' | 'allowLoopback'>) {
  const verdict = await checkEndpointUrl(url, principal.mode, deps.lookup, undefined, deps.allowLoopback);
  if (!verdict.ok) throw invalidValue('url', `${verdict.reason}`, url);
}

export async function createEndpoint(db: Queryable, principal: Principal, body: { url: string; events: string[]; description?: string }, deps: Pick<WebhookDeps, 'key' | 'lookup' | 'allowLoopback'>) {
  const events = checkEvents(body.events);
  await checkUrl(body.url, principal, deps);
  const id = newId('we');
  const secret = newSigningSecret();
  const row = await repo.insertEndpoint(db, {
    brand_id: principal.brandId,
    id,
    mode: principal.mode,
    url: body.url,
    events,
    description: body.description ?? null,
    secret_sealed: sealSecret(deps.key, secret, secretContext(principal.brandId, id)),
  });
  return { ...renderEndpoint(row), signingSecret: secret };
}

export async function listEndpoints(db: Queryable, principal: Principal, query: PageQuery) {
  const page = pageRequest('webhooks', query);
  return toPage('webhooks', page, await repo.listEndpoints(db, principal.brandId, principal.mode, page), renderEndpoint);
}

async function requireEndpoint(db: Queryable, principal: Principal, id: string) {
  const row = await repo.findEndpoint(db, principal.brandId, principal.mode, id);
  if (!row) throw notFound('webhook endpoint');
  return row;
}

export async function getEndpoint(db: Queryable, principal: Principal, id: string) {
  return renderEndpoint(await requireEndpoint(db, principal, id));
}

export async function updateEndpoint(
  db: Queryable,
  principal: Principal,
  id: string,
  body: { url?: string; events?: string[]; status?: 'active' | 'disabled'; description?: string },
  deps: WebhookDeps,
) {
  await requireEndpoint(db, principal, id);
  const events = body.events === undefined ? undefined : checkEvents(body.events);
  if (body.url !== undefined) await checkUrl(body.url, principal, deps);
  const row = await repo.updateEndpoint(db, principal.brandId, principal.mode, id, { ...body, events });
  if (!row) throw notFound('webhook endpoint');
  return renderEndpoint(row);
}

/**
 * POST /webhooks/{id}/secret/roll (our addition): a new signing secret now; the old one keeps
 * signing `webhook-signature` beside it for `overlapSeconds` (default 24 h, at most 7 days, 0 to
 * stop it now). Deliveries already queued are signed when they are sent, so they carry the new
 * secret (and the old one during the overlap).
 */
export async function rollSigningSecret(tx: Queryable, principal: Principal, id: string, body: { overlapSeconds?: number }, deps: Pick<WebhookDeps, 'key'>) {
  const overlapSeconds = body.overlapSeconds ?? 86_400;
  await requireEndpoint(tx, principal, id);
  const secret = newSigningSecret();
  const row = await repo.rollSecret(tx, principal.brandId, principal.mode, id, sealSecret(deps.key, secret, secretContext(principal.brandId, id)), overlapSeconds);
  if (!row) throw notFound('webhook endpoint');
  return { signingSecret: secret, previousSecretExpiresAt: row.previous_secret_expires_at ? row.previous_secret_expires_at.toISOString() : null };
}

/** The dashboard's "reveal": the endpoint's current signing secret, for a signed-in member of the brand. */
export async function revealSigningSecret(tx: Queryable, principal: Principal, id: string, deps: Pick<WebhookDeps, 'key'>) {
  const row = await requireEndpoint(tx, principal, id);
  return { signingSecret: openSecret(deps.key, row.secret_sealed, secretContext(row.brand_id, row.id)) };
}

export async function deleteEndpoint(tx: Queryable, principal: Principal, id: string) {
  const deleted = await repo.deleteEndpoint(tx, principal.brandId, principal.mode, id);
  if (!deleted) throw notFound('webhook endpoint');
  return { id, deleted: true };
}

/** POST /webhooks/test: a realistic sample event, recorded and fanned out like a real one (to one endpoint when named). */
export async function sendTestEvent(tx: Queryable, principal: Principal, body: { eventType: string; endpointID?: string }) {
  if (!isEventType(body.eventType)) throw invalidValue('eventType', 'is not an event type', body.eventType);
  const type = body.eventType;
  if (body.endpointID !== undefined) {
    const endpoint = await repo.findEndpoint(tx, principal.brandId, principal.mode, body.endpointID);
    if (!endpoint) throw notFound('webhook endpoint');
    if (endpoint.status !== 'active') {
      throw new AppError('conflict', `Webhook endpoint ${endpoint.id} is disabled; enable it (PATCH status "active") to send it test events.`);
    }
  }
  // Recorded without announcing it, so the fan-out can aim it at the one endpoint named.
  const event = await recordEvent(tx, { brandId: principal.brandId, mode: principal.mode, type, data: sampleEventData(type), appId: appOf(principal) }, { announce: false });
  return { created: await fanOutOne(tx, event, body.endpointID) };
}

export async function listDeliveries(
  db: Queryable,
  principal: Principal,
  query: PageQuery & { status?: repo.DeliveryStatus; endpointID?: string; eventType?: string; resourceID?: string; eventID?: string },
) {
  if (query.eventType !== undefined && !isEventType(query.eventType)) {
    throw invalid('eventType', `"${query.eventType}" is not an event type`, 'query parameter');
  }
  for (const field of ['endpointID', 'resourceID', 'eventID'] as const) {
    const value = query[field];
    if (value !== undefined && !idFilterShape.test(value)) throw invalid(field, `"${value.slice(0, 80)}" is not an id`, 'query parameter');
  }
  // Each filter combination is its own list, so a cursor cannot be carried across filters; the
  // cursor names a digest of them (ids may be long), not the values.
  const filter = { status: query.status, endpointId: query.endpointID, eventType: query.eventType, resourceId: query.resourceID, eventId: query.eventID };
  const list = `deliveries:${createHash('sha256').update(JSON.stringify(filter)).digest('base64url').slice(0, 16)}`;
  const page = pageRequest(list, query);
  const rows = await repo.listDeliveries(db, principal.brandId, principal.mode, filter, page);
  return toPage(list, page, rows, renderDelivery);
}


export async function getDelivery(db: Queryable, principal: Principal, id: string): Promise<WebhookDeliveryDetail> {
  const row = await repo.findDelivery(db, principal.brandId, principal.mode, id);
  if (!row) throw notFound('webhook delivery');
  const attempts = await repo.deliveryAttempts(db, row.brand_id, row.id, row.created_at);
  return {
    ...renderDelivery(row),
    attemptLog: attempts.map((a) => ({
      number: a.number,
      attemptedAt: a.attempted_at.toISOString(),
      durationMs: a.duration_ms,
      ...(a.response_code !== null ? { responseCode: a.response_code } : {}),
      ...(a.error !== null ? { error: a.error } : {}),
      ...(a.response_body !== null ? { responseBody: a.response_body } : {}),
    })),
  };
}
