import { Type } from 'typebox';
import type { Db } from '../db/client.ts';
import { PageQuery } from '../db/paging.ts';
import type { App } from '../http/app-type.ts';
import { principalOf } from '../auth/resolve.ts';
import { Envelope, ListOf, ok } from '../http/envelope.ts';
import { Payout, PayoutDetail } from './schemas.ts';
import * as service from './service.ts';
import * as contract from './contract.ts';

export function payoutRoutes(app: App, { db }: { db: Db }) {
  app.get('/payouts', {
    schema: {
      summary: 'List payouts',
      description: 'Our addition (docs/payouts.md). Settled payouts in the key\'s mode, newest first: one per currency per payout run.',
      tags: ['Payouts'],
      querystring: PageQuery,
      response: { 200: Envelope(ListOf(Payout)) },
    },
    config: { operation: contract.listPayouts, auth: { scope: 'transactions:read' } },
  }, async (req) => ok('Payouts retrieved', await service.listPayouts(db, principalOf(req), req.query)));

  app.get('/payouts/:id', {
    schema: {
      summary: 'Get a payout',
      description: 'Our addition (docs/payouts.md). With its `lines`: every payment, platform fee, refund and affiliate commission in it; their amounts add up to the payout\'s `amount` to the cent.',
      tags: ['Payouts'],
      params: Type.Object({ id: Type.String({ description: 'The payout id (`po_…`).' }) }),
      response: { 200: Envelope(PayoutDetail) },
    },
    config: { operation: contract.getPayout, auth: { scope: 'transactions:read' } },
  }, async (req) => ok('Payout retrieved', await service.getPayout(db, principalOf(req), req.params.id)));
}
