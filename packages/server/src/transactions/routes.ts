import { Type } from 'typebox';
import type { Db } from '../db/client.ts';
import type { App } from '../http/app-type.ts';
import { principalOf } from '../auth/resolve.ts';
import { Envelope, ListOf, ok } from '../http/envelope.ts';
import { write, writeFlow } from '../http/idempotency.ts';
import type { PaymentProviders } from '../payments/providers.ts';
import { refundTransaction } from './flows.ts';
import { closeTestDispute } from './disputes.ts';
import { DisputeCloseBody, RefundBody, Transaction, TransactionListQuery, TransactionTotals, TransactionTotalsQuery } from './schemas.ts';
import * as service from './service.ts';
import type { FeeSettings } from './service.ts';
import * as contract from './contract.ts';

export function transactionRoutes(app: App, { db, payments, config }: { db: Db; payments: PaymentProviders; config: { payouts: FeeSettings } }) {
  const fees = config.payouts;
  app.get('/transactions', {
    schema: {
      summary: 'List transactions',
      description: 'Payment attempts in the key\'s mode, newest first. Our addition: the filters `status`, `resourceID`, '
        + '`createdFrom`, `createdBefore` and `q` (txref, or part of the customer\'s email), all optional and combined.',
      tags: ['Transactions'],
      querystring: TransactionListQuery,
      response: { 200: Envelope(ListOf(Transaction)) },
    },
    config: { operation: contract.listTransactions, auth: { scope: 'transactions:read' } },
  }, async (req) => ok('Transactions retrieved', await service.listTransactions(db, principalOf(req), req.query, fees)));

  app.get('/transactions/totals', {
    schema: {
      summary: 'Add up transactions',
      description: 'Our addition. What the transactions selected by the same filters as GET /transactions add up to, '
        + 'per currency (never added together): how many, how many were paid, what they took and what refunds gave back.',
      tags: ['Transactions'],
      querystring: TransactionTotalsQuery,
      response: { 200: Envelope(TransactionTotals) },
    },
    config: { operation: contract.getTransactionTotals, auth: { scope: 'transactions:read' } },
  }, async (req) => ok('Totals retrieved', await service.transactionTotals(db, principalOf(req), req.query)));

  app.get('/transactions/:id', {
    schema: {
      summary: 'Get a transaction',
      tags: ['Transactions'],
      params: Type.Object({ id: Type.String({ description: 'The txref.' }) }),
      response: { 200: Envelope(Transaction) },
    },
    config: { operation: contract.getTransaction, auth: { scope: 'transactions:read' } },
  }, async (req) => ok('Transaction retrieved', await service.getTransaction(db, principalOf(req), req.params.id, fees)));

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
  }, async (req, reply) => write(db, req, reply, async (tx) => service.renderTransaction(
    await closeTestDispute(tx, principalOf(req), req.params.id, req.body.outcome), fees), 'Sandbox dispute closed'));
}
