import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Db, Queryable } from '../db/client.ts';
import type { App } from '../http/app-type.ts';
import { AppError, type ErrorDetail } from '../errors.ts';
import { toAppError } from '../http/error-handler.ts';
import type { PaymentProviders } from '../payments/providers.ts';
import { messagePage, sendPage } from '../pages/html.ts';
import { embedTarget, withEmbed } from '../pages/embed.ts';
import { embedScript } from './embed-script.ts';
import { findProfile, type BrandProfileRow } from '../brands/repository.ts';
import type { CatalogCache } from '../catalog-cache/cache.ts';
import { dateTimeWords } from '../pages/words.ts';
import { findHub } from '../hubs/repository.ts';
import { findProduct, findTier, productCheckoutFields, productItems } from '../products/repository.ts';
import type { Principal } from '../auth/principal.ts';
import type { CheckoutFailureLimits } from '../config.ts';
import { noteFailure, refuseIfHammered, retryAfterOf } from '../checkout/attempts.ts';
import { findActiveByCode } from '../affiliates/repository.ts';
import { checkPaymentLink, createPaymentLink } from '../checkout/service.ts';
import { slotsLeft } from '../checkout/stock.ts';
import { findCheckoutLink, type CheckoutLinkRow } from './repository.ts';
import { amountRangeOf, checkoutLinkPath } from './service.ts';
import { formatMoney } from '../money.ts';
import { exponentOf } from '../money.ts';
import { couponInWords } from '../coupons/service.ts';
import { checkoutFormPage, closedLinkPage, type FormView, type Offer } from './form-page.ts';
import { toPaymentLinkBody, fieldOfProblem } from './form-body.ts';
import { slotPickerOf } from './slot-picker.ts';
import { productShippingOf } from '../shipping/settings.ts';
import { shippingInputs } from '../shipping/checkout-form.ts';

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

export function checkoutLinkPages(parent: App, { db, config, payments, secrets, catalogCache }: {
  db: Db; config: { publicUrl: string; checkoutFailures: CheckoutFailureLimits }; payments: PaymentProviders; secrets: { webhookKey: Buffer }; catalogCache: CatalogCache;
}) {
  // A brand's pages may be framed by the sites it allows (the overlay, pages/embed.ts), so a closed or sold-out link says so inside it too.
  const closed = (reply: FastifyReply, status: number, title: string, text: string, brand?: BrandProfileRow) =>
    sendPage(reply, status, brand ? closedLinkPage(brand, title, text) : messagePage(title, text), brand ? { frameAncestors: brand.embed_origins } : {});

  /** The link, its brand and the tiers it sells as they stand now; answers the page itself when the link cannot sell. */
  async function load(brandId: string, linkId: string, reply: FastifyReply) {
    const link = await findCheckoutLink(db, brandId, linkId);
    // The brand and what the link sells are catalog (kept in the catalog cache, dropped on every
    // catalog, profile or link write); the link's own state and the places left are read each time.
    const kept = link ? JSON.parse(await catalogCache.read(brandId, `buy:${linkId}`, async () => JSON.stringify({
      brand: await findProfile(db, brandId) ?? null, offers: await offersOf(db, link),
    })), reviveDates) as { brand: BrandProfileRow | null; offers: Offer[] } : undefined;
    const brand = kept?.brand;
    if (!link || !brand) return void closed(reply, 404, 'Checkout not found', 'This checkout link does not exist. Ask the seller for a new one.');
    if (link.status !== 'active') return void closed(reply, 410, 'Checkout closed', `${brand.display_name ?? brand.name} has closed this checkout link.`, brand);
    if (link.expires_at && link.expires_at.getTime() <= Date.now()) return void closed(reply, 410, 'Sales have ended', `Sales through this link ended on ${dateTimeWords(link.expires_at, brand.time_zone)}.`, brand);
    const offers = await withPlacesLeft(db, link, kept.offers);
    if (!offers.length) return void closed(reply, 410, 'Not on sale', 'Nothing this link sells is on sale right now.', brand);
    const capLeft = link.max_sales !== null ? Math.max(link.max_sales - link.sales_held, 0) : undefined;
    if (capLeft === 0) return void closed(reply, 410, 'Sold out', 'Everything this link sells has been sold. Nothing was charged.', brand);
    return { link, brand, offers, capLeft };
  }

  const pick = (offers: Offer[], tierId: string | undefined) => offers.find((o) => o.tier.id === tierId) ?? offers.find((o) => o.left !== 0) ?? offers[0];

  const render = (reply: FastifyReply, status: number, view: FormView, brand: { embed_origins: string[] }) =>
    sendPage(reply, status, checkoutFormPage(view), { frameAncestors: brand.embed_origins });

  // The overlay script a creator puts on their own site (docs/checkout.md, "Embedding the checkout").
  parent.get('/embed.js', { schema: { hide: true } }, async (_req, reply) => reply
    .header('content-type', 'text/javascript; charset=utf-8')
    .header('cache-control', 'public, max-age=300')
    .header('x-content-type-options', 'nosniff')
    .header('cross-origin-resource-policy', 'cross-origin')
    .send(embedScript));

  parent.register(async (app: App) => {
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
      // A coupon in the address (?coupon=) wins over the link's preset one: it is what the buyer was sent.
      const coupon = query.coupon ?? loaded.link.coupon;
      if (coupon) values.coupon = coupon.slice(0, 100);
      // An affiliate's link with a code that is not (or no longer) one: said at once, before the buyer fills anything in.
      if (values.ref && !(await findActiveByCode(db, loaded.link.brand_id, loaded.link.mode, values.ref))) {
        return closed(reply, 400, 'Checkout unavailable', `The referral code "${values.ref.slice(0, 40)}" (ref) in this address is not one of this shop's. Open the link without ?ref= to buy.`);
      }
      const selected = pick(loaded.offers, query.tier);
      if (selected.tier.type === 'pay_what_you_want') values.customAmount = '';
      tickPresetAddons(selected, values);
      return render(reply, 200, await view(loaded, selected, values, {}, query.embed), loaded.brand);
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
      const embed = (req.query as Record<string, string | undefined>).embed;
      const selected = pick(loaded.offers, values.tier);
      // "Update order" only changes the tier shown; nothing is checked or made. A tier newly chosen
      // starts with the add-ons the link ticks for it, as if the buyer had opened the link on it.
      if (values.choose) {
        if (values.shown_tier !== selected.tier.id) tickPresetAddons(selected, values);
        return render(reply, 200, await view(loaded, selected, values, {}, embed), loaded.brand);
      }
      if (selected.left === 0) return render(reply, 409, await view(loaded, selected, values, { _form: `Sold out: "${selected.tier.name}" has no places left. Nothing was charged.` }, embed), loaded.brand);
      const built = toPaymentLinkBody(selected, values, loaded.link);
      // The link's amount range for a pay-what-you-want tier (the tier's own minimum is the service's rule).
      const range = amountRangeOf(selected, selected.tier);
      const chosen = built.body.items[0].customAmount;
      if (chosen !== undefined && !built.errors.customAmount) {
        const minor = Math.round(chosen * 10 ** exponentOf(selected.tier.currency));
        const words = (m: number) => formatMoney(m, selected.tier.currency);
        if (range.max !== undefined && minor > range.max) built.errors.customAmount = `Your price may not be above ${words(range.max)} through this link`;
        else if (minor < range.min && selected.customAmountRange?.min !== undefined) built.errors.customAmount = `Your price may not be below ${words(range.min)} through this link`;
      }
      const principal = principalFor(loaded.link);
      try {
        const made = await db.transaction(async (tx) => {
          // The form's own problems (what JSON would have refused by shape) and the service's, all at once.
          if (Object.keys(built.errors).length) await checkPaymentLink(tx, principal, built.body, payments);
          if (Object.keys(built.errors).length) throw new AppError('validation_failed', 'The form has problems.', []);
          return createPaymentLink(tx, principal, built.body, config.publicUrl, payments, { checkoutLinkId: linkId });
        });
        return reply.code(303).header('cache-control', 'no-store').redirect(withEmbed(new URL(made.link).pathname, embedTarget(embed, loaded.brand.embed_origins)), 303);
      } catch (err) {
        if (err instanceof AppError && err.code === 'validation_failed') {
          await noteFailure(db, secrets.webhookKey, config.checkoutFailures, { address: req.ip });
          const errors = inFormOrder({ ...errorsByInput(err.details ?? [], selected), ...built.errors }, selected);
          if (!Object.keys(errors).length) errors._form = err.message;
          return render(reply, 400, await view(loaded, selected, values, errors, embed), loaded.brand);
        }
        throw err;
      }
    });
  });

  /** `embed`: the overlay's site (pages/embed.ts), kept in the form's address when the brand allows it. */
  async function view(loaded: NonNullable<Awaited<ReturnType<typeof load>>>, selected: Offer, values: Record<string, string>, errors: Record<string, string>, embed?: string): Promise<FormView> {
    const couponNote = values.coupon && !errors.coupon ? await couponInWords(db, loaded.link.brand_id, loaded.link.mode, values.coupon.trim()) : undefined;
    const slots = await slotPickerOf(db, principalFor(loaded.link), selected, values);
    return {
      brand: loaded.brand, mode: loaded.link.mode, action: withEmbed(checkoutLinkPath(loaded.link.brand_id, loaded.link.id), embedTarget(embed, loaded.brand.embed_origins)),
      offers: loaded.offers, selected, values, errors, ...(loaded.capLeft !== undefined ? { capLeft: loaded.capLeft } : {}),
      ...(couponNote ? { couponNote } : {}), ...(slots ? { slots } : {}),
    };
  }
}

/** The payment link is made as the brand in the link's mode, by the checkout link (recorded as `via`). */
function principalFor(link: CheckoutLinkRow): Principal {
  return { brandId: link.brand_id, mode: link.mode, scopes: ['checkout:write'], via: 'api_key' };
}

/** Row timestamps come back from JSON as strings; the pages need them as Dates. */
const dateKeys = new Set(['time_bound', 'event_date_time', 'event_end_date', 'created_at', 'updated_at']);
const reviveDates = (key: string, value: unknown) => (typeof value === 'string' && dateKeys.has(key) ? new Date(value) : value);

/** The offers with the places left now (stock changes with every sale; it is never kept). */
async function withPlacesLeft(db: Queryable, link: CheckoutLinkRow, offers: Offer[]): Promise<Offer[]> {
  const left = await slotsLeft(db, link.brand_id, link.mode, offers.map((o) => o.tier));
  return offers.map(({ left: _, ...o }) => ({ ...o, ...(left.has(o.tier.id) ? { left: left.get(o.tier.id) } : {}) }));
}

/** The tiers a link sells, each with its product (or hub), items and checkout fields; tiers no longer on sale are left out. */
async function offersOf(db: Queryable, link: CheckoutLinkRow): Promise<Offer[]> {
  const offers: Offer[] = [];
  for (const item of link.items) {
    const tier = await findTier(db, link.brand_id, item.plan);
    if (!tier || tier.archived || tier.status !== 'active') continue;
    const product = tier.product_id === item.id ? await findProduct(db, link.brand_id, item.id) : undefined;
    const hub = !product && tier.hub_id === item.id ? await findHub(db, link.brand_id, item.id) : undefined;
    if (product && product.status !== 'published') continue;
    if (!product && !hub) continue;
    const [items, fields, shipping] = product
      ? await Promise.all([productItems(db, link.brand_id, product.id), productCheckoutFields(db, link.brand_id, product.id), productShippingOf(db, link.brand_id, product.id)])
      : [[], [], undefined];
    offers.push({
      tier, ...(product ? { product } : {}), ...(hub ? { hub } : {}), items, fields, ...(shipping ? { shipping } : {}),
      ...(item.addons?.length ? { presetAddons: item.addons } : {}),
      ...(item.customAmountRange ? { customAmountRange: item.customAmountRange } : {}),
    });
  }
  return offers;
}

/** Ticks the add-ons the link preselects for this tier (still on sale, in the tier's currency), as the form's starting values. */
function tickPresetAddons(offer: Offer, values: Record<string, string>) {
  for (const a of offer.items) {
    if (!a.is_addon) continue;
    if (offer.presetAddons?.includes(a.id) && !a.archived) values[`addon_${a.id}`] = 'on';
    else delete values[`addon_${a.id}`];
  }
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
  const order = ['_form', 'tier', 'fullName', 'email', 'phone', ...offer.fields.map((f) => `field_${f.id}`), 'booking.timezone', 'booking.startsAt', 'customAmount', ...guests, ...shippingInputs, 'coupon', 'countryCode'];
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

