import type { Db } from '../db/client.ts';
import type { PaymentProviders } from '../payments/providers.ts';
import { modeNow } from '../clock/repository.ts';
import * as repo from './repository.ts';
import { beginDueWork, chargeRenewal, settleRenewal, type RenewalSettings } from './service.ts';

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
