import { findProfile } from '../brands/repository.ts';
import { portalPath } from '../brands/profile.ts';
import { findReceiptOf } from '../mail/repository.ts';
import type { Queryable } from '../db/client.ts';
import { AppError, invalidAll, notFound, type ErrorDetail } from '../errors.ts';
import { requireHub } from '../hubs/repository.ts';
import { newId } from '../ids.ts';
import { appOf, type Principal } from '../auth/principal.ts';
import { toMajor } from '../money.ts';
import type { PaymentProviders } from '../payments/providers.ts';
import { findProduct, findTier, productCheckoutFields, productItems } from '../products/repository.ts';
import { activateGrant, announceJoined, type Granted } from '../memberships/service.ts';
import { modeNow } from '../clock/repository.ts';
import { notePayable } from '../payouts/repository.ts';
import { startSubscription } from '../subscriptions/service.ts';
import * as transactions from '../transactions/repository.ts';
import type { TransactionRow } from '../transactions/repository.ts';
import { settleTransaction } from '../transactions/lifecycle.ts';
import { checkForm } from './form.ts';
import { releaseStock } from './stock.ts';
import { noteMarketingConsent } from '../memberships/repository.ts';
import { priceLink, type PurchaseTarget } from './pricing.ts';
import { urlShapeProblem } from '../security/url-guard.ts';
import { openPlayedDispute } from '../refunds/disputes.ts';
import { applyCoupon, discountOrder, orderLines } from '../coupons/apply.ts';
import { attributeSale, resolveAffiliateCodes } from '../affiliates/commissions.ts';
import * as repo from './repository.ts';
import { bookingOfTransaction, checkBooking, holdSlot, settleBooking } from '../bookings/service.ts';
import { dateTimeWords } from '../pages/words.ts';
import { checkShipping, withShipping } from '../shipping/checkout.ts';
import type { PaymentLinkRow } from './repository.ts';
import type { PaymentLink, PaymentLinkBody } from './schemas.ts';


/** Fields of the body that nothing acts on yet; kept on the link as sent, never dropped. */
const recorded = ['countryCode', 'booking', 'utmRef', 'adClickID', 'adType',
  'checkoutOtpVerificationSkipped', 'receive_emails'] as const;

/**
 * Everything POST /payment-links checks, without writing: the catalog, the price, the buyer's
 * form. Throws 400 validation_failed with every problem found. The web checkout
 * (checkout-links/pages.ts) runs it to show all of a form's problems at once.
 */
export async function checkPaymentLink(tx: Queryable, principal: Principal, body: PaymentLinkBody, providers: PaymentProviders) {
  const provider = providers.forMode(principal.mode);
  if (!provider) {
    throw new AppError('not_configured', 'Live payments are not configured on this server yet (set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET), '
      + 'so a live key cannot make payment links. Use a test key (svc_test_…) to run checkout against the built-in sandbox.');
  }
  const problems: ErrorDetail[] = [];
  const redirectProblem = body.redirectUrl === undefined ? undefined : urlShapeProblem(body.redirectUrl) ?? (isHttpUrl(body.redirectUrl) ? undefined : 'must be an http:// or https:// address');
  if (redirectProblem) problems.push({ field: 'redirectUrl', message: redirectProblem });
  const catalog = await resolveItems(tx, principal.brandId, body.items, problems);
  const affiliate = await resolveAffiliateCodes(tx, principal.brandId, principal.mode, body.items, problems);
  if (problems.length) throw invalidAll(problems);

  const priced = priceLink(body, catalog, new Date(), problems);
  const fields = await Promise.all(catalog.map(async (c) => c.kind === 'hub'
    ? { productTitle: c.hub.name, fields: [] }
    : { productTitle: c.product.title, fields: await productCheckoutFields(tx, principal.brandId, c.product.id) }));
  const buyer = checkForm(body.form, fields, priced.tickets, problems);
  const unsellable = provider.checkPurchases?.(priced.purchases);
  if (unsellable) problems.push({ field: 'items', message: unsellable });
  const coupon = body.coupon === undefined ? undefined : await applyCoupon(tx, {
    brandId: principal.brandId, mode: principal.mode, code: body.coupon, currency: priced.currency, email: buyer.email, lines: orderLines(priced, catalog.map((c) => (c.kind === 'hub' ? c.hub.id : c.product.hub_id))), now: new Date(),
  }, problems);
  const slot = await checkBooking(tx, principal, body.booking, bookingItems(body, catalog), problems);
  const shipping = await checkShipping(tx, principal.brandId, body, shippingItems(catalog), priced.currency, problems);
  if (problems.length) throw invalidAll(problems);
  return { catalog, priced: withShipping(coupon ? discountOrder(priced, coupon) : priced, shipping), buyer, coupon, affiliate, slot, shipping };
}

/** The items as the booking rules see them (bookings/service.ts). */
function bookingItems(body: PaymentLinkBody, catalog: PurchaseTarget[]) {
  return catalog.map((c, index) => ({
    index, productId: c.kind === 'hub' ? c.hub.id : c.product.id, productType: c.kind === 'hub' ? 'membership' : c.product.type,
    tierId: c.tier.id, count: body.items[index].count ?? 1,
  }));
}

/** The items as the shipping rules see them (shipping/checkout.ts). */
function shippingItems(catalog: PurchaseTarget[]) {
  return catalog.map((c, index) => (c.kind === 'hub'
    ? { index, productId: c.hub.id, productType: 'membership', title: c.hub.name }
    : { index, productId: c.product.id, productType: c.product.type, title: c.product.title }));
}

/** POST /payment-links: checks everything against the catalog, prices it, and stores the link. */
export async function createPaymentLink(
  tx: Queryable, principal: Principal, body: PaymentLinkBody, publicUrl: string, providers: PaymentProviders,
  /** Set by a reusable checkout link's page (checkout-links/pages.ts): the buyer's link points back at it. */
  from?: { checkoutLinkId: string },
): Promise<PaymentLink> {
  const { catalog, priced, buyer, coupon, affiliate, slot, shipping } = await checkPaymentLink(tx, principal, body, providers);

  const extras: Record<string, unknown> = {};
  for (const key of recorded) if (body[key] !== undefined) extras[key] = body[key];
  const affiliates = body.items.map((i) => i.affiliate ?? null);
  if (affiliates.some((a) => a !== null)) extras.affiliates = affiliates;
  // What the coupon took off, worked out once (coupons/apply.ts): the payment takes a use of it when it starts (checkout/stock.ts).
  if (coupon) extras.coupon = coupon;
  if (affiliate) extras.affiliateId = affiliate.id;
  // What the buyer chose for a physical product, carried onto the link's payments (checkout/flows.ts).
  if (shipping) extras.shipping = shipping;

  const first = catalog[0];
  const link = await repo.insertLink(tx, {
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
    via: from ? 'checkout_link' : principal.via,
    app_id: appOf(principal),
    checkout_link_id: from?.checkoutLinkId ?? null,
  });
  if (slot) await holdSlot(tx, principal, link.id, slot, { name: buyer.name, email: buyer.email });
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
async function resolveItems(db: Queryable, brandId: string, items: PaymentLinkBody['items'], problems: ErrorDetail[]): Promise<PurchaseTarget[]> {
  const resolved: PurchaseTarget[] = [];
  for (const [i, input] of items.entries()) {
    const product = await findProduct(db, brandId, input.id);
    const hub = product ? undefined : await requireHub(db, brandId, input.id).catch(() => undefined);
    if (!product && !hub) {
      problems.push({ field: `items[${i}].id`, index: i, message: `no product with id "${input.id}" exists` });
      continue;
    }
    // Held until the link is committed, so a catalog write cannot delete the tier it names (catalog/apply.ts).
    const tier = await findTier(db, brandId, input.plan, { forShare: true });
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

export type FinalState = { status: 'succeeded' } | { status: 'failed'; code: string; message: string };

/**
 * Step 3 of paying (checkout/flows.ts), in the caller's transaction: moves the payment to the
 * provider's outcome and, for the one caller that moved it, completes the link, grants the
 * memberships bought and records the events. Returns the transaction as it now stands.
 */
export async function settlePayment(tx: Queryable, providers: PaymentProviders, payment: TransactionRow, state: FinalState): Promise<TransactionRow> {
  // Before the transaction's event: the booking it pays for is confirmed (booking.confirmed
  // comes first) or let go, and a success earns its affiliate's commission.
  const moved = await settleTransaction(tx, payment, state, async (tx, moved) => {
    await settleBooking(tx, moved);
    return moved.status === 'succeeded' ? attributeSale(tx, moved) : moved;
  });
  if (!moved) return (await transactions.findById(tx, payment.brand_id, payment.id))!;
  if (moved.status === 'failed') {
    await releaseStock(tx, moved.brand_id, moved.mode, moved.stock_held);
    return moved;
  }
  if (moved.amount > 0) await notePayable(tx, moved.brand_id, moved.mode, await modeNow(tx, moved.brand_id, moved.mode));
  await grantPurchases(tx, providers, moved);
  // The sandbox's disputed test card: the buyer disputes it as soon as it is paid (refunds/disputes.ts).
  const provider = moved.provider && moved.provider_reference ? providers.named(moved.provider) : undefined;
  const dispute = await provider?.disputeOpenedBy?.(tx, { brandId: moved.brand_id, reference: moved.provider_reference! });
  if (!dispute) return moved;
  await openPlayedDispute(tx, moved, dispute, provider!.name);
  return (await transactions.findById(tx, moved.brand_id, moved.id))!;
}

/** What a paid link grants: memberships of its products and hubs, a subscription for a recurring tier, and their member.joined. */
async function grantPurchases(tx: Queryable, providers: PaymentProviders, moved: TransactionRow): Promise<void> {
  const link = moved.payment_link_id ? await repo.completeLink(tx, moved.brand_id, moved.payment_link_id, moved.id) : undefined;
  if (!link) return;
  for (const purchase of link.purchases) {
    const targets = [
      ...(purchase.productId ? [{ productId: purchase.productId, hubId: null }] : []),
      ...(purchase.hubId ? [{ productId: null, hubId: purchase.hubId }] : []),
    ];
    const granted: Granted[] = [];
    for (const target of targets) {
      granted.push(await activateGrant(tx, {
        brandId: link.brand_id,
        mode: link.mode,
        ...target,
        name: link.buyer_name,
        email: link.buyer_email,
        phone: link.buyer_phone,
        fields: link.form_data,
        plan: purchase.tierId,
      }));
    }
    const consent = link.extras.receive_emails;
    if (typeof consent === 'boolean' && granted.length) {
      const noted = await noteMarketingConsent(tx, link.brand_id, granted.map((g) => g.row.id), consent);
      for (const g of granted) g.row = noted.find((r) => r.id === g.row.id) ?? g.row;
    }
    const { recurrence } = purchase;
    // A recurring tier's member.joined carries the subscription, so it is announced once that is attached.
    if (recurrence && granted.length) await startSubscription(tx, providers, moved, { ...purchase, recurrence }, granted);
    else await announceJoined(tx, granted, { appId: moved.app_id ?? null });
  }
}

/** What the hosted checkout page shows: the link, its brand's name, and the payment that paid it once paid. */
export async function checkoutView(db: Queryable, brandId: string, linkId: string) {
  const link = await repo.findLink(db, brandId, linkId);
  if (!link) throw notFound('checkout');
  const brand = await findProfile(db, brandId);
  const paid = link.status === 'completed' && link.transaction_id ? await transactions.findById(db, brandId, link.transaction_id) : undefined;
  // embedOrigins: the sites that may frame the page (the overlay, pages/embed.ts).
  return {
    link, brandName: brand?.display_name ?? brand?.name ?? '', embedOrigins: brand?.embed_origins ?? [], paid,
    // The result page's next steps: where the buyer finds what they bought, and whom to ask.
    supportEmail: brand?.support_email ?? undefined, portalPath: brand ? portalPath(brand) : undefined,
  };
}

/** Whether a receipt for this payment was queued to the buyer (and not given up on): the result page says so only then. */
export async function receiptQueued(db: Queryable, payment: TransactionRow): Promise<string | undefined> {
  const receipt = await findReceiptOf(db, payment.brand_id, payment.txref);
  return receipt && receipt.status !== 'failed' && receipt.status !== 'unsent' ? receipt.to_address : undefined;
}

/** The session a payment booked, in words in the buyer's time zone (the result page). */
export async function bookingWords(db: Queryable, payment: TransactionRow): Promise<string | undefined> {
  const booked = await bookingOfTransaction(db, payment.brand_id, payment.id);
  return booked ? dateTimeWords(booked.starts_at, booked.timezone) : undefined;
}

/** One payment of this link, by its txref (the result page). */
export async function paymentOfLink(db: Queryable, link: PaymentLinkRow, txref: string) {
  const payment = await transactions.findByTxref(db, link.brand_id, link.mode, txref);
  if (!payment || payment.payment_link_id !== link.id) throw notFound('payment');
  return payment;
}
