import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CheckoutFailureLimits } from '../config.ts';
import { noteFailure, refuseIfHammered, retryAfterOf } from './attempts.ts';
import { Type } from 'typebox';
import type { Db } from '../db/client.ts';
import type { App } from '../http/app-type.ts';
import { AppError } from '../errors.ts';
import { toAppError } from '../http/error-handler.ts';
import type { PaymentProviders } from '../payments/providers.ts';
import { messagePage, sendPage } from '../pages/html.ts';
import { completedScript, completedScriptHash, embedTarget, withEmbed } from '../pages/embed.ts';
import type { TransactionRow } from '../transactions/repository.ts';
import { payLink, reconcilePayment } from './flows.ts';
import type { PaymentLinkRow } from './repository.ts';
import * as service from './service.ts';
import { checkoutPage, codePage, failedPage, resultPage, type PageContext } from './templates.ts';
import { checkCode, codeState, sendCode } from './email-code.ts';

/**
 * The hosted checkout: public pages (no key) under /checkout/{brandId}/{linkId}. The link id is
 * random (120 bits), so the URL itself is the buyer's credential, like any payment link.
 *
 *   GET  …/{linkId}           the order and the payment form (or the result, once paid)
 *   POST …/{linkId}/pay       a form post; answers 303 to the result or to the link's redirectUrl
 *   GET  …/{linkId}/result    the outcome of one attempt (?txref=…)
 *   GET  …/{linkId}/return    where Stripe Checkout sends the buyer back after paying (?txref=…):
 *                             asks Stripe, settles if paid, and answers 303 like /pay
 * Live mode with Stripe: /pay answers 303 to the Checkout Session's page instead of charging here;
 * Stripe's cancel button comes back to the checkout page with ?cancelled=1.
 */

const Params = Type.Object({
  brandId: Type.String({ pattern: '^brand_[A-Za-z0-9_-]{1,64}$' }),
  linkId: Type.String({ pattern: '^plink_[A-Za-z0-9_-]{1,64}$' }),
});

const paths = (brandId: string, linkId: string) => {
  const base = `/checkout/${encodeURIComponent(brandId)}/${encodeURIComponent(linkId)}`;
  return { page: base, pay: `${base}/pay`, sendCode: `${base}/code`, verifyCode: `${base}/code/verify`, result: (txref: string) => `${base}/result?txref=${encodeURIComponent(txref)}` };
};

/** Where a buyer goes after an attempt: the brand's redirectUrl with txref and status added, or our result page. */
export function afterPayment(link: PaymentLinkRow, payment: TransactionRow): string {
  if (link.redirect_url && payment.status !== 'pending') {
    const url = new URL(link.redirect_url);
    url.searchParams.set('txref', payment.txref);
    url.searchParams.set('status', payment.status);
    return url.toString();
  }
  return paths(link.brand_id, link.id).result(payment.txref);
}

export function checkoutPages(parent: App, { db, config, payments, secrets }: {
  db: Db; config: { publicUrl: string; checkoutFailures: CheckoutFailureLimits }; payments: PaymentProviders; secrets: { webhookKey: Buffer };
}) {
  // Card testing (checkout/attempts.ts): who is refused, and what a failure is noted under.
  const failureKeys = (req: FastifyRequest, link: PaymentLinkRow) => ({
    address: req.ip, email: link.buyer_email, ...(typeof (req.body as Record<string, unknown>)?.card === 'string' ? { card: (req.body as Record<string, string>).card } : {}),
  });
  const tooMany = (reply: FastifyReply, err: AppError) => {
    reply.header('retry-after', String(retryAfterOf(err)));
    return html(reply, undefined, 429, messagePage('Too many attempts', err.message));
  };
  /**
   * Sends a checkout page. Its form may send the buyer on (a redirect after the post is still
   * the form's target, for CSP) to the brand's redirectUrl after paying, or to the provider's
   * own payment page (Stripe Checkout), so those origins may be form targets.
   */
  const html = (reply: FastifyReply, link: PaymentLinkRow | undefined, status: number, body: string, embed: { origins?: readonly string[]; script?: boolean } = {}) => {
    const hosted = link ? payments.forMode(link.mode)?.hostedPage : undefined;
    return sendPage(reply, status, body, {
      formAction: [...(link?.redirect_url ? [new URL(link.redirect_url).origin] : []), ...(hosted ? [hosted.origin] : [])],
      ...(embed.origins ? { frameAncestors: embed.origins } : {}),
      ...(embed.script ? { scriptHashes: [completedScriptHash] } : {}),
    });
  };
  const Query = <T extends Record<string, ReturnType<typeof Type.String>>>(fields: T) =>
    Type.Object({ ...fields, embed: Type.Optional(Type.String({ maxLength: 300 })) });

  parent.register(async (app: App) => {
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
      // Expected refusals (live payments not configured, the database unreachable): no stack.
      if (known?.code === 'service_unavailable' || known?.code === 'not_configured') {
        reply.log.warn({ reason: known.message }, 'checkout page unavailable');
        reply.header('retry-after', '5');
        return html(reply, undefined, 503, messagePage('Checkout unavailable', `${known.message} Please try again in a moment.`));
      }
      reply.log.error({ err }, 'checkout page failed');
      return html(reply, undefined, known?.statusCode ?? 500, messagePage('Something went wrong', known?.message ?? 'Please try again in a moment.'));
    });

    /** The page's context; `embed` is the overlay's site (pages/embed.ts) when the brand allows it. */
    const context = async (brandId: string, linkId: string, embed?: string) => {
      const view = await service.checkoutView(db, brandId, linkId);
      const hostedBy = payments.forMode(view.link.mode)?.hostedPage?.name;
      const target = embedTarget(embed, view.embedOrigins);
      const ctx: PageContext = {
        brandName: view.brandName, link: view.link, payAction: withEmbed(paths(brandId, linkId).pay, target), ...(hostedBy ? { hostedBy } : {}),
        ...(view.supportEmail ? { supportEmail: view.supportEmail } : {}), ...(view.portalPath ? { portalPath: view.portalPath } : {}),
        // Stripe's page refuses to be framed: from the overlay, the buyer goes there in the whole window.
        ...(hostedBy && target ? { payTarget: '_top' as const } : {}),
      };
      return { ctx, paid: view.paid, target, framing: { origins: view.embedOrigins } };
    };
    /** The result page, telling the overlay's site about a success (checkout.completed). */
    const result = async (reply: FastifyReply, ctx: PageContext, payment: TransactionRow, target: string | undefined, framing: { origins: readonly string[] }) => {
      const tell = target && payment.status === 'succeeded'
        ? completedScript(target, { txref: payment.txref, amount: payment.amount, currency: payment.currency, ...(ctx.link.redirect_url ? { redirectUrl: afterPayment(ctx.link, payment) } : {}) })
        : '';
      const paid = payment.status === 'succeeded';
      const receiptTo = paid ? await service.receiptQueued(db, payment) : undefined;
      const booking = paid ? await service.bookingWords(db, payment) : undefined;
      const after = {
        ...(receiptTo ? { receiptTo } : {}), ...(booking ? { booking } : {}),
        ...(ctx.link.redirect_url && paid ? { continueTo: afterPayment(ctx.link, payment) } : {}),
      };
      return html(reply, ctx.link, 200, resultPage(ctx, payment, after) + tell, { ...framing, script: tell !== '' });
    };
    const detailFields = (link: PaymentLinkRow) => payments.forMode(link.mode)?.detailFields ?? [];

    app.get('/checkout/:brandId/:linkId', {
      schema: { hide: true, params: Params, querystring: Query({ cancelled: Type.Optional(Type.String({ maxLength: 10 })) }) },
    }, async (req, reply) => {
      const { ctx, paid, target, framing } = await context(req.params.brandId, req.params.linkId, req.query.embed);
      if (paid) return result(reply, ctx, paid, target, framing);
      if (req.query.cancelled !== undefined && ctx.hostedBy) ctx.note = `You left ${ctx.hostedBy}'s page without paying; nothing was charged. You can pay whenever you are ready.`;
      const code = ctx.link.status === 'open' ? await codeState(db, ctx.link) : 'not_needed';
      if (code === 'unsent' || code === 'sent') return askCode(reply, ctx, code === 'sent', 200, undefined, undefined, framing);
      return html(reply, ctx.link, 200, checkoutPage(ctx, detailFields(ctx.link)), framing);
    });

    // Checkout email verification (checkout/email-code.ts): mail a code, then check it.
    const askCode = (reply: FastifyReply, ctx: PageContext, sent: boolean, status: number, error?: string, note?: string, framing?: Parameters<typeof html>[4]) => {
      const p = paths(ctx.link.brand_id, ctx.link.id);
      return html(reply, ctx.link, status, codePage(ctx, { send: p.sendCode, verify: p.verifyCode }, sent, error, note), framing);
    };
    const fromElsewhere = (req: FastifyRequest) => {
      const origin = req.headers.origin;
      return origin !== undefined && origin !== new URL(config.publicUrl).origin && origin !== `${req.protocol}://${req.host}`;
    };

    app.post('/checkout/:brandId/:linkId/code', {
      schema: { hide: true, params: Params },
    }, async (req, reply) => {
      if (fromElsewhere(req)) return html(reply, undefined, 403, messagePage('Checkout unavailable', 'This form was sent from another website, so it was not taken. Open the checkout link again.'));
      const { ctx } = await context(req.params.brandId, req.params.linkId);
      const state = await codeState(db, ctx.link);
      if (state === 'not_needed' || state === 'verified' || ctx.link.status !== 'open') return reply.code(303).redirect(paths(ctx.link.brand_id, ctx.link.id).page, 303);
      try {
        await db.transaction((tx) => sendCode(tx, ctx.link, ctx.brandName));
      } catch (err) {
        if (err instanceof AppError && err.code === 'rate_limited') return askCode(reply, ctx, state === 'sent', 429, err.message);
        throw err;
      }
      return reply.code(303).header('cache-control', 'no-store').redirect(paths(ctx.link.brand_id, ctx.link.id).page, 303);
    });

    app.post('/checkout/:brandId/:linkId/code/verify', {
      schema: { hide: true, params: Params, body: Type.Record(Type.String(), Type.String({ maxLength: 100 })) },
    }, async (req, reply) => {
      if (fromElsewhere(req)) return html(reply, undefined, 403, messagePage('Checkout unavailable', 'This form was sent from another website, so it was not taken. Open the checkout link again.'));
      const { ctx } = await context(req.params.brandId, req.params.linkId);
      const problem = await db.transaction((tx) => checkCode(tx, ctx.link, (req.body as Record<string, string>).code ?? ''));
      if (problem) return askCode(reply, ctx, true, 400, problem);
      return reply.code(303).header('cache-control', 'no-store').redirect(paths(ctx.link.brand_id, ctx.link.id).page, 303);
    });

    app.post('/checkout/:brandId/:linkId/pay', {
      schema: { hide: true, params: Params, querystring: Query({}), body: Type.Record(Type.String(), Type.String()) },
    }, async (req, reply) => {
      const { brandId, linkId } = req.params;
      // A form posted from another site (cross-site request forgery) pays nothing: browsers say
      // where a form came from in Origin, and ours come from this service's own pages.
      const origin = req.headers.origin;
      if (origin !== undefined && origin !== new URL(config.publicUrl).origin && origin !== `${req.protocol}://${req.host}`) {
        return html(reply, undefined, 403, messagePage('Checkout unavailable', 'This payment form was sent from another website, so it was not taken. Open the checkout link again and pay from there.'));
      }
      const { ctx: before, target, framing } = await context(brandId, linkId, req.query.embed);
      if (before.link.status === 'open') {
        const code = await codeState(db, before.link);
        if (code === 'unsent' || code === 'sent') return askCode(reply, before, code === 'sent', 403, 'Confirm your email address first: nothing was charged.', undefined, framing);
      }
      const keys = failureKeys(req, before.link);
      try {
        if (before.link.status === 'open') await refuseIfHammered(db, secrets.webhookKey, config.checkoutFailures, keys);
        const { link, payment, redirectUrl } = await payLink(db, payments, brandId, linkId, req.body);
        if (payment.status === 'failed') await noteFailure(db, secrets.webhookKey, config.checkoutFailures, keys);
        // In the overlay the buyer stays on our result page; the site learns the redirectUrl from checkout.completed.
        const next = target ? withEmbed(paths(brandId, linkId).result(payment.txref), target) : afterPayment(link, payment);
        return reply.code(303).header('cache-control', 'no-store').redirect(redirectUrl ?? next, 303);
      } catch (err) {
        if (err instanceof AppError && err.code === 'rate_limited') return tooMany(reply, err);
        // A card the sandbox does not know: nothing was recorded; show the form again with why.
        if (err instanceof AppError && err.code === 'validation_failed') {
          await noteFailure(db, secrets.webhookKey, config.checkoutFailures, keys);
          const { ctx } = await context(brandId, linkId, target);
          return html(reply, ctx.link, 400, checkoutPage(ctx, detailFields(ctx.link), err.details?.[0]?.message ?? err.message), framing);
        }
        throw err;
      }
    });

    app.get('/checkout/:brandId/:linkId/return', {
      schema: { hide: true, params: Params, querystring: Type.Object({ txref: Type.String({ maxLength: 200 }) }) },
    }, async (req, reply) => {
      const { ctx } = await context(req.params.brandId, req.params.linkId);
      // The webhook usually settles first; if it has not yet, asking Stripe now shows the buyer
      // their outcome at once (settling is once-only either way).
      const payment = await reconcilePayment(db, payments, await service.paymentOfLink(db, ctx.link, req.query.txref));
      const link = payment.status === 'succeeded' ? (await service.checkoutView(db, ctx.link.brand_id, ctx.link.id)).link : ctx.link;
      return reply.code(303).header('cache-control', 'no-store').redirect(afterPayment(link, payment), 303);
    });

    app.get('/checkout/:brandId/:linkId/result', {
      schema: { hide: true, params: Params, querystring: Query({ txref: Type.String({ maxLength: 200 }) }) },
    }, async (req, reply) => {
      const { ctx, target, framing } = await context(req.params.brandId, req.params.linkId, req.query.embed);
      const payment = await service.paymentOfLink(db, ctx.link, req.query.txref);
      if (payment.status === 'failed') {
        const again = ctx.link.status === 'open'
          ? `Payment failed: ${payment.failure_message ?? 'the payment did not go through.'} No money was taken. You can try again.`
          : `Payment failed: ${payment.failure_message ?? 'the payment did not go through.'}`;
        return html(reply, ctx.link, 200, ctx.link.status === 'open'
          ? checkoutPage(ctx, detailFields(ctx.link), again, true)
          : failedPage(ctx, again), framing);
      }
      return result(reply, ctx, payment, target, framing);
    });
  });
}
