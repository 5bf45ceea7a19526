import type Stripe from 'stripe';
import type { Deps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import type { App } from '../../http/app-type.ts';
import { ok } from '../../http/envelope.ts';

/**
 * POST /providers/stripe/webhook: where Stripe sends its events (README, Live payments with
 * Stripe). Public and outside /api/v1: the Stripe-Signature header, checked over the raw bytes
 * with the official helper, is the authentication. Answers 200 for every event it has taken
 * (acted on, already seen, or not ours), 400 for a body whose signature does not match (nothing
 * is read from it), and 503 when Stripe is not configured or could not be reached, so that Stripe
 * delivers the event again.
 *
 * The `stripe` package is loaded only when Stripe is configured (payments/configured.ts), so this
 * route takes its error classes from the client and its event handling on first use.
 */
export function stripeWebhookRoutes(parent: App, deps: Pick<Deps, 'db' | 'config' | 'payments' | 'stripe'>) {
  parent.register(async (app: App) => {
    // The signature covers the exact bytes Stripe sent: keep them, whatever the content type says.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

    app.post('/providers/stripe/webhook', { schema: { hide: true } }, async (req) => {
      const { stripe } = deps;
      const secret = deps.config.stripe?.webhookSecret;
      if (!stripe || !secret) {
        throw new AppError('not_configured', 'Stripe is not configured on this server: set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET.');
      }
      const signature = req.headers['stripe-signature'];
      if (typeof signature !== 'string' || signature === '') {
        throw new AppError('invalid_signature', 'The Stripe-Signature header is missing; only Stripe\'s signed events are accepted here.');
      }
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      let event: Stripe.Event;
      try {
        event = await stripe.webhooks.constructEventAsync(raw, signature, secret);
      } catch (err) {
        if (err instanceof stripe.errors.StripeSignatureVerificationError) {
          throw new AppError('invalid_signature', 'The Stripe-Signature header does not match this body. Check that STRIPE_WEBHOOK_SECRET '
            + 'is the signing secret of this endpoint and that nothing between Stripe and this server changes the body.');
        }
        // Signed correctly but not JSON: not something Stripe sends.
        throw new AppError('invalid_json', 'The body is not a JSON Stripe event.');
      }
      if (typeof event?.id !== 'string' || typeof event.type !== 'string' || typeof event.data?.object !== 'object' || event.data.object === null) {
        throw new AppError('validation_failed', 'The body is not a Stripe event (it needs id, type and data.object).');
      }
      const { handleStripeEvent } = await import('./webhook.ts');
      const outcome = await handleStripeEvent(deps.db, { payments: deps.payments, renewals: deps.config.renewals, stripe }, event);
      req.log.info({ stripeEvent: event.id, type: event.type, outcome }, 'stripe event');
      return ok('Event received', { received: true, outcome });
    });
  });
}
