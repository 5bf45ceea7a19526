import { attributeRenewal } from '../affiliates/commissions.ts';
import type { Queryable } from '../db/client.ts';
import { recordEvent } from '../events/service.ts';
import { newId } from '../ids.ts';
import * as memberships from '../memberships/repository.ts';
import { memberEventData } from '../memberships/service.ts';
import { billsRenewalsItself, type PaymentProviders } from '../payments/providers.ts';
import type { PaymentState } from '../payments/provider.ts';
import { notePayable } from '../payouts/repository.ts';
import * as transactions from '../transactions/repository.ts';
import type { TransactionRow } from '../transactions/repository.ts';
import { newTxref, settleTransaction } from '../transactions/lifecycle.ts';
import { periodEnd } from './periods.ts';
import { renewalCharge } from '../coupons/apply.ts';
import * as repo from './repository.ts';
import type { SubscriptionRow } from './repository.ts';
import { endSubscription, live, primaryMembership, recordSubscriptionEvent } from './service.ts';

/**
 * Renewals (docs/subscriptions.md): the worker's steps for a subscription that is due
 * (subscriptions/flows.ts) and what a provider that bills renewals itself reports (Stripe's
 * invoices, payments/stripe/webhook.ts). Every function here runs in its caller's transaction.
 */

export interface RenewalSettings {
  /** Delays after the period end at which a failed renewal is tried again (default 1d, 3d, 5d). */
  retryScheduleMs: number[];
  /** How long a worker owns a renewal it started before another may resume it. */
  leaseMs: number;
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
  // A coupon bought with the subscription takes its discount off while it lasts (coupons/apply.ts).
  const amount = renewalCharge(sub);
  const provider = amount > 0 && sub.provider ? providers.named(sub.provider) : undefined;
  const txref = newTxref();
  const opened = provider
    ? await provider.createPayment(tx, { brandId: sub.brand_id, txref, amount, currency: sub.currency, description: `Renewal ${sub.periods_paid + 1}` })
    : undefined;
  const payment = await insertRenewal(tx, sub, { txref, amount, provider: provider?.name ?? null, reference: opened?.reference ?? null });
  const leased = await repo.updateSubscription(tx, sub.brand_id, sub.id, { pending_transaction_id: payment.id, due_at: lease });
  return { kind: 'bill', sub: leased, payment, at: now };
}

/** A renewal's transaction, pending: the subscription's customer, tier, currency and metadata. */
function insertRenewal(tx: Queryable, sub: SubscriptionRow, charge: { txref: string; amount: number; provider: string | null; reference: string | null }) {
  return transactions.insertTransaction(tx, {
    brand_id: sub.brand_id,
    id: newId('txn'),
    txref: charge.txref,
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
    provider: charge.provider,
    provider_reference: charge.reference,
  });
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
  const moved = await settleTransaction(tx, payment, state, attributeRenewal); // a recurring affiliate's commission (affiliates/)
  if (!moved) return;
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
  const payment = await insertRenewal(tx, sub, {
    txref: newTxref(), amount: charge.amount, provider: sub.provider, reference: charge.reference,
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
