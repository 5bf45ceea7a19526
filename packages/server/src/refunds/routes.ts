import { Type } from 'typebox';
import type { Db } from '../db/client.ts';
import type { App } from '../http/app-type.ts';
import { principalOf } from '../auth/resolve.ts';
import { Envelope } from '../http/envelope.ts';
import { write, writeFlow } from '../http/idempotency.ts';
import type { PaymentProviders } from '../payments/providers.ts';
import { DisputeCloseBody, RefundBody, Transaction } from '../transactions/schemas.ts';
import * as transactions from '../transactions/service.ts';
import type { FeeSettings } from '../transactions/service.ts';
import { closeTestDispute } from './disputes.ts';
import { refundTransaction } from './flows.ts';
import * as contract from './contract.ts';

/** Refunds and disputes of a transaction (docs/refunds.md); app.ts registers them right after the transaction routes. */
export function refundRoutes(app: App, { db, payments, config }: { db: Db; payments: PaymentProviders; config: { payouts: FeeSettings } }) {
  const fees = config.payouts;
  app.post('/transactions/:id/refund', {
    schema: {
      summary: 'Refund a transaction',
      description: 'Our addition (docs/refunds.md). Gives money back to the buyer through the provider that took the payment: all '
        + 'that is left, or `amount` of it (several partial refunds may follow one another up to the amount paid). Sends '
        + '`transaction.refunded`. A refund that gives back all that is left ends the access the payment bought (memberships '
        + '`removed` with `member.removed`, a subscription cancelled) unless `revokeAccess` is false; a partial one does not unless '
        + 'it is true. Refused with 409 when the payment has not succeeded, is already fully refunded, or the provider refuses; 400 '
        + 'naming `amount` when it is more than is left. A retry with the same Idempotency-Key never refunds twice.',
      tags: ['Transactions'],
      params: Type.Object({ id: Type.String({ description: 'The txref.' }) }),
      body: RefundBody,
      response: { 200: Envelope(Transaction) },
    },
    config: { operation: contract.refundTransaction, auth: { scope: 'transactions:write' } },
  }, async (req, reply) => writeFlow(db, req, reply, () => refundTransaction(db, payments, principalOf(req), req.params.id, req.body ?? {}, fees), 'Refund made'));

  app.post('/test/transactions/:id/dispute/close', {
    schema: {
      summary: 'Close a sandbox dispute',
      description: 'Our addition, test keys only (docs/refunds.md, Disputes in the sandbox). Decides the dispute a payment with test card '
        + '4000 0000 0000 0259 opened, as the buyer\'s bank would: `won` changes nothing else; `lost` is a refund of the disputed '
        + 'amount (`transaction.refunded`, access ended). Sends `transaction.disputed` with the dispute closed, as Stripe\'s '
        + '`charge.dispute.closed` does for a live payment. 409 when the transaction is not disputed or the dispute is already '
        + 'closed; 404 for a live key (a live dispute is decided by the bank and reported by Stripe).',
      tags: ['Test helpers'],
      params: Type.Object({ id: Type.String({ description: 'The txref.' }) }),
      body: DisputeCloseBody,
      response: { 200: Envelope(Transaction) },
    },
    config: { operation: contract.closeTestDispute, auth: { scope: 'transactions:write' } },
  }, async (req, reply) => write(db, req, reply, async (tx) => transactions.renderTransaction(
    await closeTestDispute(tx, principalOf(req), req.params.id, req.body.outcome), fees), 'Sandbox dispute closed'));
}
