import type { Db, Queryable } from '../db/client.ts';
import { AppError, invalidAll, notFound, type ErrorDetail } from '../errors.ts';
import { requireHub } from '../hubs/repository.ts';
import { newId } from '../ids.ts';
import type { Principal } from '../auth/principal.ts';
import { toMajor } from '../money.ts';
import { providerForMode } from '../payments/providers.ts';
import { findProduct, findTier, productCheckoutFields, productItems } from '../products/repository.ts';
import { renderTransaction } from '../transactions/service.ts';
import { checkForm } from './form.ts';
import { providerState, settleAttempt } from './payment.ts';
import { priceLink, type CatalogItem } from './pricing.ts';
import * as repo from './repository.ts';
import type { PaymentLink, PaymentLinkBody } from './schemas.ts';


/** Fields of the body that nothing acts on yet; kept on the link as sent, never dropped. */
const recorded = ['countryCode', 'booking', 'address', 'deliveryLocation', 'pickupLocation', 'utmRef', 'adClickID', 'adType',
  'checkoutOtpVerificationSkipped', 'receive_emails'] as const;

/** POST /payment-links: checks everything against the catalog, prices it, and stores the link. */
export async function createPaymentLink(db: Db, principal: Principal, body: PaymentLinkBody, publicUrl: string): Promise<PaymentLink> {
  if (!providerForMode(principal.mode)) {
    throw new AppError('service_unavailable', 'Live payments are not configured on this server yet, so a live key cannot make payment links. '
      + 'Use a test key (svc_test_…) to run checkout against the built-in sandbox.');
  }
  const problems: ErrorDetail[] = [];
  if (body.coupon !== undefined) {
    problems.push({ field: 'coupon', message: `"${body.coupon}" is not a coupon of this brand (coupons are not supported yet, so every coupon is refused)` });
  }
  if (body.redirectUrl !== undefined && !isHttpUrl(body.redirectUrl)) {
    problems.push({ field: 'redirectUrl', message: 'must be an http:// or https:// address' });
  }
  const catalog = await resolveItems(db, principal.brandId, body.items, problems);
  if (problems.length) throw invalidAll(problems);

  const priced = priceLink(body, catalog, new Date(), problems);
  const fields = await Promise.all(catalog.map(async (c) => c.kind === 'hub'
    ? { productTitle: c.hub.name, fields: [] }
    : { productTitle: c.product.title, fields: await productCheckoutFields(db, principal.brandId, c.product.id) }));
  const buyer = checkForm(body.form, fields, priced.tickets, problems);
  if (problems.length) throw invalidAll(problems);

  const extras: Record<string, unknown> = {};
  for (const key of recorded) if (body[key] !== undefined) extras[key] = body[key];
  const affiliates = body.items.map((i) => i.affiliate ?? null);
  if (affiliates.some((a) => a !== null)) extras.affiliates = affiliates;

  const first = catalog[0];
  const link = await repo.insertLink(db, {
    brand_id: principal.brandId,
    id: newId('plink'),
    mode: principal.mode,
    resource_id: first.kind === 'hub' ? first.hub.id : first.product.id,
    purchases: priced.purchases,
    line_items: priced.lineItems,
    amount: priced.amount,
    currency: priced.currency,
    buyer_name: buyer.name,
    buyer_email: buyer.email,
    buyer_phone: buyer.phone,
    form_data: buyer.answers,
    guests: body.form.guests ?? [],
    redirect_url: body.redirectUrl ?? null,
    metadata: body.metadata ?? {},
    extras,
  });
  return {
    link: checkoutUrl(publicUrl, link.brand_id, link.id),
    id: link.id,
    amount: toMajor(link.amount, link.currency),
    currency: link.currency,
  };
}

/** The hosted checkout page of a link: brand and link id together find it by its primary key. */
export const checkoutUrl = (publicUrl: string, brandId: string, linkId: string) => `${publicUrl}/checkout/${brandId}/${linkId}`;

function isHttpUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * Each item's product (or hub) and tier, from the brand's own catalog. Another brand's product is
 * answered exactly like an unknown one.
 */
async function resolveItems(db: Queryable, brandId: string, items: PaymentLinkBody['items'], problems: ErrorDetail[]): Promise<CatalogItem[]> {
  const resolved: CatalogItem[] = [];
  for (const [i, input] of items.entries()) {
    const product = await findProduct(db, brandId, input.id);
    const hub = product ? undefined : await requireHub(db, brandId, input.id).catch(() => undefined);
    if (!product && !hub) {
      problems.push({ field: `items[${i}].id`, index: i, message: `no product with id "${input.id}" exists` });
      continue;
    }
    const tier = await findTier(db, brandId, input.plan);
    const owns = tier && (product ? tier.product_id === product.id : tier.hub_id === hub!.id);
    if (!tier || !owns) {
      problems.push({ field: `items[${i}].plan`, index: i, message: `"${input.plan}" is not a tier of ${product ? `product "${product.title}"` : `hub "${hub!.name}"`}` });
      continue;
    }
    resolved.push(product
      ? { kind: 'product', product, tier, items: await productItems(db, brandId, product.id) }
      : { kind: 'hub', hub: hub!, tier });
  }
  return resolved;
}

/**
 * POST /payments/verify: asks the provider about a pending transaction and settles it if the
 * provider has an outcome. Idempotent: settling is conditional on `pending`, so however many
 * calls race, the change and its events happen once.
 */
export async function verifyPayment(db: Db, principal: Principal, txref: string) {
  const attempt = await repo.findAttempt(db, principal.brandId, principal.mode, txref);
  if (!attempt) throw notFound('transaction');
  if (attempt.status !== 'pending') return renderTransaction(attempt);
  const state = await providerState(db, attempt);
  if (state.status !== 'succeeded' && state.status !== 'failed') return renderTransaction(attempt);
  return renderTransaction(await db.transaction((tx) => settleAttempt(tx, attempt, state)));
}
