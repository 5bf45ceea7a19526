import type { Mode } from '../auth/principal.ts';
import type { Queryable } from '../db/client.ts';

export interface InvoiceRow {
  brand_id: string;
  mode: Mode;
  number: number;
  transaction_id: string;
  txref: string;
  issued_at: Date;
}

/**
 * Gives a succeeded transaction the brand's next invoice number, in the payment's transaction.
 * The counter row is locked by the UPDATE until that transaction ends, so concurrent payments of
 * one brand take numbers one after another, and a payment that rolls back takes its number back
 * with it: no gap, no duplicate. A transaction that already has a number keeps it.
 */
export async function assignInvoiceNumber(tx: Queryable, t: { brandId: string; mode: Mode; transactionId: string; txref: string }): Promise<InvoiceRow> {
  const [existing] = await tx.query<InvoiceRow>('SELECT * FROM invoices WHERE brand_id = $1 AND transaction_id = $2', [t.brandId, t.transactionId]);
  if (existing) return existing;
  const [row] = await tx.query<InvoiceRow>(
    `WITH n AS (
       INSERT INTO invoice_counters (brand_id, mode, last) VALUES ($1, $2, 1)
       ON CONFLICT (brand_id, mode) DO UPDATE SET last = invoice_counters.last + 1
       RETURNING last
     )
     INSERT INTO invoices (brand_id, mode, number, transaction_id, txref)
     SELECT $1, $2, last, $3, $4 FROM n
     RETURNING *`,
    [t.brandId, t.mode, t.transactionId, t.txref],
  );
  return row;
}

export async function findInvoiceByTxref(db: Queryable, brandId: string, txref: string): Promise<InvoiceRow | undefined> {
  const [row] = await db.query<InvoiceRow>('SELECT * FROM invoices WHERE brand_id = $1 AND txref = $2', [brandId, txref]);
  return row;
}

/** "INV-0042": the number as printed (test-mode invoices say so). */
export const invoiceLabel = (row: Pick<InvoiceRow, 'number' | 'mode'>) => `${row.mode === 'test' ? 'TEST-' : ''}INV-${String(row.number).padStart(4, '0')}`;
