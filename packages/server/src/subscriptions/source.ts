import type { Deps } from '../deps.ts';
import type { WorkSource } from '../worker/loop.ts';
import { runDuePayout } from '../payouts/flows.ts';
import { runDueSubscription } from './flows.ts';

/**
 * The worker's scheduled lifecycle work: subscription renewals, retries and ends of access, and
 * payout runs, each claimed when due in its own brand's and mode's time (test clocks). Polled:
 * nothing commits when a due time passes, so no NOTIFY announces it.
 */
export function lifecycleSources(deps: Pick<Deps, 'db' | 'config'>): WorkSource[] {
  return [
    { name: 'subscriptions', runOnce: async () => (await runDueSubscription(deps.db, deps.config.renewals) ? 1 : 0) },
    { name: 'payouts', runOnce: async () => (await runDuePayout(deps.db, deps.config.payouts) ? 1 : 0) },
  ];
}
