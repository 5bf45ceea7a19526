import { catalogChanged } from '../catalog-cache/version.ts';
import type { Queryable } from '../db/client.ts';
import { pageRequest, toPage } from '../db/paging.ts';
import { invalidAll, notFound, type ErrorDetail } from '../errors.ts';
import { requireHub } from '../hubs/repository.ts';
import { newId } from '../ids.ts';
import { appOf, type Principal } from '../auth/principal.ts';
import { findProduct, findTier, productItems, type TierRow } from '../products/repository.ts';
import { formatMoney } from '../money.ts';
import { exponentOf, toMinor } from '../money.ts';
import { urlShapeProblem } from '../security/url-guard.ts';
import { findActiveByCode } from '../coupons/repository.ts';
import * as repo from './repository.ts';
import type { CheckoutLinkRow } from './repository.ts';
import type { CheckoutLink, CheckoutLinkCreateBody, CheckoutLinkItem, CheckoutLinkUpdateBody } from './schemas.ts';

/** The public page of a checkout link: brand and link id find it by primary key, like the hosted checkout. */
export const checkoutLinkPath = (brandId: string, id: string) => `/buy/${encodeURIComponent(brandId)}/${encodeURIComponent(id)}`;

export function renderCheckoutLink(row: CheckoutLinkRow, publicUrl: string): CheckoutLink {
  return {
    id: row.id,
    url: `${publicUrl}${checkoutLinkPath(row.brand_id, row.id)}`,
    mode: row.mode,
    ...(row.name ? { name: row.name } : {}),
    items: row.items.map((i) => ({
      id: i.id, plan: i.plan,
      ...(i.addons?.length ? { addons: i.addons } : {}),
      ...(i.customAmountRange ? { customAmountRange: i.customAmountRange } : {}),
    })),
    status: row.status,
    ...(row.expires_at ? { expiresAt: row.expires_at.toISOString() } : {}),
    ...(row.max_sales !== null ? { maxSales: row.max_sales } : {}),
    sales: row.sales,
    ...(row.redirect_url ? { redirectUrl: row.redirect_url } : {}),
    ...(row.coupon ? { coupon: row.coupon } : {}),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** Each item must be a tier of a product (published) or hub of the brand, on sale; problems are collected by field. */
async function checkItems(tx: Queryable, brandId: string, items: CheckoutLinkCreateBody['items'], problems: ErrorDetail[]) {
  const seen = new Set<string>();
  for (const [i, item] of items.entries()) {
    if (seen.has(item.plan)) problems.push({ field: `items[${i}].plan`, index: i, message: `"${item.plan}" is named twice` });
    seen.add(item.plan);
    const product = await findProduct(tx, brandId, item.id);
    const hub = product ? undefined : await requireHub(tx, brandId, item.id).catch(() => undefined);
    if (!product && !hub) {
      problems.push({ field: `items[${i}].id`, index: i, message: `no product or hub with id "${item.id}" exists` });
      continue;
    }
    if (product && product.status !== 'published') problems.push({ field: `items[${i}].id`, index: i, message: `product "${product.title}" is ${product.status}; publish it first` });
    // Held until commit, like a payment link's tiers, so a catalog write cannot delete it meanwhile.
    const tier = await findTier(tx, brandId, item.plan, { forShare: true });
    if (!tier || (product ? tier.product_id !== product.id : tier.hub_id !== hub!.id)) {
      problems.push({ field: `items[${i}].plan`, index: i, message: `"${item.plan}" is not a tier of ${product ? `product "${product.title}"` : `hub "${hub!.name}"`}` });
    } else if (tier.archived) {
      problems.push({ field: `items[${i}].plan`, index: i, message: `tier "${tier.name}" is archived and not on sale` });
    } else if (item.customAmountRange) {
      rangeProblems(tier, item.customAmountRange, `items[${i}].customAmountRange`, problems);
    }
    if (item.addons?.length) {
      const addons = product ? (await productItems(tx, brandId, product.id)).filter((x) => x.is_addon && !x.archived) : [];
      item.addons.forEach((id, j) => {
        const field = `items[${i}].addons[${j}]`;
        if (item.addons!.indexOf(id) !== j) problems.push({ field, index: i, message: `"${id}" is listed twice` });
        else if (!product) problems.push({ field, index: i, message: `hub "${hub!.name}" has no add-ons; add-ons belong to products` });
        else if (!addons.some((a) => a.id === id)) problems.push({ field, index: i, message: `"${id}" is not an add-on of product "${product.title}"` });
        else if (tier && addons.find((a) => a.id === id)!.currency !== tier.currency) problems.push({ field, index: i, message: `add-on "${id}" is priced in another currency than tier "${tier.name}" (${tier.currency})` });
      });
    }
  }
}

/** A link's amount range must fit a pay-what-you-want tier: not below its price, max not below min, whole minor units. */
function rangeProblems(tier: TierRow, range: NonNullable<CheckoutLinkItem['customAmountRange']>, field: string, problems: ErrorDetail[]) {
  if (tier.type !== 'pay_what_you_want') {
    problems.push({ field, message: `applies only to pay-what-you-want tiers; tier "${tier.name}" is ${tier.type}` });
    return;
  }
  const listed = tier.price_amount - (tier.discount_amount ?? 0);
  const min = range.min === undefined ? undefined : toMinor(range.min, tier.currency);
  const max = range.max === undefined ? undefined : toMinor(range.max, tier.currency);
  if (min === null) problems.push({ field: `${field}.min`, message: `has more decimals than ${tier.currency} allows` });
  else if (min !== undefined && min < listed) problems.push({ field: `${field}.min`, message: `may not be below the tier's price of ${formatMoney(listed, tier.currency)}` });
  if (max === null) problems.push({ field: `${field}.max`, message: `has more decimals than ${tier.currency} allows` });
  else if (max !== undefined && max < Math.max(min ?? 0, listed)) {
    problems.push({ field: `${field}.max`, message: `may not be below ${min ? `min (${formatMoney(min, tier.currency)})` : `the tier's price of ${formatMoney(listed, tier.currency)}`}` });
  }
}

/**
 * The amount range the link allows for a tier, in minor units: its own, or the tier's price
 * upward. The checkout form enforces it (pages.ts); the tier's price stays the floor whatever the link says.
 */
export function amountRangeOf(item: Pick<CheckoutLinkItem, 'customAmountRange'> | undefined, tier: TierRow): { min: number; max?: number } {
  const listed = tier.price_amount - (tier.discount_amount ?? 0);
  const range = item?.customAmountRange;
  const units = (v: number) => Math.round(v * 10 ** exponentOf(tier.currency));
  return {
    min: Math.max(listed, range?.min !== undefined ? units(range.min) : 0),
    ...(range?.max !== undefined ? { max: units(range.max) } : {}),
  };
}

/** A preset coupon must be an active coupon of the link's mode; whether it fits each buyer's order is judged when they submit. */
async function presetCouponProblem(tx: Queryable, principal: Principal, code: string | null | undefined, problems: ErrorDetail[]) {
  if (!code) return;
  if (!(await findActiveByCode(tx, principal.brandId, principal.mode, code))) {
    problems.push({ field: 'coupon', message: `"${code}" is not an active coupon of this brand in ${principal.mode} mode` });
  }
}

function redirectProblem(url: string | null | undefined, problems: ErrorDetail[]) {
  if (!url) return;
  const shape = urlShapeProblem(url) ?? (/^https?:\/\/[^/]/i.test(url) ? undefined : 'must be an http:// or https:// address');
  if (shape) problems.push({ field: 'redirectUrl', message: shape });
}

export async function createCheckoutLink(tx: Queryable, principal: Principal, body: CheckoutLinkCreateBody, publicUrl: string): Promise<CheckoutLink> {
  const problems: ErrorDetail[] = [];
  await checkItems(tx, principal.brandId, body.items, problems);
  redirectProblem(body.redirectUrl, problems);
  await presetCouponProblem(tx, principal, body.coupon, problems);
  if (body.expiresAt && new Date(body.expiresAt).getTime() <= Date.now()) problems.push({ field: 'expiresAt', message: 'is in the past' });
  if (problems.length) throw invalidAll(problems);
  const row = await repo.insertCheckoutLink(tx, {
    brand_id: principal.brandId,
    id: newId('clink'),
    mode: principal.mode,
    name: body.name ?? null,
    items: body.items,
    expires_at: body.expiresAt ? new Date(body.expiresAt) : null,
    max_sales: body.maxSales ?? null,
    redirect_url: body.redirectUrl ?? null,
    coupon: body.coupon ?? null,
    via: principal.via,
    app_id: appOf(principal),
  });
  // The product and hub pages' buttons name the newest link of each tier; they are cached with the catalog.
  await catalogChanged(tx, principal.brandId);
  return renderCheckoutLink(row, publicUrl);
}

export async function listCheckoutLinks(db: Queryable, principal: Principal, query: { limit?: number; cursor?: string; tier?: string }, publicUrl: string) {
  const page = pageRequest('checkout-links', query);
  const rows = await repo.listCheckoutLinks(db, principal.brandId, principal.mode, page, { tier: query.tier });
  return toPage('checkout-links', page, rows, (r) => renderCheckoutLink(r, publicUrl));
}

export async function getCheckoutLink(db: Queryable, principal: Principal, id: string, publicUrl: string) {
  const row = await repo.findCheckoutLink(db, principal.brandId, id, principal.mode);
  if (!row) throw notFound('checkout link');
  return renderCheckoutLink(row, publicUrl);
}

export async function updateCheckoutLink(tx: Queryable, principal: Principal, id: string, body: CheckoutLinkUpdateBody, publicUrl: string) {
  const row = await repo.findCheckoutLink(tx, principal.brandId, id, principal.mode, { forUpdate: true });
  if (!row) throw notFound('checkout link');
  const problems: ErrorDetail[] = [];
  if (body.items) await checkItems(tx, principal.brandId, body.items, problems);
  redirectProblem(body.redirectUrl, problems);
  await presetCouponProblem(tx, principal, body.coupon, problems);
  if (body.maxSales !== undefined && body.maxSales !== null && body.maxSales < row.sales_held) {
    problems.push({ field: 'maxSales', message: `may not be below the ${row.sales_held} sales already made or under way` });
  }
  if (problems.length) throw invalidAll(problems);
  const updated = await repo.updateCheckoutLink(tx, principal.brandId, id, {
    name: body.name,
    status: body.status,
    expires_at: body.expiresAt === undefined ? undefined : body.expiresAt === null ? null : new Date(body.expiresAt),
    max_sales: body.maxSales,
    redirect_url: body.redirectUrl,
    items: body.items,
    coupon: body.coupon,
  });
  await catalogChanged(tx, principal.brandId);
  return renderCheckoutLink(updated!, publicUrl);
}
