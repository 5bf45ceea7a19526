import type { Queryable } from '../db/client.ts';
import { afterCursor, type PageRequest } from '../db/paging.ts';
import type { Mode } from '../auth/principal.ts';

export interface TransactionRow {
  brand_id: string;
  id: string;
  txref: string;
  mode: Mode;
  type: string;
  status: string;
  amount: number;
  currency: string;
  customer_name: string;
  customer_email: string;
  resource_id: string | null;
  metadata: Record<string, string>;
  created_at: Date;
  updated_at: Date;
}

export type NewTransaction = Omit<TransactionRow, 'created_at' | 'updated_at'>;

export async function insertTransaction(db: Queryable, t: NewTransaction): Promise<TransactionRow> {
  const [row] = await db.query<TransactionRow>(
    `INSERT INTO transactions (brand_id, id, txref, mode, type, status, amount, currency, customer_name, customer_email, resource_id, metadata)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING *`,
    [t.brand_id, t.id, t.txref, t.mode, t.type, t.status, t.amount, t.currency, t.customer_name, t.customer_email, t.resource_id, t.metadata],
  );
  return row;
}

export function listTransactions(db: Queryable, brandId: string, mode: Mode, page: PageRequest) {
  const after = afterCursor(page, 4);
  return db.query<TransactionRow>(
    `SELECT * FROM transactions
     WHERE brand_id = $1 AND mode = $2 ${after.sql}
     ORDER BY created_at DESC, id DESC
     LIMIT $3`,
    [brandId, mode, page.limit + 1, ...after.params],
  );
}

export async function findByTxref(db: Queryable, brandId: string, mode: Mode, txref: string) {
  const [row] = await db.query<TransactionRow>(
    'SELECT * FROM transactions WHERE brand_id = $1 AND mode = $2 AND txref = $3',
    [brandId, mode, txref],
  );
  return row;
}
