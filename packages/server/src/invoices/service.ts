import type { Principal } from '../auth/principal.ts';
import { addressLines } from '../brands/profile.ts';
import { findProfile } from '../brands/repository.ts';
import type { Queryable } from '../db/client.ts';
import { notFound } from '../errors.ts';
import { purchaseOf } from '../mail/facts.ts';
import { findSettings } from '../mail/repository.ts';
import { findByTxref } from '../transactions/repository.ts';
import type { InvoiceFacts } from './document.ts';
import { findInvoiceByTxref, invoiceLabel } from './repository.ts';

/**
 * The invoice of a succeeded transaction (numbered when it succeeded, event-mail.ts), as
 * the facts its documents print. Another brand's, the other mode's, or a transaction that has
 * not succeeded answers 404.
 */
export async function invoiceFacts(db: Queryable, principal: Principal, txref: string): Promise<InvoiceFacts> {
  const t = await findByTxref(db, principal.brandId, principal.mode, txref);
  const invoice = t ? await findInvoiceByTxref(db, principal.brandId, txref) : undefined;
  if (!t || !invoice) throw notFound('invoice for a transaction');
  const brand = await findProfile(db, t.brand_id);
  const settings = await findSettings(db, t.brand_id);
  const bought = await purchaseOf(db, t);
  return {
    number: invoiceLabel(invoice),
    issuedAt: invoice.issued_at,
    brand: {
      name: brand?.display_name ?? brand?.name ?? '', replyTo: settings?.reply_to ?? null,
      address: brand?.postal_address ? addressLines(brand.postal_address) : [], taxNumber: brand?.tax_id ?? null,
    },
    buyer: { name: t.customer_name, email: t.customer_email },
    txref: t.txref,
    lines: bought.lines.length ? bought.lines : [{ description: bought.item, amount: t.amount }],
    total: t.amount,
    currency: t.currency,
    status: t.status,
    test: t.mode === 'test',
  };
}
