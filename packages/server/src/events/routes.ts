import { Type } from 'typebox';
import type { Db } from '../db/client.ts';
import { PageQuery } from '../db/paging.ts';
import type { App } from '../http/app-type.ts';
import { principalOf } from '../auth/resolve.ts';
import { Envelope, ListOf, ok } from '../http/envelope.ts';
import { Event } from './schemas.ts';
import { getEvent, listEventsFor } from './service.ts';
import * as contract from './contract.ts';

/**
 * GET /events and GET /events/{id}: our addition to the reference. The events themselves, in the
 * delivery body's shape, so a receiver that was down can reconcile from one list instead of
 * resending deliveries one by one. Mode-scoped, newest first, kept at least 30 days.
 */
export function eventRoutes(app: App, { db }: { db: Db }) {
  app.get('/events', {
    schema: {
      summary: 'List events',
      description: 'Our addition to the reference: every event of the key\'s mode, newest first, in the webhook body\'s shape, kept at least 30 days. Filter by `type` and `resourceID`; an event\'s deliveries are `GET /webhooks/deliveries?eventID=…`.',
      tags: ['Events'],
      querystring: Type.Object({
        ...PageQuery.properties,
        type: Type.Optional(Type.String({ description: 'Only events of this type.' })),
        resourceID: Type.Optional(Type.String({ description: 'Only events about this resource: a txref, membership id or payout id.' })),
      }),
      response: { 200: Envelope(ListOf(Event)) },
    },
    config: { operation: contract.listEvents, auth: { scope: 'webhooks:write' } },
  }, async (req) => ok('Events retrieved', await listEventsFor(db, principalOf(req), req.query)));

  app.get('/events/:id', {
    schema: {
      summary: 'Get an event',
      description: 'Our addition to the reference: one event, exactly as its webhook deliveries carry it. Its deliveries: `GET /webhooks/deliveries?eventID={id}`.',
      tags: ['Events'],
      params: Type.Object({ id: Type.String() }),
      response: { 200: Envelope(Event) },
    },
    config: { operation: contract.getEvent, auth: { scope: 'webhooks:write' } },
  }, async (req) => ok('Event retrieved', await getEvent(db, principalOf(req), req.params.id)));
}
