import { Type } from 'typebox';
import { principalOf } from '../auth/resolve.ts';
import type { Db } from '../db/client.ts';
import type { App } from '../http/app-type.ts';
import { invoiceHtml, invoicePdf } from './document.ts';
import { invoiceFacts } from './service.ts';
import * as contract from './contract.ts';

/**
 * Our addition (docs/email.md, Invoices): a succeeded transaction's invoice as a PDF, or as a
 * printable HTML page with `?format=html`.
 */
export function invoiceRoutes(app: App, { db }: { db: Db }) {
  app.get('/transactions/:id/invoice', {
    schema: {
      summary: 'Get a transaction\'s invoice',
      description: 'Our addition (docs/email.md). The invoice of a succeeded transaction, numbered per brand and mode without gaps '
        + '(`INV-0001`, `TEST-INV-0001` in test mode): a PDF, or a printable HTML page with `format=html`. 404 for a transaction that has not succeeded.',
      tags: ['Transactions'],
      params: Type.Object({ id: Type.String({ description: 'The txref.' }) }),
      querystring: Type.Object({ format: Type.Optional(Type.Union([Type.Literal('pdf'), Type.Literal('html')], { description: '`pdf` (default) or `html`.' })) }),
      response: {
        200: {
          description: 'The invoice document.',
          content: {
            // Bytes, not JSON: Fastify sends a Buffer as it is, without serialising it.
            'application/pdf': { schema: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }) },
            'text/html': { schema: Type.String() },
          },
        },
      },
    },
    config: { operation: contract.getTransactionInvoice, auth: { scope: 'transactions:read' } },
  }, async (req, reply) => {
    const facts = await invoiceFacts(db, principalOf(req), req.params.id);
    const name = `invoice-${facts.number}`;
    reply.header('cache-control', 'private, no-store');
    if (req.query.format === 'html') {
      return reply.type('text/html; charset=utf-8')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
        .send(invoiceHtml(facts));
    }
    return reply.type('application/pdf').header('content-disposition', `inline; filename="${name}.pdf"`).send(Buffer.from(await invoicePdf(facts)));
  });
}
