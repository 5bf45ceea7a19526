/**
 * What the OpenAPI document and the MCP tool list say about this folder's operations beyond their
 * schemas (http/operation.ts): each route passes its entry as `config.operation`.
 */
import { readTool, type Operation } from '../http/operation.ts';

/** GET /transactions */
export const listTransactions: Operation = {
  id: 'listTransactions',
  sdk: 'const page = await client.transactions.list({ limit: 20 });\nconsole.log(page.items, page.hasMore, page.nextCursor);',
  mcp: {
    name: 'list_transactions',
    description: 'List transactions, newest first (page with cursor; filter by status, product or hub id, created dates, or search by txref or email). For the orders still to ship or hand over, oldest first: status=succeeded, fulfilment=unfulfilled, order=oldest.',
    ...readTool
  }
};

/** GET /transactions/totals */
export const getTransactionTotals: Operation = {
  id: 'getTransactionTotals',
  sdk: "const { items } = await client.transactions.totals({ status: 'succeeded', createdFrom: '2026-11-01T00:00:00Z' });",
  mcp: {
    name: 'get_transaction_totals',
    description: 'Add up transactions per currency (how many, paid, refunded), filtered like list_transactions by status, product or hub, dates and search.',
    ...readTool
  }
};

/** GET /transactions/{id} */
export const getTransaction: Operation = {
  id: 'getTransaction',
  sdk: "const transaction = await client.transactions.get('tx_…');",
  mcp: { name: 'get_transaction', description: 'Get one transaction by its txref.', ...readTool }
};
