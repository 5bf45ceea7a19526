import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { AppError, invalid } from '../errors.ts';
import type { Principal } from '../auth/principal.ts';
import { nextBoundary, findSchedule } from '../payouts/repository.ts';
import { runDuePayout } from '../payouts/flows.ts';
import { nextDueAt } from '../subscriptions/repository.ts';
import { runDueSubscription } from '../subscriptions/flows.ts';
// A test clock moves test mode only, whose provider is always the sandbox.
import { testModeProviders } from '../payments/providers.ts';
import { lockClock, modeNow, releaseClock, setClock } from '../clock/repository.ts';

const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };
const maxAdvanceMs = 20 * 366 * 86_400_000;
const maxJobs = 100_000;

/** "31d", "12h", "90m", "1w": how far to move a test clock. */
export function parseAdvance(raw: string): number | undefined {
  const m = /^(\d{1,9})(ms|s|m|h|d|w)$/.exec(raw.trim());
  return m ? Number(m[1]) * units[m[2]] : undefined;
}

export function requireTestMode(principal: Principal) {
  // A live key has no test clock: answered as any route that does not exist for it.
  if (principal.mode !== 'test') throw new AppError('not_found', 'Test clocks exist in test mode only; use a test key (svc_test_…).');
}

export async function clockNow(db: Db, principal: Principal) {
  requireTestMode(principal);
  return { now: (await modeNow(db, principal.brandId, 'test')).toISOString() };
}

/**
 * Moves the brand's test-mode clock forward (never back), then runs every job that falls due in
 * between, in time order, as of each job's own due time: renewals, retries, ends of access and
 * payout runs. Meanwhile the background worker leaves this brand's test-mode jobs alone
 * (test_clocks.busy_until), so the order holds. Returns the new time and how many jobs ran.
 */
export async function advanceClock(db: Db, config: Config, principal: Principal, input: { by?: string; to?: string }) {
  requireTestMode(principal);
  const { brandId } = principal;
  if ((input.by === undefined) === (input.to === undefined)) throw invalid('by', 'give exactly one of `by` (e.g. "31d") and `to` (an ISO 8601 time)');
  const busyMs = 10 * 60_000;
  const target = await db.transaction(async (tx) => {
    const clock = await lockClock(tx, brandId);
    const now = clock.realNow.getTime() + clock.offsetMs;
    let by: number;
    if (input.by !== undefined) {
      const ms = parseAdvance(input.by);
      if (ms === undefined || ms > maxAdvanceMs) throw invalid('by', 'must be a duration such as 30m, 12h, 31d or 2w, at most 20 years');
      by = ms;
    } else {
      const to = Date.parse(input.to!);
      if (!/^\d{4}-\d{2}-\d{2}T/.test(input.to!) || Number.isNaN(to)) throw invalid('to', 'must be an ISO 8601 time such as 2027-01-31T00:00:00.000Z');
      if (to < now) throw invalid('to', `must not be before the clock's time, ${new Date(now).toISOString()}: a test clock only moves forward`);
      if (to - now > maxAdvanceMs) throw invalid('to', 'must be at most 20 years after the clock\'s time');
      by = to - now;
    }
    await setClock(tx, brandId, clock.offsetMs + by, busyMs);
    return new Date(now + by);
  });
  let jobsRun = 0;
  let waits = 0;
  try {
    for (; jobsRun < maxJobs; jobsRun++) {
      const subDue = await nextDueAt(db, brandId);
      const schedule = await findSchedule(db, brandId, 'test');
      const payoutDue = schedule ? nextBoundary(schedule.period_start, config.payouts.schedule) : undefined;
      const dueSub = subDue && subDue <= target ? subDue : undefined;
      const duePayout = payoutDue && payoutDue <= target ? payoutDue : undefined;
      if (!dueSub && !duePayout) break;
      // Earliest first; a renewal and a payout run at the same instant: the renewal first, so
      // its payment is in that run.
      const ran = dueSub && (!duePayout || dueSub <= duePayout)
        ? await runDueSubscription(db, testModeProviders, config.renewals, { brandId, until: dueSub })
        : await runDuePayout(db, config.payouts, { brandId, until: duePayout! });
      // Held by a worker that claimed it before the advance began: give it a moment.
      if (!ran) {
        if (++waits > 500) throw new AppError('service_unavailable', 'A worker holds this brand\'s due work; try the advance again in a moment.');
        await new Promise((resolve) => setTimeout(resolve, 20));
        jobsRun--;
      }
    }
  } finally {
    await releaseClock(db, brandId);
  }
  return { now: target.toISOString(), jobsRun };
}
