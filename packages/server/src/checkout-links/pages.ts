import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Db, Queryable } from '../db/client.ts';
import type { App } from '../http/app-type.ts';
import { AppError, type ErrorDetail } from '../errors.ts';
import { toAppError } from '../http/error-handler.ts';
import type { PaymentProviders } from '../payments/providers.ts';
import { messagePage, sendPage } from '../pages/html.ts';
import { findProfile } from '../brands/repository.ts';
import { findHub } from '../hubs/repository.ts';
import { findProduct, findTier, productCheckoutFields, productItems } from '../products/repository.ts';
import type { Principal } from '../auth/principal.ts';
import type { CheckoutFailureLimits } from '../config.ts';
import { noteFailure, refuseIfHammered, retryAfterOf } from '../checkout/attempts.ts';
import { findActiveByCode } from '../affiliates/repository.ts';
import { checkPaymentLink, createPaymentLink } from '../checkout/service.ts';
import { slotsLeft } from '../checkout/stock.ts';
import { findCheckoutLink, type CheckoutLinkRow } from './repository.ts';
import { checkoutLinkPath } from './service.ts';
import { checkoutFormPage, type FormView, type Offer } from './form-page.ts';
import { toPaymentLinkBody, fieldOfProblem } from './form-body.ts';

/**
 * The web checkout behind a checkout link (docs/checkout.md, "The web checkout"), public:
 *   GET  /buy/{brandId}/{linkId}   the form (?tier= picks a tier; utm_*, gclid, fbclid are kept for attribution)
 *   POST /buy/{brandId}/{linkId}   checks it by the rules of POST /payment-links (the same service),
 *                                  makes the buyer's payment link and answers 303 to its hosted page
 * The link id is random (120 bits), like a payment link's.
 */

const Params = Type.Object({
  brandId: Type.String({ pattern: '^brand_[A-Za-z0-9_-]{1,64}$' }),
  linkId: Type.String({ pattern: '^clink_[A-Za-z0-9_-]{1,64}$' }),
});

export function checkoutLinkPages(parent: App, { db, config, payments, secrets }: {
  db: Db; config: { publicUrl: string; checkoutFailures: CheckoutFailureLimits }; payments: PaymentProviders; secrets: { webhookKey: Buffer };
}) {
  const closed = (reply: FastifyReply, status: number, title: string, text: string) => sendPage(reply, status, messagePage(title, text));

  /** The link, its brand and the tiers it sells as they stand now; answers the page itself when the link cannot sell. */
  async function load(brandId: string, linkId: string, reply: FastifyReply) {
    const link = await findCheckoutLink(db, brandId, linkId);
    const brand = link ? await findProfile(db, brandId) : undefined;
    if (!link || !brand) return void closed(reply, 404, 'Checkout not found', 'This checkout link does not exist. Ask the seller for a new one.');
    if (link.status !== 'active') return void closed(reply, 410, 'Checkout closed', `${brand.display_name ?? brand.name} has closed this checkout link.`);
    if (link.expires_at && link.expires_at.getTime() <= Date.now()) return void closed(reply, 410, 'Sales have ended', `Sales through this link ended on ${link.expires_at.toUTCString()}.`);
    const offers = await offersOf(db, link);
    if (!offers.length) return void closed(reply, 410, 'Not on sale', 'Nothing this link sells is on sale right now.');
    const capLeft = link.max_sales !== null ? Math.max(link.max_sales - link.sales_held, 0) : undefined;
    if (capLeft === 0) return void closed(reply, 410, 'Sold out', 'Everything this link sells has been sold. Nothing was charged.');
    return { link, brand, offers, capLeft };
  }

  const pick = (offers: Offer[], tierId: string | undefined) => offers.find((o) => o.tier.id === tierId) ?? offers.find((o) => o.left !== 0) ?? offers[0];

  const render = (reply: FastifyReply, status: number, view: FormView) => sendPage(reply, status, checkoutFormPage(view));

  parent.register(async (scoped) => {
    const app = scoped as unknown as App;
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 32 * 1024 }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
    app.setErrorHandler((err, _req, reply) => {
      const known = toAppError(err as Error);
      if ((err as { validationContext?: string }).validationContext === 'params') return closed(reply, 404, 'Checkout not found', 'This checkout link does not exist. Ask the seller for a new one.');
      if (known?.code === 'service_unavailable') {
        reply.header('retry-after', '5');
        return closed(reply, 503, 'Checkout unavailable', `${known.message} Please try again in a moment.`);
      }
      if (known && known.statusCode < 500) return closed(reply, known.statusCode, 'Checkout unavailable', known.message);
      reply.log.error({ err }, 'checkout link page failed');
      return closed(reply, 500, 'Something went wrong', 'Please try again in a moment.');
    });

    app.get('/buy/:brandId/:linkId', {
      schema: { hide: true, params: Params, querystring: Type.Record(Type.String(), Type.String({ maxLength: 500 })) },
    }, async (req, reply) => {
      const loaded = await load(req.params.brandId, req.params.linkId, reply);
      if (!loaded) return reply;
      const query = req.query as Record<string, string>;
      const values: Record<string, string> = { countryCode: countryOf(req), ...attribution(query) };
      // An affiliate's link with a code that is not (or no longer) one: said at once, before the buyer fills anything in.
      if (values.ref && !(await findActiveByCode(db, loaded.link.brand_id, loaded.link.mode, values.ref))) {
        return closed(reply, 400, 'Checkout unavailable', `The referral code "${values.ref.slice(0, 40)}" (ref) in this address is not one of this shop's. Open the link without ?ref= to buy.`);
      }
      const selected = pick(loaded.offers, query.tier);
      if (selected.tier.type === 'pay_what_you_want') values.customAmount = '';
      return render(reply, 200, view(loaded, selected, values, {}));
    });

    app.post('/buy/:brandId/:linkId', {
      schema: { hide: true, params: Params, body: Type.Record(Type.String(), Type.String({ maxLength: 5000 })) },
    }, async (req, reply) => {
      const { brandId, linkId } = req.params;
      // A form posted from another site is not taken (cross-site request forgery), as on the payment page.
      const origin = req.headers.origin;
      if (origin !== undefined && origin !== new URL(config.publicUrl).origin && origin !== `${req.protocol}://${req.host}`) {
        return closed(reply, 403, 'Checkout unavailable', 'This form was sent from another website, so it was not taken. Open the checkout link again.');
      }
      // A bot sending form after refused form is answered 429 (checkout/attempts.ts); other buyers are not affected.
      try {
        await refuseIfHammered(db, secrets.webhookKey, config.checkoutFailures, { address: req.ip });
      } catch (err) {
        if (!(err instanceof AppError) || err.code !== 'rate_limited') throw err;
        reply.header('retry-after', String(retryAfterOf(err)));
        return closed(reply, 429, 'Too many attempts', err.message);
      }
      const loaded = await load(brandId, linkId, reply);
      if (!loaded) return reply;
      const values = req.body as Record<string, string>;
      const selected = pick(loaded.offers, values.tier);
      // "Update order" only changes the tier shown; nothing is checked or made.
      if (values.choose) return render(reply, 200, view(loaded, selected, values, {}));
      if (selected.left === 0) return render(reply, 409, view(loaded, selected, values, { _form: `Sold out: "${selected.tier.name}" has no places left. Nothing was charged.` }));
      const built = toPaymentLinkBody(selected, values, loaded.link);
      const principal = principalFor(loaded.link);
      try {
        const made = await db.transaction(async (tx) => {
          // The form's own problems (what JSON would have refused by shape) and the service's, all at once.
          if (Object.keys(built.errors).length) await checkPaymentLink(tx, principal, built.body, payments);
          if (Object.keys(built.errors).length) throw new AppError('validation_failed', 'The form has problems.', []);
          return createPaymentLink(tx, principal, built.body, config.publicUrl, payments, { checkoutLinkId: linkId });
        });
        return reply.code(303).header('cache-control', 'no-store').redirect(new URL(made.link).pathname, 303);
      } catch (err) {
        if (err instanceof AppError && err.code === 'validation_failed') {
          await noteFailure(db, secrets.webhookKey, config.checkoutFailures, { address: req.ip });
          const errors = inFormOrder({ ...errorsByInput(err.details ?? [], selected), ...built.errors }, selected);
          if (!Object.keys(errors).length) errors._form = err.message;
          return render(reply, 400, view(loaded, selected, values, errors));
        }
        throw err;
      }
    });
  });

  function view(loaded: NonNullable<Awaited<ReturnType<typeof load>>>, selected: Offer, values: Record<string, string>, errors: Record<string, string>): FormView {
    return {
      brand: loaded.brand, mode: loaded.link.mode, action: checkoutLinkPath(loaded.link.brand_id, loaded.link.id),
      offers: loaded.offers, selected, values, errors, ...(loaded.capLeft !== undefined ? { capLeft: loaded.capLeft } : {}),
    };
  }
}

/** The payment link is made as the brand in the link's mode, by the checkout link (recorded as `via`). */
function principalFor(link: CheckoutLinkRow): Principal {
  return { brandId: link.brand_id, mode: link.mode, scopes: ['checkout:write'], via: 'api_key' };
}

/** The tiers a link sells, each with its product (or hub), items, checkout fields and places left; tiers no longer on sale are left out. */
async function offersOf(db: Queryable, link: CheckoutLinkRow): Promise<Offer[]> {
  const offers: Offer[] = [];
  for (const item of link.items) {
    const tier = await findTier(db, link.brand_id, item.plan);
    if (!tier || tier.archived || tier.status !== 'active') continue;
    const product = tier.product_id === item.id ? await findProduct(db, link.brand_id, item.id) : undefined;
    const hub = !product && tier.hub_id === item.id ? await findHub(db, link.brand_id, item.id) : undefined;
    if (product && product.status !== 'published') continue;
    if (!product && !hub) continue;
    const [items, fields, left] = product
      ? await Promise.all([productItems(db, link.brand_id, product.id), productCheckoutFields(db, link.brand_id, product.id), slotsLeft(db, link.brand_id, link.mode, [tier])])
      : [[], [], await slotsLeft(db, link.brand_id, link.mode, [tier])];
    offers.push({ tier, ...(product ? { product } : {}), ...(hub ? { hub } : {}), items, fields, ...(left.has(tier.id) ? { left: left.get(tier.id) } : {}) });
  }
  return offers;
}

/** utm_* as one query string (utmRef), and gclid/fbclid as the ad click (adClickID, adType), from the page's address. */
function attribution(query: Record<string, string>): Record<string, string> {
  const utm = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (/^utm_[a-z_]{1,30}$/.test(k) && v) utm.set(k, v.slice(0, 100));
  const out: Record<string, string> = {};
  if ([...utm.keys()].length) out.utmRef = utm.toString().slice(0, 500);
  if (query.ref) out.ref = query.ref;
  if (query.gclid) Object.assign(out, { adClickID: query.gclid.slice(0, 500), adType: 'google' });
  else if (query.fbclid) Object.assign(out, { adClickID: query.fbclid.slice(0, 500), adType: 'facebook' });
  return out;
}

/** A guess the buyer can change: the region of their browser's first language (en-US -> US). */
function countryOf(req: FastifyRequest): string {
  const lang = String(req.headers['accept-language'] ?? '').split(',')[0];
  const region = /^[a-z]{2,3}-([A-Za-z]{2})\b/i.exec(lang.trim())?.[1];
  return region ? region.toUpperCase() : '';
}

/** Errors listed in the order their inputs appear, so the summary reads top to bottom. */
function inFormOrder(errors: Record<string, string>, offer: Offer): Record<string, string> {
  const guests = Array.from({ length: Math.max(offer.tier.no_of_tickets - 1, 0) }, (_, i) => [`guest${i + 1}_name`, `guest${i + 1}_email`]).flat();
  const order = ['_form', 'tier', 'fullName', 'email', 'phone', ...offer.fields.map((f) => `field_${f.id}`), 'customAmount', ...guests, 'countryCode'];
  const rank = (k: string) => (order.includes(k) ? order.indexOf(k) : order.length);
  return Object.fromEntries(Object.entries(errors).sort(([a], [b]) => rank(a) - rank(b)));
}

/** The service's problems (named by body field) by the form input they belong to. */
function errorsByInput(problems: ErrorDetail[], offer: Offer): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const p of problems) {
    const { input, label } = fieldOfProblem(p.field, offer);
    // "is required by "Product" (Label)" reads as the API's; on the form the label says which.
    const message = /^is required\b/.test(p.message) ? 'is required' : p.message;
    errors[input] ??= label ? `${label} ${message}` : message.charAt(0).toUpperCase() + message.slice(1);
  }
  return errors;
}

