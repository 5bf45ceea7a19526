import type { Db, Queryable } from '../db/client.ts';
import { AppError, invalid, notFound } from '../errors.ts';
import { newId } from '../ids.ts';
import type { Principal } from '../auth/principal.ts';
import type { PaymentProvider, PaymentState } from '../payments/provider.ts';
import type { PaymentProviders } from '../payments/providers.ts';
import * as transactions from '../transactions/repository.ts';
import type { TransactionRow } from '../transactions/repository.ts';
import { renderTransaction } from '../transactions/service.ts';
import { newTxref } from '../transactions/lifecycle.ts';
import * as repo from './repository.ts';
import type { PaymentLinkRow } from './repository.ts';
import { settlePayment, type FinalState } from './service.ts';
import { holdStock } from './stock.ts';
import { renewHold } from '../bookings/service.ts';
import type { ShippingChoice } from '../shipping/checkout.ts';
import type { Attribution } from '../transactions/repository.ts';
import type { AppliedCoupon } from '../coupons/apply.ts';

/**
 * The checkout flows that must commit between steps (DESIGN.md, Who commits): the only code in
 * this domain that opens more than one transaction.
 *
 * Paying a link, in three steps, so that no step can charge twice or grant twice:
 *  1. under a lock on the link, join the link's pending payment or record a new one (a pending
 *     transaction with the provider's payment reference), and commit it, so the payment exists
 *     before any money moves and verify can always find it;
 *  2. confirm the payment with the provider (idempotent per reference: a second confirmation
 *     charges nothing and reads the first one's outcome);
 *  3. settle: one conditional update moves the transaction out of `pending`, and only the caller
 *     that moved it completes the link, grants memberships and records the events, all in that
 *     same database transaction (checkout/service.ts, settlePayment).
 * If the process dies between 2 and 3, the transaction stays pending until POST /payments/verify
 * (or the buyer's next submission) asks the provider and settles it.
 */

export interface PayResult {
  link: PaymentLinkRow;
  payment: TransactionRow;
  /** Where the buyer finishes paying when the provider hosts that page (Stripe Checkout); the payment is pending meanwhile. */
  redirectUrl?: string;
}

const isFinal = (s: PaymentState): s is FinalState => s.status === 'succeeded' || s.status === 'failed';

/** The provider that takes a link's payment; free links need none. */
function providerOf(providers: PaymentProviders, link: PaymentLinkRow): PaymentProvider | undefined {
  if (link.amount === 0) return undefined;
  const provider = providers.forMode(link.mode);
  if (!provider) throw new AppError('not_configured', 'Live payments are not configured on this server, so this link cannot be paid.');
  return provider;
}

/** The hosted page's form post: pays the link with what the buyer typed. */
export async function payLink(db: Db, providers: PaymentProviders, brandId: string, linkId: string, details: Record<string, string>): Promise<PayResult> {
  const link = await repo.findLink(db, brandId, linkId);
  if (!link) throw notFound('payment link');
  if (link.status === 'completed') return { link, payment: await paidWith(db, link) };
  const provider = providerOf(providers, link);
  const problem = provider?.checkDetails(details);
  if (problem) throw invalid('card', problem);

  const begun = await db.transaction((tx) => beginPayment(tx, providers, brandId, linkId));
  if (begun.link.status === 'completed') return begun;
  const { payment } = begun;
  const state: PaymentState = provider && payment.provider_reference
    ? await provider.confirmPayment(db, { brandId, reference: payment.provider_reference, details })
    : { status: 'succeeded' };
  if (!isFinal(state)) return state.status === 'pending' && state.redirectUrl ? { ...begun, redirectUrl: state.redirectUrl } : begun;
  const settled = await db.transaction((tx) => settlePayment(tx, providers, payment, state));
  return { link: (await repo.findLink(db, brandId, linkId))!, payment: settled };
}

/** Step 1: the link's pending payment, or a new one; a paid link returns the payment that paid it. */
export async function beginPayment(tx: Queryable, providers: PaymentProviders, brandId: string, linkId: string): Promise<PayResult> {
  const link = await repo.findLink(tx, brandId, linkId, { forUpdate: true });
  if (!link) throw notFound('payment link');
  if (link.status === 'completed') return { link, payment: await paidWith(tx, link) };
  const pending = await transactions.pendingForLink(tx, brandId, linkId);
  if (pending) return { link, payment: pending };
  const provider = providerOf(providers, link);
  // Before the provider is asked: a sold-out tier refuses here, with nothing charged (checkout/stock.ts).
  const txref = newTxref();
  const stockHeld = await holdStock(tx, link, txref);
  await renewHold(tx, link);
  const recurring = link.purchases.find((p) => p.recurrence);
  const recurrence = recurring?.recurrence;
  const applied = link.extras.coupon as AppliedCoupon | undefined;
  const coupon = applied
    ? { code: applied.code, discount: applied.discount, ...(recurring?.discount ? { renewals: recurring.discount } : {}) }
    : undefined;
  const opened = provider
    ? await provider.createPayment(tx, {
      brandId, txref, amount: link.amount, currency: link.currency, description: link.line_items[0]?.description ?? 'Purchase',
      checkout: { paymentLinkId: link.id, customerEmail: link.buyer_email, ...(recurrence ? { recurrence } : {}), ...(coupon ? { coupon } : {}) },
    })
    : undefined;
  const payment = await transactions.insertTransaction(tx, {
    brand_id: brandId,
    id: newId('txn'),
    txref,
    mode: link.mode,
    type: 'purchase',
    status: 'pending',
    amount: link.amount,
    currency: link.currency,
    customer_name: link.buyer_name,
    customer_email: link.buyer_email,
    resource_id: link.resource_id,
    metadata: link.metadata,
    payment_link_id: link.id,
    provider: provider?.name ?? null,
    provider_reference: opened?.reference ?? null,
    app_id: link.app_id ?? null,
    stock_held: stockHeld,
    attribution: attributionOf(link),
    ...couponOf(link),
    shipping: (link.extras.shipping as ShippingChoice | undefined) ?? null,
  });
  return { link, payment };
}

/** The link's utmRef, adClickID and adType (recorded as sent), carried onto its payments. */
function attributionOf(link: PaymentLinkRow): Attribution | null {
  const a: Attribution = {};
  for (const key of ['utmRef', 'adClickID', 'adType'] as const) {
    const value = link.extras[key];
    if (typeof value === 'string' && value) a[key] = value;
  }
  return Object.keys(a).length ? a : null;
}

/** The coupon the link applied and what it took off, recorded on its payments. */
function couponOf(link: PaymentLinkRow): { coupon_code?: string; discount?: number } {
  const applied = link.extras.coupon as AppliedCoupon | undefined;
  return applied ? { coupon_code: applied.code, discount: applied.discount } : {};
}

async function paidWith(db: Queryable, link: PaymentLinkRow): Promise<TransactionRow> {
  const payment = link.transaction_id ? await transactions.findById(db, link.brand_id, link.transaction_id) : undefined;
  if (!payment) throw new Error(`Payment link ${link.id} is completed without its transaction.`);
  return payment;
}

/** What the provider now says about a pending payment (a free one has no provider: it is due to succeed). */
async function providerState(db: Queryable, providers: PaymentProviders, payment: TransactionRow): Promise<PaymentState> {
  if (payment.provider && payment.provider_reference) {
    const provider = providers.named(payment.provider);
    return provider ? provider.lookupPayment(db, { brandId: payment.brand_id, reference: payment.provider_reference }) : { status: 'pending' };
  }
  return payment.payment_link_id && payment.amount === 0 ? { status: 'succeeded' } : { status: 'pending' };
}

/** POST /payments/verify: reconcilePayment for the transaction with this txref. Safe to repeat. */
export async function verifyPayment(db: Db, providers: PaymentProviders, principal: Principal, txref: string) {
  const payment = await transactions.findByTxref(db, principal.brandId, principal.mode, txref);
  if (!payment) throw notFound('transaction');
  return renderTransaction(await reconcilePayment(db, providers, payment));
}

/**
 * Asks the provider about a pending payment and settles it if the provider has an outcome
 * (verify, and the buyer coming back from Stripe's page). Settling is conditional on `pending`,
 * so however many callers race (webhooks included), the change and its events happen once.
 */
export async function reconcilePayment(db: Db, providers: PaymentProviders, payment: TransactionRow): Promise<TransactionRow> {
  if (payment.status !== 'pending') return payment;
  const state = await providerState(db, providers, payment);
  if (!isFinal(state)) return payment;
  return db.transaction((tx) => settlePayment(tx, providers, payment, state));
}
