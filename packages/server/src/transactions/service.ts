import type { Queryable } from '../db/client.ts';
import { pageRequest, toPage } from '../db/paging.ts';
import { notFound } from '../errors.ts';
import type { Principal } from '../auth/principal.ts';
import { toMajor } from '../money.ts';
import { versionOf } from '../object-version.ts';
import * as repo from './repository.ts';
import type { Transaction } from './schemas.ts';

export function renderTransaction(row: repo.TransactionRow): Transaction {
  return {
    txref: row.txref,
    type: row.type,
    status: row.status,
    amount: toMajor(row.amount, row.currency),
    currency: row.currency,
    customer: { name: row.customer_name, email: row.customer_email },
    createdAt: row.created_at.toISOString(),
    ...(row.resource_id ? { resourceID: row.resource_id } : {}),
    metadata: row.metadata,
    ...(row.attribution && Object.keys(row.attribution).length ? { attribution: row.attribution } : {}),
    ...versionOf(row),
  };
}

export async function listTransactions(db: Queryable, principal: Principal, query: { limit?: number; cursor?: string }) {
  const page = pageRequest('transactions', query);
  const rows = await repo.listTransactions(db, principal.brandId, principal.mode, page);
  return toPage('transactions', page, rows, renderTransaction);
}

/** A transaction of the principal's brand and mode; anything else is not_found, never forbidden. */
export async function getTransaction(db: Queryable, principal: Principal, txref: string) {
  const row = await repo.findByTxref(db, principal.brandId, principal.mode, txref);
  if (!row) throw notFound('transaction');
  return renderTransaction(row);
}
