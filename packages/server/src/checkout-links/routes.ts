import { Type } from 'typebox';
import type { Db } from '../db/client.ts';
import type { App } from '../http/app-type.ts';
import { principalOf } from '../auth/resolve.ts';
import { Envelope, ListOf, ok } from '../http/envelope.ts';
import { write } from '../http/idempotency.ts';
import { CheckoutLink, CheckoutLinkCreateBody, CheckoutLinkUpdateBody } from './schemas.ts';
import * as service from './service.ts';
import * as contract from './contract.ts';

const Id = Type.Object({ id: Type.String() });
// Reading a link shows its sales: the scopes that read transactions or make checkouts both fit.
const read = { auth: { scope: ['checkout:write', 'transactions:read'] as ('checkout:write' | 'transactions:read')[] } };
const edit = { auth: { scope: 'checkout:write' as const } };

/** Our addition: reusable checkout links (docs/checkout.md, "Checkout links"). Mode-scoped, like payment links. */
export function checkoutLinkRoutes(app: App, { db, config }: { db: Db; config: { publicUrl: string } }) {
  const { publicUrl } = config;
  app.post('/checkout-links', {
    schema: {
      summary: 'Create a checkout link',
      description: 'Our addition. A checkout page to share once (a bio, a QR code) that any number of buyers open, fill in and pay. '
        + 'Names one or more tiers (the buyer picks one), with an optional expiry and total sales cap. Each buyer\'s form makes a payment '
        + 'link by the same rules as POST /payment-links. Test keys make test links (sandbox cards).',
      tags: ['Checkout'],
      body: CheckoutLinkCreateBody,
      response: { 200: Envelope(CheckoutLink) },
    },
    config: { ...edit, operation: contract.createCheckoutLink },
  }, async (req, reply) => write(db, req, reply, (tx) => service.createCheckoutLink(tx, principalOf(req), req.body, publicUrl), 'Checkout link created'));

  app.get('/checkout-links', {
    schema: {
      summary: 'List checkout links',
      description: 'Our addition. The checkout links of this mode, newest first; `tier` keeps those naming one tier.',
      tags: ['Checkout'],
      querystring: Type.Object({
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Page size, 1 to 100 (default 20).' })),
        cursor: Type.Optional(Type.String({ description: '`nextCursor` of the previous page.' })),
        tier: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only links naming this tier id.' })),
      }),
      response: { 200: Envelope(ListOf(CheckoutLink)) },
    },
    config: { ...read, operation: contract.listCheckoutLinks },
  }, async (req) => ok('Checkout links retrieved', await service.listCheckoutLinks(db, principalOf(req), req.query, publicUrl)));

  app.get('/checkout-links/:id', {
    schema: {
      summary: 'Get a checkout link',
      description: 'Our addition. One checkout link with its completed sales.',
      tags: ['Checkout'],
      params: Id,
      response: { 200: Envelope(CheckoutLink) },
    },
    config: { ...read, operation: contract.getCheckoutLink },
  }, async (req) => ok('Checkout link retrieved', await service.getCheckoutLink(db, principalOf(req), req.params.id, publicUrl)));

  app.patch('/checkout-links/:id', {
    schema: {
      summary: 'Update a checkout link',
      description: 'Our addition. Changes the fields sent (`null` clears one): disable it (`status: disabled`), move its expiry, '
        + 'change its cap (not below the sales made or under way) or its tiers. Buyers already paying are not affected.',
      tags: ['Checkout'],
      params: Id,
      body: CheckoutLinkUpdateBody,
      response: { 200: Envelope(CheckoutLink) },
    },
    config: { ...edit, operation: contract.updateCheckoutLink },
  }, async (req, reply) => write(db, req, reply, (tx) => service.updateCheckoutLink(tx, principalOf(req), req.params.id, req.body, publicUrl), 'Checkout link updated'));
}
