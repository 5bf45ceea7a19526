import { Type } from 'typebox';
import { principalOf } from '../auth/resolve.ts';
import type { Db } from '../db/client.ts';
import type { App } from '../http/app-type.ts';
import { Envelope, ok } from '../http/envelope.ts';
import { write } from '../http/idempotency.ts';
import { Transaction } from '../transactions/schemas.ts';
import type { FeeSettings } from '../transactions/service.ts';
import * as contract from './contract.ts';
import { setFulfilment } from './fulfilment.ts';
import { FulfilmentBody } from './schemas.ts';

/** Physical orders' fulfilment (docs/shipping.md). Our addition. */
export function shippingRoutes(app: App, { db, config }: { db: Db; config: { payouts: FeeSettings } }) {
  app.post('/transactions/:id/fulfilment', {
    schema: {
      summary: 'Set an order\'s fulfilment',
      description: 'Our addition (docs/shipping.md). Moves a paid order of a physical product one step: a delivery from `unfulfilled` to '
        + '`shipped` (with `carrier` and `trackingNumber`, optionally `trackingUrl`), a pickup from `unfulfilled` to `ready_for_pickup` '
        + 'and then to `picked_up`. Sends `order.shipped` or `order.ready_for_pickup` and emails the buyer. Refused with 409, in words, '
        + 'for any other step, an unpaid order, or a transaction with nothing to ship. A retry with the same Idempotency-Key answers the same.',
      tags: ['Transactions'],
      params: Type.Object({ id: Type.String({ description: 'The txref.' }) }),
      body: FulfilmentBody,
      response: { 200: Envelope(Transaction) },
    },
    config: { operation: contract.setTransactionFulfilment, auth: { scope: 'transactions:write' } },
  }, async (req, reply) => write(db, req, reply, (tx) => setFulfilment(tx, principalOf(req), req.params.id, req.body, config.payouts), 'Fulfilment updated'));
}
