import type Stripe from 'stripe';
import type { Db, Queryable } from '../../db/client.ts';
import { modeNow } from '../../clock/repository.ts';
import { settlePayment, type FinalState } from '../../checkout/service.ts';
import * as subscriptions from '../../subscriptions/repository.ts';
import { endProviderSubscription, recordProviderRenewal, type RenewalSettings } from '../../subscriptions/renewals.ts';
import * as transactions from '../../transactions/repository.ts';
import type { PaymentProviders } from '../providers.ts';
import { callStripe, stripeUnavailable } from './calls.ts';
import { claimProviderEvent } from './repository.ts';
import { applyReportedRefund } from '../../refunds/provider-refunds.ts';
import { applyReportedDispute } from '../../refunds/disputes.ts';
import type { ProviderCancellation } from '../../subscriptions/access.ts';
import { refundState, stripeDuration } from './provider.ts';

/**
 * What each Stripe event does (docs/subscriptions.md, "Live payments with Stripe"). Stripe
 * delivers at least once and in no promised order, so:
 *  - every event acted on is recorded (provider_events) in the same transaction as its effect,
 *    and a second delivery of it does nothing;
 *  - a purchase settles through settlePayment, conditional on the transaction still being
 *    pending: whichever of checkout.session.completed, payment_intent.succeeded or the first
 *    invoice.paid comes first settles it, the others find it settled; a failure that arrives
 *    after a success (or a success after a failure) changes nothing;
 *  - renewals are keyed by the invoice: a payment_failed for an invoice already paid is ignored.
 * Events for objects that are not ours (no txref, another system's checkout) are acknowledged
 * and ignored, so Stripe stops sending them.
 *
 * payment_intent.payment_failed is deliberately not acted on: during Checkout a declined card
 * is one attempt, and the buyer can try another card on the same session. The session expiring
 * (checkout.session.expired) is what fails our transaction.
 */

export type StripeEventOutcome = 'applied' | 'duplicate' | 'ignored';

export interface StripeEventContext {
  payments: PaymentProviders;
  renewals: RenewalSettings;
  stripe: Stripe;
}

const live = 'live' as const;
const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
const idOf = (ref: unknown) => text(ref) ?? (ref && typeof ref === 'object' ? text((ref as { id?: unknown }).id) : null);

/** Our txref and brand, from what we put on the session (and its payment intent or subscription). */
function ours(metadata: Stripe.Metadata | null | undefined, clientReference?: string | null) {
  return { brandId: text(metadata?.brand_id), txref: text(clientReference) ?? text(metadata?.txref) };
}

/** The brand an event is about, as far as it says: recorded beside the event id. */
function brandOf(event: Stripe.Event): string | null {
  const object = event.data.object as { metadata?: Stripe.Metadata | null; parent?: Stripe.Invoice.Parent | null };
  return text(object.metadata?.brand_id) ?? text(object.parent?.subscription_details?.metadata?.brand_id);
}

function invoiceSubscription(invoice: Stripe.Invoice) {
  const details = invoice.parent?.subscription_details;
  return { stripeSubscription: idOf(details?.subscription), brandId: text(details?.metadata?.brand_id), txref: text(details?.metadata?.txref) };
}

/** Settles the live purchase with this txref, if it is a Stripe payment of ours (and of this session, when one is named). */
async function settlePurchase(tx: Queryable, payments: PaymentProviders, ref: { brandId: string | null; txref: string | null; sessionId?: string }, state: FinalState) {
  if (!ref.brandId || !ref.txref) return 'ignored';
  const payment = await transactions.findByTxref(tx, ref.brandId, live, ref.txref);
  if (!payment || payment.provider !== 'stripe') return 'ignored';
  if (ref.sessionId && payment.provider_reference !== ref.sessionId) return 'ignored';
  await settlePayment(tx, payments, payment, state);
  return 'applied';
}

const paidStatuses = new Set(['paid', 'no_payment_required']);

/**
 * refund.created / refund.updated / refund.failed (docs/refunds.md): the outcome of a refund we
 * left pending, or a refund made in Stripe's dashboard. Ours carry our ids in their metadata; for
 * one made in Stripe's dashboard the payment intent's metadata names our txref (a one-off
 * purchase's does; an invoice's does not, so such a refund of a subscription payment is not
 * matched). Stripe subscriptions the refund ended are returned to stop after commit.
 */
async function applyRefundEvent(tx: Queryable, ctx: StripeEventContext, refund: Stripe.Refund, stop: ProviderCancellation[]): Promise<StripeEventOutcome> {
  const meta = refund.metadata ?? {};
  let brandId = text(meta.brand_id);
  let txref = text(meta.txref);
  const intentId = idOf(refund.payment_intent);
  if (!text(meta.refund_id) && (!brandId || !txref) && intentId) {
    const intent = await callStripe(() => ctx.stripe.paymentIntents.retrieve(intentId));
    ({ brandId, txref } = ours(intent.metadata));
  }
  const { outcome, cancellations } = await applyReportedRefund(tx, {
    provider: 'stripe', mode: live, reference: refund.id, amount: refund.amount, state: refundState(refund),
    reason: text(meta.reason) ?? (refund.reason ? `${refund.reason.replaceAll('_', ' ')} (refunded in Stripe)` : 'Refunded in Stripe'),
    refundId: text(meta.refund_id), brandId, txref,
  });
  stop.push(...cancellations);
  return outcome;
}

/**
 * charge.dispute.created / charge.dispute.closed (docs/refunds.md, Disputes): the disputed payment
 * is found through its payment intent's metadata (a one-off purchase names our txref; an invoice's
 * does not, so a dispute of a subscription payment is not matched), marked, and a lost dispute is
 * recorded as a refund. Stripe subscriptions that refund ended are returned to stop after commit.
 */
async function applyDisputeEvent(tx: Queryable, ctx: StripeEventContext, dispute: Stripe.Dispute, closed: boolean, stop: ProviderCancellation[]): Promise<StripeEventOutcome> {
  const intentId = idOf(dispute.payment_intent);
  if (!intentId) return 'ignored';
  const intent = await callStripe(() => ctx.stripe.paymentIntents.retrieve(intentId));
  const { outcome, cancellations } = await applyReportedDispute(tx, {
    provider: 'stripe', mode: live, reference: dispute.id, ...ours(intent.metadata), amount: dispute.amount, status: dispute.status,
    reason: text(dispute.reason), closed,
  });
  stop.push(...cancellations);
  return outcome;
}

async function apply(tx: Queryable, ctx: StripeEventContext, event: Stripe.Event, stop: ProviderCancellation[]): Promise<StripeEventOutcome> {
  switch (event.type) {
    case 'charge.dispute.created':
    case 'charge.dispute.closed':
      return applyDisputeEvent(tx, ctx, event.data.object, event.type === 'charge.dispute.closed', stop);
    case 'refund.created':
    case 'refund.updated':
    case 'refund.failed':
      return applyRefundEvent(tx, ctx, event.data.object, stop);
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const session = event.data.object;
      // A completed session still "unpaid" is a delayed method settling: async_payment_* follows.
      if (!paidStatuses.has(session.payment_status)) return 'ignored';
      return settlePurchase(tx, ctx.payments, { ...ours(session.metadata, session.client_reference_id), sessionId: session.id }, { status: 'succeeded' });
    }
    case 'checkout.session.async_payment_failed': {
      const session = event.data.object;
      return settlePurchase(tx, ctx.payments, { ...ours(session.metadata, session.client_reference_id), sessionId: session.id },
        { status: 'failed', code: 'payment_failed', message: 'The payment did not go through.' });
    }
    case 'checkout.session.expired': {
      const session = event.data.object;
      return settlePurchase(tx, ctx.payments, { ...ours(session.metadata, session.client_reference_id), sessionId: session.id },
        { status: 'failed', code: 'checkout_expired', message: 'The Stripe checkout expired before it was paid.' });
    }
    case 'payment_intent.succeeded': {
      const intent = event.data.object;
      return settlePurchase(tx, ctx.payments, ours(intent.metadata), { status: 'succeeded' });
    }
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const invoice = event.data.object;
      const { stripeSubscription, brandId, txref } = invoiceSubscription(invoice);
      if (!stripeSubscription || !brandId) return 'ignored';
      if (invoice.billing_reason === 'subscription_create') {
        // The first invoice is the purchase itself: paid, it settles like the session does (it
        // may arrive first); its failure is the buyer's card on the Checkout page, who can retry.
        return event.type === 'invoice.paid' ? settlePurchase(tx, ctx.payments, { brandId, txref }, { status: 'succeeded' }) : 'ignored';
      }
      const sub = await subscriptions.findByProviderMethod(tx, brandId, 'stripe', stripeSubscription);
      if (!sub || !invoice.id) return 'ignored';
      const now = await modeNow(tx, brandId, live);
      const recorded = await recordProviderRenewal(tx, sub, event.type === 'invoice.paid'
        ? { reference: invoice.id, amount: invoice.amount_paid, state: { status: 'succeeded' } }
        : {
          reference: invoice.id,
          amount: invoice.amount_due,
          state: { status: 'failed', code: 'card_declined', message: 'Stripe could not charge the saved payment method.' },
          retryAt: invoice.next_payment_attempt ? new Date(invoice.next_payment_attempt * 1000) : null,
        }, ctx.renewals, now);
      return recorded ? 'applied' : 'ignored';
    }
    case 'customer.subscription.deleted': {
      const stripeSub = event.data.object;
      const brandId = text(stripeSub.metadata?.brand_id);
      if (!brandId) return 'ignored';
      const sub = await subscriptions.findByProviderMethod(tx, brandId, 'stripe', stripeSub.id);
      if (!sub) return 'ignored';
      await endProviderSubscription(tx, sub, await modeNow(tx, brandId, live));
      return 'applied';
    }
    default:
      return 'ignored';
  }
}

/** The Stripe subscription an event is about, if any: after it, one whose last period we have been paid for must stop billing. */
function stripeSubscriptionOf(event: Stripe.Event): { brandId: string; id: string } | undefined {
  if (event.type.startsWith('invoice.')) {
    const { stripeSubscription, brandId } = invoiceSubscription(event.data.object as Stripe.Invoice);
    return stripeSubscription && brandId ? { brandId, id: stripeSubscription } : undefined;
  }
  if (event.type.startsWith('checkout.session.')) {
    const session = event.data.object as Stripe.Checkout.Session;
    const brandId = text(session.metadata?.brand_id);
    const id = idOf(session.subscription);
    return brandId && id ? { brandId, id } : undefined;
  }
  return undefined;
}

/**
 * A subscription with `count` periods is `completed` at its last payment (docs/subscriptions.md);
 * Stripe would bill on, so it is told to stop at the end of that period. Checked after every
 * invoice or session event, duplicates included, so a failed call is made again when Stripe
 * redelivers the event (our 503 makes it redeliver).
 */
async function stopBillingIfCompleted(db: Db, ctx: StripeEventContext, event: Stripe.Event) {
  const target = stripeSubscriptionOf(event);
  if (!target) return;
  const sub = await subscriptions.findByProviderMethod(db, target.brandId, 'stripe', target.id);
  if (sub?.status !== 'completed') return;
  await callStripe(() => ctx.stripe.subscriptions.update(target.id, { cancel_at_period_end: true }, { idempotencyKey: `complete-${sub.id}` }));
}

/**
 * A coupon whose duration Stripe could not count (a daily or weekly plan's lasts `forever` in
 * Stripe: provider.ts, stripeDuration) is removed from the Stripe subscription once its last
 * discounted payment is in, so the next renewal is billed at the full price. Checked after every
 * invoice or session event, duplicates included, like stopBillingIfCompleted.
 */
async function endDiscountIfOver(db: Db, ctx: StripeEventContext, event: Stripe.Event) {
  const target = stripeSubscriptionOf(event);
  if (!target) return;
  const sub = await subscriptions.findByProviderMethod(db, target.brandId, 'stripe', target.id);
  if (!sub || sub.discount_periods === null || sub.discount_periods === undefined || sub.periods_paid !== sub.discount_periods) return;
  if (stripeDuration({ periodic: sub.periodic, interval: sub.period_interval }, { periods: sub.discount_periods }).duration !== 'forever') return;
  try {
    await ctx.stripe.subscriptions.deleteDiscount(target.id, {}, { idempotencyKey: `discount-over-${sub.id}` });
  } catch (err) {
    // Already gone (removed in Stripe's dashboard, or by an earlier delivery of this event): the goal is met.
    if ((err as { code?: string }).code !== 'resource_missing') throw stripeUnavailable(err);
  }
}

/** Acts on one verified Stripe event, once (see the top of this file). */
export async function handleStripeEvent(db: Db, ctx: StripeEventContext, event: Stripe.Event): Promise<StripeEventOutcome> {
  const stop: ProviderCancellation[] = [];
  const outcome = await db.transaction(async (tx) => {
    if (!await claimProviderEvent(tx, { provider: 'stripe', id: event.id, type: event.type, brandId: brandOf(event) })) return 'duplicate' as const;
    return apply(tx, ctx, event, stop);
  });
  // A refund that ended a subscription Stripe bills: Stripe stops billing it too (after commit).
  for (const s of stop) await ctx.payments.named(s.provider)?.cancelSubscription?.({ reference: s.reference, atPeriodEnd: false });
  await stopBillingIfCompleted(db, ctx, event);
  await endDiscountIfOver(db, ctx, event);
  return outcome;
}
