import type { Db } from '../db/client.ts';
import type { PaymentProviders } from '../payments/providers.ts';
import type { Principal } from '../auth/principal.ts';
import { modeNow } from '../clock/repository.ts';
import * as memberships from '../memberships/repository.ts';
import type { Membership } from '../memberships/schemas.ts';
import * as repo from './repository.ts';
import { beginDueWork, chargeRenewal, settleRenewal, type RenewalSettings } from './renewals.ts';
import { cancelMembership, removeHubMember } from './service.ts';

/**
 * The renewal flow (DESIGN.md, Who commits): the only code in this domain that commits more than
 * once. Like paying a link (checkout/flows.ts), in three steps, so that a renewal is billed once
 * however many workers run and wherever one is killed:
 *  1. claim the due subscription (FOR UPDATE SKIP LOCKED), record the charge as a pending
 *     `renewal` transaction with the provider's payment reference, lease the subscription, commit;
 *  2. ask the provider to charge the saved card (idempotent per payment reference);
 *  3. settle: one conditional update moves the transaction out of `pending`, and only the caller
 *     that moved it moves the subscription on and records the events.
 * A worker killed after 1 leaves the pending transaction on the subscription; when the lease
 * runs out another worker resumes that same transaction (step 2 again charges nothing twice).
 *
 * `brand` limits the claim to one brand's test-mode work due by `until` (a test clock advance).
 * Returns whether there was anything to do.
 */
export async function runDueSubscription(db: Db, providers: PaymentProviders, settings: RenewalSettings, brand?: { brandId: string; until: Date }): Promise<boolean> {
  const work = await db.transaction(async (tx) => {
    const sub = await repo.claimDue(tx, brand);
    if (!sub) return undefined;
    // The job runs as of its due time: in test mode after a clock advance, that is in the past
    // of the brand's clock, and everything it dates (a new period, a retry) follows from it.
    const now = await modeNow(tx, sub.brand_id, sub.mode);
    const at = sub.due_at && sub.due_at < now ? sub.due_at : now;
    return beginDueWork(tx, providers, sub, at, settings, now);
  });
  if (!work) return false;
  if (work.kind === 'done') return true;
  const state = await chargeRenewal(db, providers, work.sub, work.payment);
  if (state.status !== 'succeeded' && state.status !== 'failed') return true; // still pending: resumed after the lease
  await db.transaction((tx) => settleRenewal(tx, work.payment, state, settings, work.at));
  return true;
}

/**
 * Cancelling or removing a member whose subscription a provider bills itself (Stripe): the change
 * commits here first, then the provider is told to stop billing (at period end, or now). If the
 * provider cannot be reached the request fails with 503 after the change committed; repeating it
 * changes nothing more here and tells the provider again.
 */
export async function endMembershipWithProvider(
  db: Db,
  providers: PaymentProviders,
  principal: Principal,
  input: { membershipId: string; atPeriodEnd: boolean; hubId?: string },
): Promise<Membership> {
  const result = await db.transaction((tx) => (input.hubId
    ? removeHubMember(tx, principal, input.hubId, input.membershipId)
    : cancelMembership(tx, principal, input.membershipId, input.atPeriodEnd)));
  const m = await memberships.findMembership(db, principal.brandId, principal.mode, input.membershipId);
  const sub = m?.subscription_id ? await repo.findSubscription(db, m.brand_id, m.subscription_id) : undefined;
  const provider = sub?.provider ? providers.named(sub.provider) : undefined;
  if (sub?.payment_method && provider?.cancelSubscription && (sub.cancel_at_period_end || sub.status === 'cancelled')) {
    await provider.cancelSubscription({ reference: sub.payment_method, atPeriodEnd: sub.status !== 'cancelled' });
  }
  return result;
}
