import type { Deps } from '../deps.ts';
import type { WorkSource } from '../worker/loop.ts';
import { runDuePayout } from '../payouts/flows.ts';
import { runDueSubscription } from './flows.ts';

/**
 * The worker's scheduled lifecycle work: subscription renewals, retries and ends of access, and
 * payout runs, each claimed when due in its own brand's and mode's time (test clocks). Polled:
 * nothing commits when a due time passes, so no NOTIFY announces it.
 */
export function lifecycleSources(deps: Pick<Deps, 'db' | 'config' | 'payments'>, idlePollMs = 500): WorkSource[] {
  return [
    throttled('subscriptions', idlePollMs, () => runDueSubscription(deps.db, deps.payments, deps.config.renewals)),
    throttled('payouts', idlePollMs, () => runDuePayout(deps.db, deps.config.payouts)),
  ];
}

/**
 * Due times pass without a commit to announce them, so these sources poll; after finding nothing
 * they look again only every `idlePollMs` (the loop itself wakes every source on each NOTIFY and
 * on its own, shorter, poll), which keeps idle workers from querying many times a second.
 */
function throttled(name: string, idlePollMs: number, run: () => Promise<boolean>): WorkSource {
  let idleSince = 0;
  return {
    name,
    async runOnce() {
      // performance.now(), not Date.now(): this is how often to look, not a due time.
      if (idleSince && performance.now() - idleSince < idlePollMs) return 0;
      if (await run()) {
        idleSince = 0;
        return 1;
      }
      idleSince = performance.now();
      return 0;
    },
  };
}
