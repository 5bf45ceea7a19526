import { createHash } from 'node:crypto';
import { Type } from 'typebox';
import type { Db } from '../db/client.ts';
import { PageQuery, pageRequest, toPage } from '../db/paging.ts';
import type { App } from '../http/app-type.ts';
import { principalOf } from '../auth/resolve.ts';
import { Envelope, ListOf, ok } from '../http/envelope.ts';
import { invalid, notFound } from '../errors.ts';
import { findEvent, listEvents, type EventRow } from './repository.ts';
import { isEventType } from './types.ts';
import { idFilterShape } from '../ids.ts';

/**
 * GET /events and GET /events/{id}: our addition to the reference. The events themselves, in the
 * delivery body's shape, so a receiver that was down can reconcile from one list instead of
 * resending deliveries one by one. Mode-scoped, newest first, kept at least 30 days.
 */
export const Event = Type.Object({
  id: Type.String(),
  type: Type.String(),
  created: Type.String({ format: 'date-time' }),
  data: Type.Record(Type.String(), Type.Unknown(), { description: 'What the event is about: a Transaction, a Membership record or a payout.' }),
  appId: Type.Optional(Type.String({ description: 'Our addition: the OAuth app (its client id) the event came about through, e.g. the payment of a link the app created. Absent otherwise, so such an event is exactly its delivery body; deliveries never carry it.' })),
}, { $id: 'Event' });

const render = (r: EventRow) => ({ id: r.id, type: r.type, created: r.created_at.toISOString(), data: r.data, ...(r.app_id ? { appId: r.app_id } : {}) });

export function eventRoutes(app: App, { db }: { db: Db }) {
  app.get('/events', {
    schema: {
      summary: 'List events',
      description: 'Our addition to the reference: every event of the key\'s mode, newest first, in the webhook body\'s shape, kept at least 30 days. Filter by `type` and `resourceID`; an event\'s deliveries are `GET /webhooks/deliveries?eventID=…`.',
      tags: ['Webhooks'],
      querystring: Type.Object({
        ...PageQuery.properties,
        type: Type.Optional(Type.String({ description: 'Only events of this type.' })),
        resourceID: Type.Optional(Type.String({ description: 'Only events about this resource: a txref, membership id or payout id.' })),
      }),
      response: { 200: Envelope(ListOf(Event)) },
    },
    config: { auth: { scope: 'webhooks:write' } },
  }, async (req) => {
    const p = principalOf(req);
    const { type, resourceID } = req.query;
    if (type !== undefined && !isEventType(type)) {
      throw invalid('type', `"${type}" is not an event type`, 'query parameter');
    }
    if (resourceID !== undefined && !idFilterShape.test(resourceID)) {
      throw invalid('resourceID', `"${resourceID.slice(0, 80)}" is not an id`, 'query parameter');
    }
    // A cursor belongs to one combination of filters; the list name carries a digest of them.
    const list = `events:${createHash('sha256').update(JSON.stringify([type, resourceID])).digest('base64url').slice(0, 16)}`;
    const page = pageRequest(list, req.query);
    return ok('Events retrieved', toPage(list, page, await listEvents(db, p.brandId, p.mode, { type, resourceId: resourceID }, page), render));
  });

  app.get('/events/:id', {
    schema: {
      summary: 'Get an event',
      description: 'Our addition to the reference: one event, exactly as its webhook deliveries carry it. Its deliveries: `GET /webhooks/deliveries?eventID={id}`.',
      tags: ['Webhooks'],
      params: Type.Object({ id: Type.String() }),
      response: { 200: Envelope(Event) },
    },
    config: { auth: { scope: 'webhooks:write' } },
  }, async (req) => {
    const p = principalOf(req);
    const row = await findEvent(db, p.brandId, p.mode, req.params.id);
    if (!row) throw notFound('event');
    return ok('Event retrieved', render(row));
  });
}
