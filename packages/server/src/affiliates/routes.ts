import { Type } from 'typebox';
import type { Db } from '../db/client.ts';
import type { App } from '../http/app-type.ts';
import { principalOf } from '../auth/resolve.ts';
import { Envelope, ListOf, ok } from '../http/envelope.ts';
import { write } from '../http/idempotency.ts';
import type { CommissionSettings } from './commissions.ts';
import { Affiliate, AffiliateCreateBody, AffiliateListQuery, AffiliateUpdateBody } from './schemas.ts';
import * as service from './service.ts';
import * as contract from './contract.ts';

const Id = Type.Object({ id: Type.String({ description: 'The affiliate id (`aff_…`).' }) });
// Affiliates are part of what a brand sells through (like its catalog): managed with products:write;
// their sales and commissions are read with products:read or transactions:read.
const read = { auth: { scope: ['products:read', 'transactions:read'] as ('products:read' | 'transactions:read')[] } };
const edit = { auth: { scope: 'products:write' as const } };

/** Our addition: affiliates and their commissions (docs/affiliates.md). Mode-scoped, like payment links. */
export function affiliateRoutes(app: App, { db, config }: { db: Db; config: { payouts: CommissionSettings } }) {
  const settings = config.payouts;
  app.post('/affiliates', {
    schema: {
      summary: 'Create an affiliate',
      description: 'Our addition. Someone who earns a commission on the sales they bring: a payment link naming their `code` in '
        + '`items[].affiliate`, or a checkout link opened with `?ref=CODE`. The commission is a percent of the payment\'s net, held for '
        + 'AFFILIATE_HOLD (default 30 days; refunds within it claw it back), then earned and deducted from your payouts. Test keys make test affiliates.',
      tags: ['Affiliates'],
      body: AffiliateCreateBody,
      response: { 200: Envelope(Affiliate) },
    },
    config: { ...edit, operation: contract.createAffiliate },
  }, async (req, reply) => write(db, req, reply, (tx) => service.createAffiliate(tx, principalOf(req), req.body, settings), 'Affiliate created'));

  app.get('/affiliates', {
    schema: {
      summary: 'List affiliates',
      description: 'Our addition. The affiliates of this mode with their sales and commissions, newest first; `status` keeps one status.',
      tags: ['Affiliates'],
      querystring: AffiliateListQuery,
      response: { 200: Envelope(ListOf(Affiliate)) },
    },
    config: { ...read, operation: contract.listAffiliates },
  }, async (req) => ok('Affiliates retrieved', await service.listAffiliates(db, principalOf(req), req.query, settings)));

  app.get('/affiliates/:id', {
    schema: {
      summary: 'Get an affiliate',
      description: 'Our addition. One affiliate with, per currency, the sales attributed to it and its commission pending (in the hold), earned and paid out.',
      tags: ['Affiliates'],
      params: Id,
      response: { 200: Envelope(Affiliate) },
    },
    config: { ...read, operation: contract.getAffiliate },
  }, async (req) => ok('Affiliate retrieved', await service.getAffiliate(db, principalOf(req), req.params.id, settings)));

  app.patch('/affiliates/:id', {
    schema: {
      summary: 'Update an affiliate',
      description: 'Our addition. Changes the fields sent. A new percent applies to sales from now on (commissions already recorded keep theirs); '
        + '`status: archived` stops its code attributing new sales (renewals included) and keeps what it earned.',
      tags: ['Affiliates'],
      params: Id,
      body: AffiliateUpdateBody,
      response: { 200: Envelope(Affiliate) },
    },
    config: { ...edit, operation: contract.updateAffiliate },
  }, async (req, reply) => write(db, req, reply, (tx) => service.updateAffiliate(tx, principalOf(req), req.params.id, req.body, settings), 'Affiliate updated'));
}
