import Stripe from 'stripe';
import type { Recurrence } from '../../checkout/pricing.ts';
import type { NewPayment, PaymentProvider, PaymentState, RefundState } from '../provider.ts';
import { callStripe, stripeUnavailable } from './calls.ts';

/**
 * Live payments through Stripe Checkout (README, Live payments with Stripe). Our hosted page
 * shows the order; paying sends the buyer to a Stripe Checkout Session made for the computed
 * amount, and Stripe's webhook (payments/stripe/webhook.ts) settles the transaction. The payment
 * reference we keep is the Checkout Session id (cs_…); our txref travels as the session's
 * client_reference_id and in its metadata (and the payment intent's or subscription's), so every
 * event can be matched to ours.
 *
 * A recurring tier becomes a subscription-mode session whose price recurs; Stripe Billing then
 * bills the renewals and tells us with invoice.* events (docs/subscriptions.md), so
 * chargeSavedMethod is never asked of this provider.
 */

const intervals: Record<Recurrence['periodic'], Stripe.Checkout.SessionCreateParams.LineItem.PriceData.Recurring.Interval> = {
  daily: 'day', weekly: 'week', monthly: 'month', yearly: 'year',
};

/**
 * How long a subscription's Stripe coupon lasts, for a coupon that lasts `periods` payments in
 * all (null: every one; no renewals: the first only). Stripe counts a limited duration in months,
 * so a monthly or yearly plan's maps exactly (3 monthly payments: 3 months; the invoice at the
 * end of them is full price). A daily or weekly plan's cannot: its coupon lasts `forever` and the
 * webhook handler removes it once the last discounted payment is in (webhook.ts, endDiscountIfOver).
 */
export function stripeDuration(recurrence: Pick<Recurrence, 'periodic' | 'interval'>, renewals?: { periods: number | null }): Pick<Stripe.CouponCreateParams, 'duration' | 'duration_in_months'> {
  if (!renewals) return { duration: 'once' };
  if (renewals.periods === null || !monthsPer[recurrence.periodic]) return { duration: 'forever' };
  return { duration: 'repeating', duration_in_months: renewals.periods * recurrence.interval * monthsPer[recurrence.periodic]! };
}

const monthsPer: Partial<Record<Recurrence['periodic'], number>> = { monthly: 1, yearly: 12 };

/** What a Checkout Session says about its payment. */
export function sessionState(session: Stripe.Checkout.Session): PaymentState {
  if (session.status === 'expired') {
    return { status: 'failed', code: 'checkout_expired', message: 'The Stripe checkout expired before it was paid.' };
  }
  if (session.status === 'complete') {
    // "unpaid" on a complete session: a delayed method (a bank debit) still settling; the
    // checkout.session.async_payment_* event brings the outcome.
    return session.payment_status === 'unpaid' ? { status: 'pending' } : { status: 'succeeded' };
  }
  return { status: 'pending', ...(session.url ? { redirectUrl: session.url } : {}) };
}

/** Stripe's refund statuses in ours: `requires_action` and `pending` wait; `canceled` is a failure. */
export function refundState(refund: Stripe.Refund): RefundState {
  if (refund.status === 'succeeded') return { status: 'succeeded', reference: refund.id };
  if (refund.status === 'failed' || refund.status === 'canceled') {
    return { status: 'failed', reference: refund.id, message: `Stripe could not pay the refund back${refund.failure_reason ? ` (${refund.failure_reason})` : ''}.` };
  }
  return { status: 'pending', reference: refund.id };
}

const idOf = (ref: string | { id: string } | null | undefined) => (typeof ref === 'string' ? ref : ref?.id ?? null);

/** `checkoutOrigin`: where Stripe's Checkout pages are served (the fake's own origin in tests). */
export function stripeProvider(client: Stripe, publicUrl: string, checkoutOrigin = 'https://checkout.stripe.com'): PaymentProvider {
  const retrieve = (reference: string) => callStripe(() => client.checkout.sessions.retrieve(reference));
  /** The invoice's paid payment intent (a subscription's first invoice, or a renewal's). */
  const invoiceIntent = async (invoice: string) => {
    const payments = await callStripe(() => client.invoicePayments.list({ invoice, status: 'paid', limit: 10 }));
    return idOf(payments.data.find((p) => p.payment.type === 'payment_intent')?.payment.payment_intent);
  };
  /**
   * The payment intent a refund goes to: a payment-mode session's own; a subscription-mode
   * session's first invoice's; a renewal's invoice's (our renewals made by Stripe keep the invoice, in_…).
   */
  const paymentIntentOf = async (reference: string) => {
    if (reference.startsWith('in_')) return invoiceIntent(reference);
    const session = await retrieve(reference);
    const intent = idOf(session.payment_intent);
    if (intent) return intent;
    const invoice = idOf(session.invoice);
    return invoice ? invoiceIntent(invoice) : null;
  };
  return {
    name: 'stripe',
    // Stripe's page asks for the card; ours only shows the order and a button.
    detailFields: [],
    hostedPage: { name: 'Stripe', origin: checkoutOrigin },

    checkDetails: () => null,

    checkPurchases(purchases) {
      // One Stripe subscription per checkout, and all its prices must share one interval.
      return purchases.filter((p) => p.recurrence).length > 1
        ? 'a live payment link may hold one recurring tier (Stripe bills each subscription on its own checkout)'
        : null;
    },

    async createPayment(_db, payment: NewPayment) {
      if (!payment.checkout) throw new Error('Stripe payments start from a payment link; Stripe bills renewals itself.');
      const { paymentLinkId, customerEmail, recurrence, coupon } = payment.checkout;
      const currency = payment.currency.toLowerCase();
      const product_data = { name: payment.description };
      const metadata = { txref: payment.txref, brand_id: payment.brandId, payment_link_id: paymentLinkId };
      const lineItems: Stripe.Checkout.SessionCreateParams.LineItem[] = [];
      let discounts: Stripe.Checkout.SessionCreateParams.Discount[] | undefined;
      if (recurrence) {
        lineItems.push({
          quantity: 1,
          price_data: { currency, unit_amount: recurrence.amount, product_data, recurring: { interval: intervals[recurrence.periodic], interval_count: recurrence.interval } },
        });
        // The coupon's discount is a Stripe coupon on the subscription, so Stripe's own renewals
        // carry it for as long as it lasts; it comes off this first invoice too, and the line
        // charged once makes up the rest so the invoice totals exactly what we priced.
        const off = coupon ? coupon.renewals?.amount ?? coupon.discount : 0;
        if (coupon && off > 0) {
          const made = await callStripe(() => client.coupons.create({
            amount_off: off,
            currency,
            ...stripeDuration(recurrence, coupon.renewals),
            max_redemptions: 1,
            name: `Coupon ${coupon.code}`.slice(0, 40),
            metadata: { ...metadata, coupon_code: coupon.code },
          }, { idempotencyKey: `coupon-${payment.txref}` }));
          discounts = [{ coupon: made.id }];
        }
        // What the first payment holds beyond the recurring price (add-ons, tickets) is charged once.
        const once = payment.amount + off - recurrence.amount;
        if (once < 0) throw new Error(`The first payment (${payment.amount}) is less than the recurring price less the coupon (${recurrence.amount - off}).`);
        if (once > 0) lineItems.push({ quantity: 1, price_data: { currency, unit_amount: once, product_data: { name: 'Charged with the first payment only' } } });
      } else {
        // A one-off payment is one line of what we priced, the coupon already taken off.
        lineItems.push({ quantity: 1, price_data: { currency, unit_amount: payment.amount, product_data } });
      }
      const page = `${publicUrl}/checkout/${encodeURIComponent(payment.brandId)}/${encodeURIComponent(paymentLinkId)}`;
      const session = await callStripe(() => client.checkout.sessions.create({
        mode: recurrence ? 'subscription' : 'payment',
        line_items: lineItems,
        ...(discounts ? { discounts } : {}),
        client_reference_id: payment.txref,
        customer_email: customerEmail,
        metadata,
        ...(recurrence ? { subscription_data: { metadata } } : { payment_intent_data: { metadata } }),
        success_url: `${page}/return?txref=${encodeURIComponent(payment.txref)}`,
        cancel_url: `${page}?cancelled=1`,
      }, { idempotencyKey: `checkout-session-${payment.txref}` }));
      return { reference: session.id };
    },

    // Nothing to confirm on our side: the buyer pays on Stripe's page. This reads where the
    // payment stands, and where to send the buyer while it is open.
    async confirmPayment(_db, { reference }) {
      return sessionState(await retrieve(reference));
    },

    async lookupPayment(_db, { reference }) {
      return sessionState(await retrieve(reference));
    },

    /** For a subscription-mode session: the Stripe subscription (sub_…) that bills the renewals. */
    async savedMethodOf(_db, { reference }) {
      return idOf((await retrieve(reference)).subscription);
    },

    async chargeSavedMethod() {
      throw new Error('Stripe bills the renewals of Stripe subscriptions itself; the worker never charges them.');
    },

    /**
     * The buyer portal's "Update card": Stripe's billing portal, opened straight on its
     * payment-method flow for the subscription's customer. Stripe keeps the card, makes it the
     * default, and pays an open (failed) invoice with it; invoice.paid then tells us.
     */
    async cardUpdateUrl({ reference, returnUrl }) {
      const sub = await callStripe(() => client.subscriptions.retrieve(reference));
      const customer = idOf(sub.customer);
      if (!customer) throw stripeUnavailable(new Error('The Stripe subscription has no customer.'));
      const session = await callStripe(() => client.billingPortal.sessions.create({
        customer,
        return_url: returnUrl,
        flow_data: { type: 'payment_method_update', after_completion: { type: 'redirect', redirect: { return_url: returnUrl } } },
      }));
      return session.url;
    },

    async cancelSubscription({ reference, atPeriodEnd }) {
      if (atPeriodEnd) {
        await callStripe(() => client.subscriptions.update(reference, { cancel_at_period_end: true }, { idempotencyKey: `cancel-at-period-end-${reference}` }));
        return;
      }
      try {
        await client.subscriptions.cancel(reference, {}, { idempotencyKey: `cancel-${reference}` });
      } catch (err) {
        // Already cancelled in Stripe (in its dashboard, or by an earlier try): the goal is met.
        if ((err as { code?: string }).code === 'resource_missing') return;
        throw stripeUnavailable(err);
      }
    },

    async refundPayment(_db, r) {
      const intent = await paymentIntentOf(r.reference);
      if (!intent) return { status: 'failed', reference: null, message: 'Stripe holds no payment for this transaction to refund.' };
      try {
        const refund = await client.refunds.create({
          payment_intent: intent,
          amount: r.amount,
          // Stripe's `reason` is one of three words; ours is free text, kept in the metadata.
          metadata: { txref: r.txref, brand_id: r.brandId, refund_id: r.refundId, ...(r.reason ? { reason: r.reason.slice(0, 500) } : {}) },
        }, { idempotencyKey: `refund-${r.refundId}` });
        return refundState(refund);
      } catch (err) {
        // Stripe refusing this refund (already refunded in its dashboard, more than is left): a
        // failed refund with Stripe's words, not an outage.
        if (err instanceof Stripe.errors.StripeInvalidRequestError) return { status: 'failed', reference: null, message: `Stripe refused the refund: ${err.message}` };
        throw stripeUnavailable(err);
      }
    },

    async lookupRefund(_db, { reference }) {
      return refundState(await callStripe(() => client.refunds.retrieve(reference)));
    },
  };
}
