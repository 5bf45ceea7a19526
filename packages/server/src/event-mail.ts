import type { Queryable } from './db/client.ts';
import type { EventSubscriber, RecordedEvent } from './events/service.ts';
import { assignInvoiceNumber, invoiceLabel } from './invoices/repository.ts';
import { toMinor } from './money.ts';
import { findRefund } from './transactions/refunds-repository.ts';
import { findProfile } from './brands/repository.ts';
import { portalPath } from './brands/profile.ts';
import * as transactions from './transactions/repository.ts';
import { purchaseOf } from './mail/facts.ts';
import { membershipItem } from './memberships/repository.ts';
import { queueMail, queueOwnerMail } from './mail/service.ts';
import { bookingOfTransaction } from './bookings/service.ts';
import { findByPendingTransaction } from './subscriptions/repository.ts';
import { addressLines } from './shipping/address.ts';

/**
 * Mail that events cause, queued in the transaction that records them (subscribers.ts wires
 * it): a receipt (and its invoice number) for every succeeded payment or renewal, a notice for a
 * failed renewal, a membership's end, a refund, the renewal that starts a counted subscription's
 * last period, and a settled payout to the owners. A rolled-back payment
 * records no event, so it sends no mail.
 */
export const mailOnEvents: EventSubscriber = {
  name: 'mail',
  async recorded(tx, events) {
    for (const e of events) {
      if (e.type === 'transaction.succeeded') await onPaid(tx, e);
      else if (e.type === 'transaction.failed' && e.data.type === 'renewal') await onRenewalFailed(tx, e);
      else if (e.type === 'subscription.expired') await onEnded(tx, e);
      else if (e.type === 'payout.settled') await onPayout(tx, e);
      else if (e.type === 'transaction.refunded') await onRefunded(tx, e);
      else if (e.type === 'subscription.renewed') await onRenewed(tx, e);
      else if (e.type === 'order.shipped' || e.type === 'order.ready_for_pickup') await onFulfilment(tx, e);
    }
  },
};

/**
 * The transaction an event is about. An event may name none that exists (a sample recorded by
 * hand): then there is nothing to mail, and a mail concern must never fail the change itself.
 */
async function transactionOf(tx: Queryable, e: RecordedEvent) {
  return typeof e.data.txref === 'string' ? transactions.findByTxref(tx, e.brandId, e.mode, e.data.txref) : undefined;
}

async function onPaid(tx: Queryable, e: RecordedEvent) {
  const t = await transactionOf(tx, e);
  if (!t) return;
  const invoice = await assignInvoiceNumber(tx, { brandId: t.brand_id, mode: t.mode, transactionId: t.id, txref: t.txref });
  const bought = await purchaseOf(tx, t);
  const booked = await bookingOfTransaction(tx, t.brand_id, t.id);
  // The receipt's link into the buyer portal, where they sign in with this address.
  const brand = await findProfile(tx, t.brand_id);
  await queueMail(tx, {
    brandId: t.brand_id, mode: t.mode, kind: 'receipt', to: { email: t.customer_email, name: t.customer_name },
    data: {
      buyerName: t.customer_name, item: bought.item, lines: bought.lines, amount: t.amount, currency: t.currency, txref: t.txref,
      paidAt: (t.updated_at ?? t.created_at).toISOString(), type: t.type === 'renewal' ? 'renewal' : 'purchase', invoiceNumber: invoiceLabel(invoice),
      ...(booked ? {
        booking: { id: booked.id, title: bought.item, startsAt: booked.starts_at.toISOString(), endsAt: booked.ends_at.toISOString(), timezone: booked.timezone },
      } : {}),
      ...(brand ? { portalPath: portalPath(brand), invoicePath: `${portalPath(brand)}/invoices/${encodeURIComponent(t.txref)}` } : {}),
    },
    dedupeKey: `receipt:${t.txref}`,
  });
}

async function onRenewalFailed(tx: Queryable, e: RecordedEvent) {
  const t = await transactionOf(tx, e);
  if (!t) return;
  const bought = await purchaseOf(tx, t);
  // The charge is still its subscription's pending one while its failure is recorded (subscriptions/renewals.ts).
  const sub = await findByPendingTransaction(tx, t.brand_id, t.id);
  const brand = await findProfile(tx, t.brand_id);
  await queueMail(tx, {
    brandId: t.brand_id, mode: t.mode, kind: 'renewal_failed', to: { email: t.customer_email, name: t.customer_name },
    data: {
      buyerName: t.customer_name, item: bought.item, amount: t.amount, currency: t.currency, txref: t.txref, reason: t.failure_message,
      ...(sub && brand ? { cardPath: `${portalPath(brand)}/memberships/${encodeURIComponent(sub.membership_id)}/card` } : {}),
    },
    dedupeKey: `renewal_failed:${t.txref}`,
  });
}

async function onEnded(tx: Queryable, e: RecordedEvent) {
  const m = (e.data as { membership?: { membershipId: string; name: string; email: string; hubID?: string; productID?: string; plan?: string } }).membership;
  if (!m?.email) return;
  const item = await membershipItem(tx, { brand_id: e.brandId, hub_id: m.hubID ?? null, product_id: m.productID ?? null, plan: m.plan ?? null });
  await queueMail(tx, {
    brandId: e.brandId, mode: e.mode, kind: 'membership_ended', to: { email: m.email, name: m.name },
    data: { buyerName: m.name, item, endedAt: e.createdAt.toISOString() },
    dedupeKey: `ended:${m.membershipId}:${e.id}`,
  });
}

async function onPayout(tx: Queryable, e: RecordedEvent) {
  const p = e.data as { id: string; amount: number; fee: number; currency: string; transactionCount: number; periodStart: string; periodEnd: string };
  if (typeof p.id !== 'string' || typeof p.currency !== 'string') return;
  await queueOwnerMail(tx, {
    brandId: e.brandId, mode: e.mode, kind: 'payout_settled',
    data: {
      payoutId: p.id, amount: toMinor(p.amount, p.currency) ?? 0, fee: toMinor(p.fee, p.currency) ?? 0, currency: p.currency,
      transactionCount: p.transactionCount, periodStart: p.periodStart, periodEnd: p.periodEnd, mode: e.mode, dashboardPath: '/dashboard/money/payouts',
    },
    dedupeKey: `payout:${p.id}`,
  });
}

async function onRefunded(tx: Queryable, e: RecordedEvent) {
  const t = await transactionOf(tx, e);
  const refund = (e.data as { refund?: { id?: unknown; amount?: unknown; reason?: unknown } }).refund;
  if (!t || typeof refund?.id !== 'string' || typeof refund.amount !== 'number') return;
  const bought = await purchaseOf(tx, t);
  const stored = await findRefund(tx, t.brand_id, refund.id);
  await queueMail(tx, {
    brandId: t.brand_id, mode: t.mode, kind: 'refund', to: { email: t.customer_email, name: t.customer_name },
    data: {
      buyerName: t.customer_name, item: bought.item, amount: toMinor(refund.amount, t.currency) ?? 0, refundedTotal: t.refunded_amount ?? 0,
      paid: t.amount, currency: t.currency, txref: t.txref, refundId: refund.id, reason: typeof refund.reason === 'string' ? refund.reason : null,
      refundedAt: e.createdAt.toISOString(), accessEnded: stored?.revoke_access === true,
    },
    dedupeKey: `refund:${refund.id}`,
  });
}

/**
 * The renewal that pays the last period of a counted tier (periodsPaid reaches count) tells the
 * buyer when it ends: the one moment that is both before the last period runs and certain (a
 * failed renewal before it never reaches it). A tier of one period has no renewal: its receipt
 * is all the buyer gets.
 */
async function onRenewed(tx: Queryable, e: RecordedEvent) {
  const d = e.data as { membership?: { membershipId: string; name: string; email: string; hubID?: string; productID?: string; plan?: string };
    subscription?: { count: number; periodsPaid: number; currentPeriodEnd: string; cancelAtPeriodEnd: boolean } };
  const m = d.membership;
  const sub = d.subscription;
  if (!m?.email || !sub || sub.count === 0 || sub.periodsPaid !== sub.count || sub.cancelAtPeriodEnd) return;
  const item = await membershipItem(tx, { brand_id: e.brandId, hub_id: m.hubID ?? null, product_id: m.productID ?? null, plan: m.plan ?? null });
  await queueMail(tx, {
    brandId: e.brandId, mode: e.mode, kind: 'subscription_ending', to: { email: m.email, name: m.name },
    data: { buyerName: m.name, item, endsAt: sub.currentPeriodEnd, periods: sub.count },
    dedupeKey: `ending:${m.membershipId}:${sub.currentPeriodEnd}`,
  });
}

/** An order shipped or ready for pickup (docs/shipping.md): the buyer hears where it is, from the order as it now stands. */
async function onFulfilment(tx: Queryable, e: RecordedEvent) {
  const t = await transactionOf(tx, e);
  if (!t?.shipping) return;
  const bought = await purchaseOf(tx, t);
  const to = { email: t.customer_email, name: t.customer_name };
  const base = { brandId: t.brand_id, mode: t.mode, to };
  const f = t.fulfilment ?? {};
  if (e.type === 'order.shipped' && t.shipping.address && f.carrier && f.trackingNumber) {
    await queueMail(tx, {
      ...base, kind: 'order_shipped',
      data: {
        buyerName: t.customer_name, item: bought.item, txref: t.txref, carrier: f.carrier, trackingNumber: f.trackingNumber,
        ...(f.trackingUrl ? { trackingUrl: f.trackingUrl } : {}), address: addressLines(t.shipping.address), shippedAt: f.shippedAt ?? e.createdAt.toISOString(),
      },
      dedupeKey: `order_shipped:${t.txref}`,
    });
  } else if (e.type === 'order.ready_for_pickup' && t.shipping.pickupLocation) {
    const p = t.shipping.pickupLocation;
    await queueMail(tx, {
      ...base, kind: 'order_ready_for_pickup',
      data: { buyerName: t.customer_name, item: bought.item, txref: t.txref, location: p.name, address: addressLines(p.address), openingHours: p.openingHours },
      dedupeKey: `order_ready_for_pickup:${t.txref}`,
    });
  }
}
