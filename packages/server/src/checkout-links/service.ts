import { catalogChanged } from '../catalog/version.ts';
import type { Queryable } from '../db/client.ts';
import { pageRequest, toPage } from '../db/paging.ts';
import { invalidAll, notFound, type ErrorDetail } from '../errors.ts';
import { requireHub } from '../hubs/repository.ts';
import { newId } from '../ids.ts';
import { appOf, type Principal } from '../auth/principal.ts';
import { findProduct, findTier } from '../products/repository.ts';
import { urlShapeProblem } from '../security/url-guard.ts';
import { findActiveByCode } from '../coupons/repository.ts';
import * as repo from './repository.ts';
import type { CheckoutLinkRow } from './repository.ts';
import type { CheckoutLink, CheckoutLinkCreateBody, CheckoutLinkUpdateBody } from './schemas.ts';

/** The public page of a checkout link: brand and link id find it by primary key, like the hosted checkout. */
export const checkoutLinkPath = (brandId: string, id: string) => `/buy/${encodeURIComponent(brandId)}/${encodeURIComponent(id)}`;

export function renderCheckoutLink(row: CheckoutLinkRow, publicUrl: string): CheckoutLink {
  return {
    id: row.id,
    url: `${publicUrl}${checkoutLinkPath(row.brand_id, row.id)}`,
    mode: row.mode,
    ...(row.name ? { name: row.name } : {}),
    items: row.items.map((i) => ({ id: i.id, plan: i.plan })),
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
    }
  }
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
