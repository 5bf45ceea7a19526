import { Type } from 'typebox';
import type { Db } from '../db/client.ts';
import type { App } from '../http/app-type.ts';
import type { PaymentProviders } from '../payments/providers.ts';
import { principalOf } from '../auth/resolve.ts';
import type { Principal } from '../auth/principal.ts';
import { AppError, notFound } from '../errors.ts';
import { Envelope } from '../http/envelope.ts';
import { writeFlow } from '../http/idempotency.ts';
import { Transaction } from '../transactions/schemas.ts';
import { renderTransaction } from '../transactions/service.ts';
import { payLink } from './flows.ts';
import * as repo from './repository.ts';
import * as contract from './contract.ts';

/**
 * `POST /test/payment-links/{id}/pay` (our addition): pays a test-mode link from code with a
 * sandbox card, through the very flow the hosted page's form runs (checkout/pages.ts posts
 * `card` to the same payLink), so a test suite needs no browser and no HTML. Test keys only: a
 * live key, another brand's link or a live link is 404.
 */
export const TestPayBody = Type.Object({
  card: Type.String({ minLength: 1, maxLength: 40, description: 'A sandbox test card: `4242 4242 4242 4242` succeeds, `4000 0000 0000 0002` is declined, `4000 0000 0000 9995` has insufficient funds, `4000 0000 0000 0341` succeeds once per brand and is declined after, `4000 0000 0000 0259` succeeds and is then disputed (close the dispute with POST /test/transactions/{id}/dispute/close). Spaces are ignored.' }),
}, { additionalProperties: false });

export async function payTestLink(db: Db, providers: PaymentProviders, principal: Principal, linkId: string, card: string) {
  if (principal.mode !== 'test') throw new AppError('not_found', 'Paying a link from code works in test mode only; use a test key (svc_test_…). Live links are paid by their buyers.');
  const link = await repo.findLink(db, principal.brandId, linkId);
  if (!link || link.mode !== 'test') throw notFound('payment link');
  const { payment } = await payLink(db, providers, principal.brandId, linkId, { card });
  return renderTransaction(payment);
}

export function testHelperRoutes(app: App, deps: { db: Db; payments: PaymentProviders }) {
  app.post('/test/payment-links/:id/pay', {
    schema: {
      summary: 'Pay a test payment link',
      description: 'Our addition. Pays a test-mode payment link with a sandbox card, exactly as a buyer submitting the hosted page does '
        + '(the page\'s form posts the same `card` field): the transaction, memberships, events and webhooks are the same. Returns the '
        + 'transaction (`succeeded` or `failed`); a link already paid returns the payment that paid it. Test keys only (a live key gets 404).',
      tags: ['Test helpers'],
      params: Type.Object({ id: Type.String({ maxLength: 64, description: 'The payment link\'s id (`plink_…`), from POST /payment-links.' }) }),
      body: TestPayBody,
      response: { 200: Envelope(Transaction) },
    },
    config: { operation: contract.payTestPaymentLink, auth: { scope: 'checkout:write' } },
  }, async (req, reply) => writeFlow(deps.db, req, reply, () => payTestLink(deps.db, deps.payments, principalOf(req), req.params.id, req.body.card), 'Test payment link paid'));
}
