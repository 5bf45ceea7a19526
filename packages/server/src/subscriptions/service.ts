import { randomBytes } from 'node:crypto';
import type { Queryable } from '../db/client.ts';
import { AppError, notFound } from '../errors.ts';
import { recordEvent } from '../events/service.ts';
import { requireHub } from '../hubs/repository.ts';
import { newId } from '../ids.ts';
import type { Principal } from '../auth/principal.ts';
import { modeNow } from '../clock/repository.ts';
import type { Purchase, Recurrence } from '../checkout/pricing.ts';
import * as memberships from '../memberships/repository.ts';
import type { MembershipRow } from '../memberships/repository.ts';
import { memberEventData, renderMembership } from '../memberships/service.ts';
import type { Membership } from '../memberships/schemas.ts';
import { billsRenewalsItself, type PaymentProviders } from '../payments/providers.ts';
import type { PaymentState } from '../payments/provider.ts';
import { notePayable } from '../payouts/repository.ts';
import * as transactions from '../transactions/repository.ts';
import type { TransactionRow } from '../transactions/repository.ts';
import { renderTransaction } from '../transactions/service.ts';
import { periodEnd } from './periods.ts';
import { renderSubscription } from './render.ts';
import * as repo from './repository.ts';
import type { SubscriptionRow } from './repository.ts';

/**
 * Subscriptions (docs/subscriptions.md): started by a paid recurring purchase, renewed by the
 * worker (subscriptions/flows.ts), ended by running out of retries, by their last period, or by
 * the brand (cancel, remove). Every function here runs in its caller's transaction.
 */

export interface RenewalSettings {
  /** Delays after the period end at which a failed renewal is tried again (default 1d, 3d, 5d). */
  retryScheduleMs: number[];
  /** How long a worker owns a renewal it started before another may resume it. */
  leaseMs: number;
}

const live = (s: SubscriptionRow) => s.status === 'active' || s.status === 'past_due';

async function primaryMembership(tx: Queryable, sub: SubscriptionRow): Promise<MembershipRow> {
  const row = await memberships.findMembership(tx, sub.brand_id, sub.mode, sub.membership_id);
  if (!row) throw new Error(`Subscription ${sub.id} has no membership ${sub.membership_id}.`);
  return row;
}

async function recordSubscriptionEvent(
  tx: Queryable,
  type: 'subscription.renewed' | 'subscription.expired' | 'subscription.completed',
  sub: SubscriptionRow,
  membership: MembershipRow,
  transaction?: TransactionRow,
) {
  await recordEvent(tx, {
    brandId: sub.brand_id,
    mode: sub.mode,
    type,
    data: { membership: memberEventData(membership, sub), subscription: renderSubscription(sub), ...(transaction ? { transaction: renderTransaction(transaction) } : {}) },
  });
}

/**
 * settlePayment's part: a paid purchase of a recurring tier starts a subscription paying for the
 * memberships it granted (the first is the one its events are about). Its first period starts
 * now, in the mode's time (a test clock moves it), and is paid by this payment. A membership that
 * already had a subscription that still renews is moved to the new one; the old one ends as
 * `cancelled` without events (the person bought again).
 */
export async function startSubscription(tx: Queryable, providers: PaymentProviders, payment: TransactionRow, purchase: Purchase & { recurrence: Recurrence }, granted: MembershipRow[]) {
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
  });
  const [primary] = await memberships.attachSubscription(tx, sub.brand_id, granted.map((m) => m.id), sub.id)
    .then((rows) => rows.sort((a, b) => (a.id === sub.membership_id ? -1 : b.id === sub.membership_id ? 1 : 0)));
  if (completed) await recordSubscriptionEvent(tx, 'subscription.completed', sub, primary, payment);
}

/**
 * Ends a subscription and the access it pays for: `expired` (out of retries) or `cancelled`
 * (cancelled at period end, whose period ran out) with its memberships `expired`, and
 * subscription.expired then member.removed; or, removing a member now, `cancelled` with its
 * memberships `removed` and member.removed only.
 */
async function endSubscription(
  tx: Queryable,
  sub: SubscriptionRow,
  now: Date,
  how: { status: 'expired' | 'cancelled'; memberships: 'expired' | 'removed'; announce: boolean; transaction?: TransactionRow },
) {
  const ended = await repo.updateSubscription(tx, sub.brand_id, sub.id, {
    status: live(sub) ? how.status : sub.status, due_at: null, next_billing_at: null, ended_at: now, pending_transaction_id: null,
  });
  const rows = await memberships.endSubscriptionMemberships(tx, sub.brand_id, sub.id, how.memberships);
  if (how.announce) {
    const primary = rows.find((m) => m.id === sub.membership_id) ?? await primaryMembership(tx, ended);
    await recordSubscriptionEvent(tx, 'subscription.expired', ended, primary, how.transaction);
  }
  for (const m of rows) await recordEvent(tx, { brandId: m.brand_id, mode: m.mode, type: 'member.removed', data: memberEventData(m, ended) });
  return ended;
}

export type DueWork = { kind: 'bill'; sub: SubscriptionRow; payment: TransactionRow; at: Date } | { kind: 'done' };

/**
 * The worker's step 1 for a claimed subscription, at `now` (its mode's time): ends access whose
 * time has come, or records the renewal charge as a pending transaction before any provider is
 * asked (and leases the subscription, so a killed worker's renewal is resumed, not billed again).
 */
export async function beginDueWork(
  tx: Queryable, providers: PaymentProviders, sub: SubscriptionRow, now: Date, settings: RenewalSettings, leaseFrom: Date = now,
): Promise<DueWork> {
  if (sub.status === 'completed') {
    // Every period was paid: access lasts to the end of the last one.
    const rows = await memberships.endSubscriptionMemberships(tx, sub.brand_id, sub.id, 'expired');
    const ended = await repo.updateSubscription(tx, sub.brand_id, sub.id, { due_at: null, ended_at: now });
    for (const m of rows) await recordEvent(tx, { brandId: m.brand_id, mode: m.mode, type: 'member.removed', data: memberEventData(m, ended) });
    return { kind: 'done' };
  }
  if (!live(sub)) {
    await repo.updateSubscription(tx, sub.brand_id, sub.id, { due_at: null });
    return { kind: 'done' };
  }
  // A charge already under way is finished before anything else, cancel at period end included:
  // ending the subscription under it would leave a charge that succeeds on an ended subscription.
  const lease = new Date(leaseFrom.getTime() + settings.leaseMs);
  if (sub.pending_transaction_id) {
    const pending = await transactions.findById(tx, sub.brand_id, sub.pending_transaction_id);
    if (pending?.status === 'pending') {
      await repo.updateSubscription(tx, sub.brand_id, sub.id, { due_at: lease });
      return { kind: 'bill', sub, payment: pending, at: now };
    }
    if (pending?.status === 'succeeded' || pending?.status === 'failed') {
      // Settled meanwhile by someone else (verify): apply its outcome; never charge again.
      await applyRenewalOutcome(tx, pending, settings, now);
      return { kind: 'done' };
    }
  }
  if (sub.cancel_at_period_end) {
    await endSubscription(tx, sub, now, { status: 'cancelled', memberships: 'expired', announce: true });
    return { kind: 'done' };
  }
  if (billsRenewalsItself(sub.provider)) {
    // Stripe bills this one and tells us (invoice.paid, invoice.payment_failed,
    // customer.subscription.deleted; payments/stripe/webhook.ts): never bill it here too.
    await repo.updateSubscription(tx, sub.brand_id, sub.id, { due_at: null });
    return { kind: 'done' };
  }
  const provider = sub.amount > 0 && sub.provider ? providers.named(sub.provider) : undefined;
  const txref = `tx_${randomBytes(15).toString('base64url')}`;
  const opened = provider
    ? await provider.createPayment(tx, { brandId: sub.brand_id, txref, amount: sub.amount, currency: sub.currency, description: `Renewal ${sub.periods_paid + 1}` })
    : undefined;
  const payment = await transactions.insertTransaction(tx, {
    brand_id: sub.brand_id,
    id: newId('txn'),
    txref,
    mode: sub.mode,
    type: 'renewal',
    status: 'pending',
    amount: sub.amount,
    currency: sub.currency,
    customer_name: sub.customer_name,
    customer_email: sub.customer_email,
    resource_id: sub.tier_id,
    metadata: sub.metadata,
    payment_link_id: null,
    provider: provider?.name ?? null,
    provider_reference: opened?.reference ?? null,
  });
  const leased = await repo.updateSubscription(tx, sub.brand_id, sub.id, { pending_transaction_id: payment.id, due_at: lease });
  return { kind: 'bill', sub: leased, payment, at: now };
}

/** Step 2: what the provider says about charging the saved card (a free renewal needs no provider). */
export async function chargeRenewal(db: Queryable, providers: PaymentProviders, sub: SubscriptionRow, payment: TransactionRow): Promise<PaymentState> {
  if (payment.amount === 0) return { status: 'succeeded' };
  const provider = payment.provider ? providers.named(payment.provider) : undefined;
  if (!provider || !payment.provider_reference) return { status: 'failed', code: 'no_payment_method', message: 'No provider holds a payment method for this subscription.' };
  if (!sub.payment_method) return { status: 'failed', code: 'no_payment_method', message: 'The provider kept no payment method for this subscription.' };
  return provider.chargeSavedMethod(db, { brandId: payment.brand_id, reference: payment.provider_reference, method: sub.payment_method });
}

/**
 * Step 3: moves the renewal's transaction to the provider's outcome (one conditional update, so
 * of any number of racing workers one goes on) and the subscription with it: a new period (and
 * `completed` when it was the last of `count`), a retry on the schedule while `past_due`, or,
 * with no retry left, the end. `now` is the time the job runs as (its due time after a clock advance).
 */
export async function settleRenewal(
  tx: Queryable,
  payment: TransactionRow,
  state: { status: 'succeeded' } | { status: 'failed'; code: string; message: string },
  settings: RenewalSettings,
  now: Date,
  providerRetryAt?: Date | null,
): Promise<void> {
  const moved = await transactions.finishPending(tx, payment.brand_id, payment.id, state);
  if (!moved) return;
  const scope = { brandId: moved.brand_id, mode: moved.mode };
  await recordEvent(tx, { ...scope, type: moved.status === 'succeeded' ? 'transaction.succeeded' : 'transaction.failed', data: renderTransaction(moved) });
  await applyRenewalOutcome(tx, moved, settings, now, providerRetryAt);
}

/**
 * A renewal charge the provider made itself (Stripe's invoice.paid / invoice.payment_failed):
 * recorded as a `renewal` transaction, then applied exactly as the worker applies its own
 * (transaction.*, subscription.renewed, completion; past_due on failure). `reference` is the
 * provider's object (the invoice); a failure reported after that invoice was paid (events out
 * of order) changes nothing. `retryAt` is when the provider tries again, if it says.
 */
export async function recordProviderRenewal(
  tx: Queryable,
  sub: SubscriptionRow,
  charge: { reference: string; amount: number; state: { status: 'succeeded' } | { status: 'failed'; code: string; message: string }; retryAt?: Date | null },
  settings: RenewalSettings,
  now: Date,
): Promise<TransactionRow | undefined> {
  const earlier = await transactions.findByProviderReference(tx, sub.brand_id, sub.provider!, charge.reference);
  if (earlier.some((t) => t.status === 'succeeded')) return undefined;
  if (!live(sub)) return undefined;
  const payment = await transactions.insertTransaction(tx, {
    brand_id: sub.brand_id,
    id: newId('txn'),
    txref: `tx_${randomBytes(15).toString('base64url')}`,
    mode: sub.mode,
    type: 'renewal',
    status: 'pending',
    amount: charge.amount,
    currency: sub.currency,
    customer_name: sub.customer_name,
    customer_email: sub.customer_email,
    resource_id: sub.tier_id,
    metadata: sub.metadata,
    payment_link_id: null,
    provider: sub.provider,
    provider_reference: charge.reference,
  });
  await repo.updateSubscription(tx, sub.brand_id, sub.id, { pending_transaction_id: payment.id });
  await settleRenewal(tx, payment, charge.state, settings, now, charge.retryAt ?? null);
  return transactions.findById(tx, sub.brand_id, payment.id);
}

/**
 * The provider ended a subscription it bills (Stripe's customer.subscription.deleted: out of
 * retries, or cancelled in Stripe): `expired` (`cancelled` when it was cancelled at period end)
 * with its memberships, subscription.expired then member.removed. One that has already ended
 * (completed, removed) changes nothing.
 */
export async function endProviderSubscription(tx: Queryable, sub: SubscriptionRow, now: Date): Promise<void> {
  if (!live(sub)) return;
  await endSubscription(tx, sub, now, { status: sub.cancel_at_period_end ? 'cancelled' : 'expired', memberships: 'expired', announce: true });
}

/**
 * Moves the subscription a renewal charge belongs to on by the charge's outcome, once: only while
 * the charge is still the subscription's pending one. Also reached from beginDueWork for a charge
 * that something else settled (POST /payments/verify settles a renewal's transaction like any
 * other, and leaves the subscription to the worker).
 */
async function applyRenewalOutcome(tx: Queryable, moved: TransactionRow, settings: RenewalSettings, now: Date, providerRetryAt?: Date | null): Promise<void> {
  const locked = await repo.findByPendingTransaction(tx, moved.brand_id, moved.id);
  if (!locked) return;
  // Stripe bills this one: our worker only ends access after a last (completed) period.
  const billedElsewhere = billsRenewalsItself(locked.provider);
  if (moved.status === 'succeeded') {
    if (moved.amount > 0) await notePayable(tx, moved.brand_id, moved.mode, now);
    const paid = locked.periods_paid + 1;
    const end = periodEnd(locked.started_at, locked.periodic, locked.period_interval, paid);
    const completed = locked.period_count > 0 && paid >= locked.period_count;
    const renewed = await repo.updateSubscription(tx, locked.brand_id, locked.id, {
      status: live(locked) ? (completed ? 'completed' : 'active') : locked.status,
      current_period_start: locked.current_period_end,
      current_period_end: end,
      periods_paid: paid,
      failed_attempts: 0,
      pending_transaction_id: null,
      next_billing_at: completed || locked.cancel_at_period_end ? null : end,
      due_at: billedElsewhere && !completed ? null : end,
    });
    const membership = await primaryMembership(tx, renewed);
    await recordSubscriptionEvent(tx, 'subscription.renewed', renewed, membership, moved);
    if (completed) await recordSubscriptionEvent(tx, 'subscription.completed', renewed, membership, moved);
    return;
  }
  const failures = locked.failed_attempts + 1;
  if (locked.cancel_at_period_end) {
    // Cancelled while this charge was under way: its paid period is over and nothing is retried.
    await endSubscription(tx, { ...locked, failed_attempts: failures }, now, { status: 'cancelled', memberships: 'expired', announce: true, transaction: moved });
    return;
  }
  if (billedElsewhere) {
    // Stripe retries on its own schedule (Smart Retries) and ends the subscription itself when
    // they run out (customer.subscription.deleted); meanwhile it is past_due, access kept.
    await repo.updateSubscription(tx, locked.brand_id, locked.id, {
      status: 'past_due', failed_attempts: failures, pending_transaction_id: null, next_billing_at: providerRetryAt ?? null, due_at: null,
    });
    return;
  }
  if (failures > settings.retryScheduleMs.length) {
    await endSubscription(tx, { ...locked, failed_attempts: failures }, now, { status: 'expired', memberships: 'expired', announce: true, transaction: moved });
    return;
  }
  const retryAt = new Date(locked.current_period_end.getTime() + settings.retryScheduleMs[failures - 1]);
  await repo.updateSubscription(tx, locked.brand_id, locked.id, {
    status: 'past_due', failed_attempts: failures, pending_transaction_id: null, next_billing_at: retryAt, due_at: retryAt,
  });
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
  return endMembershipNow(tx, m, atPeriodEnd);
}

/** DELETE /hubs/{hubID}/members/{id}: removes the member now (as cancelling now does). */
export async function removeHubMember(tx: Queryable, principal: Principal, hubId: string, id: string): Promise<Membership> {
  await requireHub(tx, principal.brandId, hubId);
  const m = await memberships.findHubMember(tx, principal.brandId, principal.mode, hubId, id);
  if (!m) throw notFound('hub member');
  return endMembershipNow(tx, m, false);
}

async function endMembershipNow(tx: Queryable, m: MembershipRow, atPeriodEnd: boolean): Promise<Membership> {
  const sub = m.subscription_id ? await repo.findSubscription(tx, m.brand_id, m.subscription_id, { forUpdate: true }) : undefined;
  const now = await modeNow(tx, m.brand_id, m.mode);
  if (atPeriodEnd) {
    if (!sub || !live(sub)) {
      if (m.status !== 'active' || sub?.status === 'completed') return rendered(tx, m);
      throw new AppError('conflict', 'This membership has no subscription that renews, so it has no period end to wait for. '
        + 'Send {"atPeriodEnd": false} to remove the member now.');
    }
    if (sub.status === 'past_due' && !sub.pending_transaction_id) await endSubscription(tx, sub, now, { status: 'cancelled', memberships: 'expired', announce: true });
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
    await endSubscription(tx, sub, now, { status: 'cancelled', memberships: 'removed', announce: false });
  } else {
    const removed = await memberships.endMembership(tx, m.brand_id, m.id, 'removed');
    if (removed) await recordEvent(tx, { brandId: removed.brand_id, mode: removed.mode, type: 'member.removed', data: memberEventData(removed, sub) });
  }
  return rendered(tx, m);
}
