import type { Queryable } from '../db/client.ts';
import { AppError, notFound } from '../errors.ts';
import { recordEvent } from '../events/service.ts';
import { requireHub } from '../hubs/repository.ts';
import { newId } from '../ids.ts';
import { appOf, type Principal } from '../auth/principal.ts';
import { modeNow } from '../clock/repository.ts';
import type { Purchase, Recurrence } from '../checkout/pricing.ts';
import * as memberships from '../memberships/repository.ts';
import type { MembershipRow } from '../memberships/repository.ts';
import { announceJoined, memberEventData, renderMembership, type Granted } from '../memberships/service.ts';
import type { Membership } from '../memberships/schemas.ts';
import { billsRenewalsItself, type PaymentProviders } from '../payments/providers.ts';
import type { TransactionRow } from '../transactions/repository.ts';
import { renderTransaction } from '../transactions/service.ts';
import { periodEnd } from './periods.ts';
import { renderSubscription } from './render.ts';
import * as repo from './repository.ts';
import { mailCancellation } from './cancellation-mail.ts';
import type { SubscriptionRow } from './repository.ts';

/**
 * Subscriptions (docs/subscriptions.md): started by a paid recurring purchase, renewed by the
 * worker (subscriptions/renewals.ts), ended by running out of retries, by their last period, or by
 * the brand (cancel, remove). Every function here runs in its caller's transaction.
 */

export const live = (s: SubscriptionRow) => s.status === 'active' || s.status === 'past_due';

export async function primaryMembership(tx: Queryable, sub: SubscriptionRow): Promise<MembershipRow> {
  const row = await memberships.findMembership(tx, sub.brand_id, sub.mode, sub.membership_id);
  if (!row) throw new Error(`Subscription ${sub.id} has no membership ${sub.membership_id}.`);
  return row;
}

export async function recordSubscriptionEvent(
  tx: Queryable,
  type: 'subscription.renewed' | 'subscription.expired' | 'subscription.completed',
  sub: SubscriptionRow,
  membership: MembershipRow,
  transaction?: TransactionRow,
  appId: string | null = null,
) {
  await recordEvent(tx, {
    brandId: sub.brand_id,
    mode: sub.mode,
    appId,
    type,
    data: { membership: memberEventData(membership, sub), subscription: renderSubscription(sub), ...(transaction ? { transaction: renderTransaction(transaction) } : {}) },
  });
}

/**
 * settlePayment's part: a paid purchase of a recurring tier starts a subscription paying for the
 * memberships it granted (the first is the one its events are about), and announces those that
 * made someone a member (member.joined, with the subscription). Its first period starts
 * now, in the mode's time (a test clock moves it), and is paid by this payment. A membership that
 * already had a subscription that still renews is moved to the new one; the old one ends as
 * `cancelled` without events (the person bought again).
 */
export async function startSubscription(tx: Queryable, providers: PaymentProviders, payment: TransactionRow, purchase: Purchase & { recurrence: Recurrence }, grants: Granted[]) {
  const granted = grants.map((g) => g.row);
  const r = purchase.recurrence;
  const now = await modeNow(tx, payment.brand_id, payment.mode);
  for (const oldId of new Set(granted.flatMap((m) => (m.subscription_id ? [m.subscription_id] : [])))) {
    const old = await repo.findSubscription(tx, payment.brand_id, oldId, { forUpdate: true });
    if (old && live(old)) {
      await repo.updateSubscription(tx, old.brand_id, old.id, { status: 'cancelled', due_at: null, next_billing_at: null, ended_at: now });
    }
  }
  const provider = payment.provider ? providers.named(payment.provider) : undefined;
  const method = provider && payment.provider_reference ? await provider.savedMethodOf(tx, { brandId: payment.brand_id, reference: payment.provider_reference }) : null;
  const end = periodEnd(now, r.periodic, r.interval, 1);
  const completed = r.count === 1;
  const sub = await repo.insertSubscription(tx, {
    brand_id: payment.brand_id,
    id: newId('sub'),
    mode: payment.mode,
    membership_id: granted[0].id,
    tier_id: purchase.tierId,
    amount: r.amount,
    currency: payment.currency,
    periodic: r.periodic,
    period_interval: r.interval,
    period_count: r.count,
    status: completed ? 'completed' : 'active',
    started_at: now,
    current_period_start: now,
    current_period_end: end,
    periods_paid: 1,
    next_billing_at: completed ? null : end,
    due_at: end,
    customer_name: payment.customer_name,
    customer_email: payment.customer_email,
    metadata: payment.metadata,
    provider: provider?.name ?? null,
    payment_method: method,
    discount_amount: purchase.discount?.amount ?? null,
    discount_periods: purchase.discount?.periods ?? null,
  });
  const attached = await memberships.attachSubscription(tx, sub.brand_id, granted.map((m) => m.id), sub.id);
  const byId = new Map(attached.map((m) => [m.id, m]));
  await announceJoined(tx, grants.map((g) => ({ row: byId.get(g.row.id) ?? g.row, joined: g.joined })), { sub, appId: payment.app_id ?? null });
  const primary = byId.get(sub.membership_id)!;
  if (completed) await recordSubscriptionEvent(tx, 'subscription.completed', sub, primary, payment, payment.app_id ?? null);
}

/**
 * Ends a subscription and the access it pays for: `expired` (out of retries) or `cancelled`
 * (cancelled at period end, whose period ran out) with its memberships `expired`, and
 * subscription.expired then member.removed; or, removing a member now, `cancelled` with its
 * memberships `removed` and member.removed only.
 */
export async function endSubscription(
  tx: Queryable,
  sub: SubscriptionRow,
  now: Date,
  how: { status: 'expired' | 'cancelled'; memberships: 'expired' | 'removed'; announce: boolean; transaction?: TransactionRow; appId?: string | null },
) {
  const ended = await repo.updateSubscription(tx, sub.brand_id, sub.id, {
    status: live(sub) ? how.status : sub.status, due_at: null, next_billing_at: null, ended_at: now, pending_transaction_id: null,
  });
  const rows = await memberships.endSubscriptionMemberships(tx, sub.brand_id, sub.id, how.memberships);
  if (how.announce) {
    const primary = rows.find((m) => m.id === sub.membership_id) ?? await primaryMembership(tx, ended);
    await recordSubscriptionEvent(tx, 'subscription.expired', ended, primary, how.transaction, how.appId);
  }
  for (const m of rows) await recordEvent(tx, { brandId: m.brand_id, mode: m.mode, type: 'member.removed', data: memberEventData(m, ended), appId: how.appId ?? null });
  return ended;
}

async function rendered(tx: Queryable, m: MembershipRow): Promise<Membership> {
  const fresh = (await memberships.findMembership(tx, m.brand_id, m.mode, m.id))!;
  const sub = fresh.subscription_id ? await repo.findSubscription(tx, fresh.brand_id, fresh.subscription_id) : undefined;
  return renderMembership(fresh, sub);
}

/**
 * POST /memberships/{id}/cancel. At period end: the subscription stops renewing and stays
 * `active` with cancelAtPeriodEnd until its paid period runs out (a `past_due` one, whose period
 * has already run out, ends now). Now: the member is removed at once, the subscription
 * `cancelled`, no refund. Cancelling what has already ended changes nothing.
 */
export async function cancelMembership(tx: Queryable, principal: Principal, id: string, atPeriodEnd: boolean): Promise<Membership> {
  const m = await memberships.findMembership(tx, principal.brandId, principal.mode, id, { forUpdate: true });
  if (!m) throw notFound('membership');
  const subBefore = m.subscription_id ? await repo.findSubscription(tx, m.brand_id, m.subscription_id) : undefined;
  const ended = await endMembershipNow(tx, m, atPeriodEnd, appOf(principal));
  // The member's confirmation, queued with the change (docs/email.md).
  await mailCancellation(tx, m, subBefore);
  return ended;
}

/**
 * POST /memberships/{id}/resume (and the buyer portal's "Keep my membership"): undoes a cancel at
 * period end before the period ends, so the subscription renews again. Records no event, as the
 * cancel at period end records none. A subscription a provider bills itself (Stripe) was told to
 * stop there, so it is refused (409): the buyer subscribes again instead.
 */
export async function resumeMembership(tx: Queryable, principal: Principal, id: string): Promise<Membership> {
  const m = await memberships.findMembership(tx, principal.brandId, principal.mode, id, { forUpdate: true });
  if (!m) throw notFound('membership');
  const sub = m.subscription_id ? await repo.findSubscription(tx, m.brand_id, m.subscription_id, { forUpdate: true }) : undefined;
  if (!sub || !sub.cancel_at_period_end) return rendered(tx, m);
  if (!live(sub) || m.status !== 'active') throw new AppError('conflict', 'This membership has already ended; it can no longer be kept. Buy it again to come back.');
  if (billsRenewalsItself(sub.provider)) {
    throw new AppError('conflict', 'This subscription is billed by the payment provider, which was told to stop at the period end; buy it again to come back.');
  }
  await repo.updateSubscription(tx, sub.brand_id, sub.id, {
    cancel_at_period_end: false, next_billing_at: sub.current_period_end, due_at: sub.pending_transaction_id ? sub.due_at : sub.current_period_end,
  });
  return rendered(tx, m);
}

/**
 * The buyer portal's "Update card" with a provider whose card form is ours (the sandbox): the
 * subscription renews with `method` from now on. A subscription whose renewal failed (`past_due`,
 * no charge under way) is due again at once, so the worker retries with the new card now rather
 * than at the next retry of the schedule; that retry counts as one more, as any retry does.
 * Returns whether a retry was brought forward.
 */
export async function changePaymentMethod(tx: Queryable, principal: Principal, membershipId: string, method: string): Promise<{ retrying: boolean }> {
  const m = await memberships.findMembership(tx, principal.brandId, principal.mode, membershipId, { forUpdate: true });
  if (!m) throw notFound('membership');
  const sub = m.subscription_id ? await repo.findSubscription(tx, m.brand_id, m.subscription_id, { forUpdate: true }) : undefined;
  if (!sub || !live(sub)) throw new AppError('conflict', 'This membership has no subscription that renews, so it has no card to update.');
  if (billsRenewalsItself(sub.provider)) throw new AppError('conflict', 'The payment provider keeps this subscription\'s card: update it on the provider\'s page.');
  const retrying = sub.status === 'past_due' && !sub.pending_transaction_id && !sub.cancel_at_period_end;
  const now = await modeNow(tx, sub.brand_id, sub.mode);
  await repo.updateSubscription(tx, sub.brand_id, sub.id, { payment_method: method, ...(retrying ? { next_billing_at: now, due_at: now } : {}) });
  return { retrying };
}

/** DELETE /hubs/{hubID}/members/{id}: removes the member now (as cancelling now does). */
export async function removeHubMember(tx: Queryable, principal: Principal, hubId: string, id: string): Promise<Membership> {
  await requireHub(tx, principal.brandId, hubId);
  const m = await memberships.findHubMember(tx, principal.brandId, principal.mode, hubId, id);
  if (!m) throw notFound('hub member');
  return endMembershipNow(tx, m, false, appOf(principal));
}

/** `appId`: the OAuth app that asked, whose the events recorded now are (docs/oauth-mcp.md). */
async function endMembershipNow(tx: Queryable, m: MembershipRow, atPeriodEnd: boolean, appId: string | null): Promise<Membership> {
  const sub = m.subscription_id ? await repo.findSubscription(tx, m.brand_id, m.subscription_id, { forUpdate: true }) : undefined;
  const now = await modeNow(tx, m.brand_id, m.mode);
  if (atPeriodEnd) {
    if (!sub || !live(sub)) {
      if (m.status !== 'active' || sub?.status === 'completed') return rendered(tx, m);
      throw new AppError('conflict', 'This membership has no subscription that renews, so it has no period end to wait for. '
        + 'Send {"atPeriodEnd": false} to remove the member now.');
    }
    if (sub.status === 'past_due' && !sub.pending_transaction_id) await endSubscription(tx, sub, now, { status: 'cancelled', memberships: 'expired', announce: true, appId });
    else if (!sub.cancel_at_period_end) {
      // With a renewal charge under way (the period has just ended), the worker that made it
      // settles it first: paid, the member keeps the period it paid for and the subscription
      // ends with it; declined, it ends now (beginDueWork, applyRenewalOutcome).
      await repo.updateSubscription(tx, sub.brand_id, sub.id, {
        cancel_at_period_end: true, next_billing_at: null, due_at: sub.pending_transaction_id ? sub.due_at : sub.current_period_end,
      });
    }
    return rendered(tx, m);
  }
  if (sub && (live(sub) || m.status === 'active')) {
    await endSubscription(tx, sub, now, { status: 'cancelled', memberships: 'removed', announce: false, appId });
  } else {
    const removed = await memberships.endMembership(tx, m.brand_id, m.id, 'removed');
    if (removed) await recordEvent(tx, { brandId: removed.brand_id, mode: removed.mode, type: 'member.removed', data: memberEventData(removed, sub), appId });
  }
  return rendered(tx, m);
}
