import { Type } from 'typebox';
import type { Db } from '../db/client.ts';
import { PageQuery } from '../db/paging.ts';
import type { App } from '../http/app-type.ts';
import { principalOf } from '../auth/resolve.ts';
import { Envelope, ListOf, ok } from '../http/envelope.ts';
import { Transaction } from './schemas.ts';
import * as service from './service.ts';

export function transactionRoutes(app: App, { db }: { db: Db }) {
  app.get('/transactions', {
    schema: {
      summary: 'List transactions',
      description: 'Payment attempts in the key\'s mode, newest first.',
      tags: ['Transactions'],
      querystring: PageQuery,
      response: { 200: Envelope(ListOf(Transaction)) },
    },
    config: { auth: { scope: 'transactions:read' } },
  }, async (req) => ok('Transactions retrieved', await service.listTransactions(db, principalOf(req), req.query)));

  app.get('/transactions/:id', {
    schema: {
      summary: 'Get a transaction',
      tags: ['Transactions'],
      params: Type.Object({ id: Type.String({ description: 'The txref.' }) }),
      response: { 200: Envelope(Transaction) },
    },
    config: { auth: { scope: 'transactions:read' } },
  }, async (req) => ok('Transaction retrieved', await service.getTransaction(db, principalOf(req), req.params.id)));
}
