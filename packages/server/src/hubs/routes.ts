import { Type } from 'typebox';
import type { CatalogCache } from '../catalog-cache/cache.ts';
import { cachedAnswer, pageKey } from '../catalog-cache/cached-answer.ts';
import type { Db } from '../db/client.ts';
import { PageQuery } from '../db/paging.ts';
import { principalOf } from '../auth/resolve.ts';
import type { App } from '../http/app-type.ts';
import { Envelope, ListOf, ok } from '../http/envelope.ts';
import { write } from '../http/idempotency.ts';
import { Hub, HubCreateBody, HubSummary, HubUpdateBody } from './schemas.ts';
import * as service from './service.ts';
import * as contract from './contract.ts';

const Id = Type.Object({ id: Type.String() });
const read = { auth: { scope: 'products:read' as const } };
const edit = { auth: { scope: 'products:write' as const } };
const shared = 'Hubs are part of the catalog, which test and live mode share: a test key with products:write edits the hub live buyers see.';

/** Our additions: hubs and their membership tiers (docs/catalog.md). */
export function hubRoutes(app: App, { db, catalogCache }: { db: Db; catalogCache: CatalogCache }) {
  app.get('/hubs', {
    schema: {
      summary: 'List hubs',
      description: 'The brand\'s hubs, newest first, without their tiers (GET /hubs/{id} has them). Shared by test and live mode.',
      tags: ['Hubs'],
      querystring: PageQuery,
      response: { 200: Envelope(ListOf(HubSummary)) },
    },
    config: { ...read, operation: contract.listHubs },
  }, async (req, reply) => cachedAnswer(catalogCache, req, reply, pageKey('hubs', req.query),
    async () => ok('Hubs retrieved', await service.listHubs(db, principalOf(req), req.query))));

  app.get('/hubs/:id', {
    schema: {
      summary: 'Get a hub',
      description: 'One hub with its membership tiers (its plans), archived ones included.',
      tags: ['Hubs'],
      params: Id,
      response: { 200: Envelope(Hub) },
    },
    config: { ...read, operation: contract.getHub },
  }, async (req, reply) => cachedAnswer(catalogCache, req, reply, `hub/${req.params.id}`,
    async () => ok('Hub retrieved', await service.getHub(db, principalOf(req), req.params.id))));

  app.post('/hubs', {
    schema: {
      summary: 'Create a hub',
      description: `A hub with its membership tiers, checked by the rules of catalog files. ${shared}`,
      tags: ['Hubs'],
      body: HubCreateBody,
      response: { 200: Envelope(Hub) },
    },
    config: { ...edit, operation: contract.createHub },
  }, async (req, reply) => write(db, req, reply, (tx) => service.createHub(tx, principalOf(req), req.body), 'Hub created'));

  app.patch('/hubs/:id', {
    schema: {
      summary: 'Update a hub',
      description: 'Changes the fields sent and leaves the others. `tiers`, when sent, is the whole list: an entry with an id updates that tier, '
        + `one without adds a tier, and a tier left out is deleted, or archived if anyone ever joined or bought on it. ${shared}`,
      tags: ['Hubs'],
      params: Id,
      body: HubUpdateBody,
      response: { 200: Envelope(Hub) },
    },
    config: { ...edit, operation: contract.updateHub },
  }, async (req, reply) => write(db, req, reply, (tx) => service.updateHub(tx, principalOf(req), req.params.id, req.body), 'Hub updated'));
}
