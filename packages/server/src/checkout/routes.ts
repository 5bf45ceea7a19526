import type { Db } from '../db/client.ts';
import type { PaymentProviders } from '../payments/providers.ts';
import type { App } from '../http/app-type.ts';
import { principalOf } from '../auth/resolve.ts';
import { Envelope } from '../http/envelope.ts';
import { write, writeFlow } from '../http/idempotency.ts';
import { Transaction } from '../transactions/schemas.ts';
import { PaymentLink, PaymentLinkBody, VerifyBody } from './schemas.ts';
import { verifyPayment } from './flows.ts';
import * as service from './service.ts';
import * as contract from './contract.ts';

export function checkoutRoutes(app: App, deps: { db: Db; config: { publicUrl: string }; payments: PaymentProviders }) {
  const { db } = deps;
  app.post('/payment-links', {
    schema: {
      summary: 'Create a payment link',
      description: 'Prepares a checkout for one buyer and returns the hosted checkout page to send them to. The amount is computed '
        + 'from the catalog; every item must be a product (or hub plan) of your brand. A link is paid once. In live mode the '
        + 'hosted page sends the buyer on to Stripe Checkout; without the Stripe settings this answers 503. See docs/checkout.md for every rule.',
      tags: ['Checkout'],
      body: PaymentLinkBody,
      response: { 200: Envelope(PaymentLink) },
    },
    config: { operation: contract.createPaymentLink, auth: { scope: 'checkout:write' }, budget: 'checkout' },
  }, async (req, reply) => write(db, req, reply, (tx) => service.createPaymentLink(tx, principalOf(req), req.body, deps.config.publicUrl, deps.payments), 'Payment link created'));

  app.post('/payments/verify', {
    schema: {
      summary: 'Verify a payment',
      description: 'Asks the payment provider for the transaction\'s true state, records any change (and its events) exactly once, '
        + 'and returns the transaction. Safe to repeat.',
      tags: ['Checkout'],
      body: VerifyBody,
      response: { 200: Envelope(Transaction) },
    },
    // The reference names no scope for verify. Reconciling a payment is reading a transaction, and
    // the server that made the link should be able to check it too, so either scope will do.
    config: { operation: contract.verifyPayment, auth: { scope: ['transactions:read', 'checkout:write'] } },
  }, async (req, reply) => writeFlow(db, req, reply, () => verifyPayment(db, deps.payments, principalOf(req), req.body.txref), 'Transaction verified'));
}
