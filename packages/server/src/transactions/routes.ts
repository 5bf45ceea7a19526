import { Type } from 'typebox';
import type { Db } from '../db/client.ts';
import type { App } from '../http/app-type.ts';
import { principalOf } from '../auth/resolve.ts';
import { Envelope, ListOf, ok } from '../http/envelope.ts';
import type { PaymentProviders } from '../payments/providers.ts';
import { Transaction, TransactionListQuery, TransactionTotals, TransactionTotalsQuery } from './schemas.ts';
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
}
