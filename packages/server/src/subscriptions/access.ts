import type { Queryable } from '../db/client.ts';
import { recordEvent } from '../events/service.ts';
import { findLink } from '../checkout/repository.ts';
import { modeNow } from '../clock/repository.ts';
import * as memberships from '../memberships/repository.ts';
import { memberEventData } from '../memberships/service.ts';
import { billsRenewalsItself } from '../payments/providers.ts';
import * as subscriptions from './repository.ts';
import type { SubscriptionRow } from './repository.ts';
import { endSubscription, live } from './service.ts';
import type { TransactionRow } from '../transactions/repository.ts';

/** A subscription a provider bills itself (Stripe) that must be told to stop, after the change commits. */
export interface ProviderCancellation {
  provider: string;
  reference: string;
}

/**
 * Ends the access a refunded transaction bought (docs/refunds.md), in the caller's transaction:
 *  - a purchase: each membership its link granted, while the person still holds it on the tier
 *    bought (a later purchase on another tier is not this transaction's to take back) — removed,
 *    with member.removed; one paid by a subscription ends that subscription now (`cancelled`,
 *    every membership it pays for removed), as removing a member does;
 *  - a renewal: the subscription it paid for, ended the same way.
 * Returns the subscriptions a provider bills itself, which the caller tells to stop after commit.
 */
export async function endAccessBought(tx: Queryable, payment: TransactionRow, appId: string | null): Promise<ProviderCancellation[]> {
  const now = await modeNow(tx, payment.brand_id, payment.mode);
  const ended = new Set<string>();
  const cancellations: ProviderCancellation[] = [];
  const endSub = async (sub: SubscriptionRow) => {
    if (ended.has(sub.id)) return;
    ended.add(sub.id);
    if (!live(sub)) {
      // Ended already (completed, cancelled at period end and run out): its memberships may still be active until their end.
      const rows = await memberships.endSubscriptionMemberships(tx, sub.brand_id, sub.id, 'removed');
      for (const m of rows) await recordEvent(tx, { brandId: m.brand_id, mode: m.mode, type: 'member.removed', data: memberEventData(m, sub), appId });
      return;
    }
    await endSubscription(tx, sub, now, { status: 'cancelled', memberships: 'removed', announce: false, appId });
    if (billsRenewalsItself(sub.provider) && sub.provider && sub.payment_method) cancellations.push({ provider: sub.provider, reference: sub.payment_method });
  };

  if (payment.type === 'renewal') {
    const sub = payment.resource_id
      ? await subscriptions.findForRenewal(tx, payment.brand_id, payment.mode, payment.resource_id, payment.customer_email)
      : undefined;
    if (sub) await endSub(sub);
    return cancellations;
  }
  const link = payment.payment_link_id ? await findLink(tx, payment.brand_id, payment.payment_link_id) : undefined;
  if (!link || link.transaction_id !== payment.id) return cancellations;
  for (const purchase of link.purchases) {
    const targets = [
      ...(purchase.productId ? [{ productId: purchase.productId, hubId: null }] : []),
      ...(purchase.hubId ? [{ productId: null, hubId: purchase.hubId }] : []),
    ];
    for (const target of targets) {
      const m = await memberships.findByPerson(tx, payment.brand_id, payment.mode, target, link.buyer_email, { forUpdate: true });
      if (!m || m.status !== 'active' || m.plan !== purchase.tierId) continue;
      const sub = m.subscription_id ? await subscriptions.findSubscription(tx, m.brand_id, m.subscription_id, { forUpdate: true }) : undefined;
      if (sub) {
        await endSub(sub);
        continue;
      }
      const removed = await memberships.endMembership(tx, m.brand_id, m.id, 'removed');
      if (removed) await recordEvent(tx, { brandId: removed.brand_id, mode: removed.mode, type: 'member.removed', data: memberEventData(removed), appId });
    }
  }
  return cancellations;
}
