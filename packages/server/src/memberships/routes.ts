import { Type } from 'typebox';
import type { Db } from '../db/client.ts';
import type { App } from '../http/app-type.ts';
import { principalOf } from '../auth/resolve.ts';
import { Envelope, ListOf, ok } from '../http/envelope.ts';
import { Membership, MembershipListQuery } from './schemas.ts';
import * as service from './service.ts';
import * as contract from './contract.ts';

export function membershipRoutes(app: App, { db }: { db: Db }) {
  app.get('/hubs/:hubID/members', {
    schema: {
      summary: 'List hub members',
      description: 'Members of the hub in the key\'s mode, whatever their status, newest first. Our addition: filter by `email` (exact, ignoring case) and `status`.',
      tags: ['Hub members'],
      params: Type.Object({ hubID: Type.String() }),
      querystring: MembershipListQuery,
      response: { 200: Envelope(ListOf(Membership)) },
    },
    config: { operation: contract.listHubMembers, auth: { scope: 'customers:read' } },
  }, async (req) => ok('Hub members retrieved', await service.listHubMembers(db, principalOf(req), req.params.hubID, req.query)));

  app.get('/hubs/:hubID/members/:id', {
    schema: {
      summary: 'Get a hub member',
      tags: ['Hub members'],
      params: Type.Object({ hubID: Type.String(), id: Type.String({ description: 'The membership id.' }) }),
      response: { 200: Envelope(Membership) },
    },
    config: { operation: contract.getHubMember, auth: { scope: 'customers:read' } },
  }, async (req) => ok('Hub member retrieved', await service.getHubMember(db, principalOf(req), req.params.hubID, req.params.id)));

  app.get('/products/:id/customers', {
    schema: {
      summary: 'List a product\'s customers',
      description: 'The product\'s active purchasers in the key\'s mode, newest first. Our addition: filter by `email` (exact, ignoring case), and by `status` to list purchasers whose membership is no longer active.',
      tags: ['Products'],
      params: Type.Object({ id: Type.String() }),
      querystring: MembershipListQuery,
      response: { 200: Envelope(ListOf(Membership)) },
    },
    config: { operation: contract.listProductCustomers, auth: { scope: 'customers:read' } },
  }, async (req) => ok('Customers retrieved', await service.listProductCustomers(db, principalOf(req), req.params.id, req.query)));
}
