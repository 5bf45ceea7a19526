import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { Db } from '../db/client.ts';
import type { App } from '../http/app-type.ts';
import { AppError } from '../errors.ts';
import { toAppError } from '../http/error-handler.ts';
import { providerForMode } from '../payments/providers.ts';
import { payLink } from './payment.ts';
import * as repo from './repository.ts';
import type { AttemptRow, PaymentLinkRow } from './repository.ts';
import { checkoutPage, messagePage, resultPage, type PageContext } from './templates.ts';

/**
 * The hosted checkout: public pages (no key) under /checkout/{brandId}/{linkId}. The link id is
 * random (120 bits), so the URL itself is the buyer's credential, like any payment link.
 *
 *   GET  …/{linkId}           the order and the payment form (or the result, once paid)
 *   POST …/{linkId}/pay       a form post; answers 303 to the result or to the link's redirectUrl
 *   GET  …/{linkId}/result    the outcome of one attempt (?txref=…)
 */

const Params = Type.Object({
  brandId: Type.String({ pattern: '^brand_[A-Za-z0-9_-]{1,64}$' }),
  linkId: Type.String({ pattern: '^plink_[A-Za-z0-9_-]{1,64}$' }),
});

const paths = (brandId: string, linkId: string) => {
  const base = `/checkout/${encodeURIComponent(brandId)}/${encodeURIComponent(linkId)}`;
  return { page: base, pay: `${base}/pay`, result: (txref: string) => `${base}/result?txref=${encodeURIComponent(txref)}` };
};

/** Where a buyer goes after an attempt: the brand's redirectUrl with txref and status added, or our result page. */
export function afterPayment(link: PaymentLinkRow, attempt: AttemptRow): string {
  if (link.redirect_url && attempt.status !== 'pending') {
    const url = new URL(link.redirect_url);
    url.searchParams.set('txref', attempt.txref);
    url.searchParams.set('status', attempt.status);
    return url.toString();
  }
  return paths(link.brand_id, link.id).result(attempt.txref);
}

function html(reply: FastifyReply, link: PaymentLinkRow | undefined, status: number, body: string) {
  // The page posts only to us, and after paying may be sent on to the brand's redirectUrl.
  const formAction = ["'self'", ...(link?.redirect_url ? [new URL(link.redirect_url).origin] : [])].join(' ');
  return reply.code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .header('x-frame-options', 'DENY')
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', `default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`)
    .send(body);
}

export function checkoutPages(parent: App, { db }: { db: Db }) {
  parent.register(async (scoped) => {
    const app = scoped as unknown as App;
    // Browsers post forms url-encoded; only these pages accept that, the JSON API does not.
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16 * 1024 }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
    app.setErrorHandler((err, _req, reply) => {
      const known = toAppError(err as Error);
      // A malformed id in the path is just another link that does not exist.
      if (known?.code === 'not_found' || (err as { validationContext?: string }).validationContext === 'params') {
        return html(reply, undefined, 404, messagePage('Checkout not found', 'This checkout link does not exist. Ask the seller for a new one.'));
      }
      if (known && known.statusCode < 500) return html(reply, undefined, known.statusCode, messagePage('Checkout unavailable', known.message));
      reply.log.error({ err }, 'checkout page failed');
      return html(reply, undefined, known?.statusCode ?? 500, messagePage('Something went wrong', known?.message ?? 'Please try again in a moment.'));
    });

    const context = async (brandId: string, linkId: string) => {
      const link = await repo.findLink(db, brandId, linkId);
      if (!link) throw new AppError('not_found', 'No such checkout.');
      const ctx: PageContext = { brandName: await repo.brandName(db, brandId), link, payAction: paths(brandId, linkId).pay };
      return ctx;
    };
    const detailFields = (link: PaymentLinkRow) => providerForMode(link.mode)?.detailFields ?? [];

    app.get('/checkout/:brandId/:linkId', { schema: { hide: true, params: Params } }, async (req, reply) => {
      const ctx = await context(req.params.brandId, req.params.linkId);
      if (ctx.link.status === 'completed' && ctx.link.transaction_id) {
        const paid = await repo.findAttemptById(db, ctx.link.brand_id, ctx.link.transaction_id);
        if (paid) return html(reply, ctx.link, 200, resultPage(ctx, paid));
      }
      return html(reply, ctx.link, 200, checkoutPage(ctx, detailFields(ctx.link)));
    });

    app.post('/checkout/:brandId/:linkId/pay', {
      schema: { hide: true, params: Params, body: Type.Record(Type.String(), Type.String()) },
    }, async (req, reply) => {
      const { brandId, linkId } = req.params;
      try {
        const { link, attempt } = await payLink(db, brandId, linkId, req.body);
        return reply.code(303).header('cache-control', 'no-store').redirect(afterPayment(link, attempt), 303);
      } catch (err) {
        // A card the sandbox does not know: nothing was recorded; show the form again with why.
        if (err instanceof AppError && err.code === 'validation_failed') {
          const ctx = await context(brandId, linkId);
          return html(reply, ctx.link, 400, checkoutPage(ctx, detailFields(ctx.link), err.message));
        }
        throw err;
      }
    });

    app.get('/checkout/:brandId/:linkId/result', {
      schema: { hide: true, params: Params, querystring: Type.Object({ txref: Type.String({ maxLength: 200 }) }) },
    }, async (req, reply) => {
      const ctx = await context(req.params.brandId, req.params.linkId);
      const attempt = await repo.findAttempt(db, ctx.link.brand_id, ctx.link.mode, req.query.txref);
      if (!attempt || attempt.payment_link_id !== ctx.link.id) throw new AppError('not_found', 'No such payment.');
      if (attempt.status === 'failed') {
        const again = ctx.link.status === 'open'
          ? `Payment failed: ${attempt.failure_message ?? 'the payment did not go through.'} No money was taken. You can try again.`
          : `Payment failed: ${attempt.failure_message ?? 'the payment did not go through.'}`;
        return html(reply, ctx.link, 200, ctx.link.status === 'open'
          ? checkoutPage(ctx, detailFields(ctx.link), again)
          : messagePage('Payment failed', again));
      }
      return html(reply, ctx.link, 200, resultPage(ctx, attempt));
    });
  });
}
