import type { Queryable } from '../db/client.ts';
import type { Principal } from '../auth/principal.ts';
import { findProfile } from '../brands/repository.ts';
import { customerIdsOf } from '../customers/repository.ts';
import { newPeople } from '../memberships/repository.ts';
import { toMajor } from '../money.ts';
import { pastDueSubscriptions, runningSubscriptions } from '../subscriptions/repository.ts';
import { monthsPerPeriod as perMonth } from '../subscriptions/periods.ts';
import { refundsByDay } from '../transactions/refunds-repository.ts';
import { recentSales, salesByDay } from '../transactions/repository.ts';
import { renderTransaction, type FeeSettings } from '../transactions/service.ts';
import { lastLocalDays } from './days.ts';
import type { MetricsSummary, RevenuePeriod } from './schemas.ts';

const daysShown = 30;
const listed = 10;


/**
 * The home's numbers (GET /metrics/summary), all read from the service's own records of the
 * principal's brand and mode at `now`. Money stays per currency: nothing here adds two currencies.
 */
export async function metricsSummary(db: Queryable, principal: Principal, input: { now: Date; fees?: FeeSettings }): Promise<MetricsSummary> {
  const { brandId, mode } = principal;
  const timeZone = (await findProfile(db, brandId))?.time_zone ?? 'UTC';
  const days = lastLocalDays(input.now, timeZone, daysShown);
  const [sales, refunds, running, pastDue, recent, people] = await Promise.all([
    salesByDay(db, brandId, mode, days),
    refundsByDay(db, brandId, mode, days),
    runningSubscriptions(db, brandId, mode),
    pastDueSubscriptions(db, brandId, mode, listed),
    recentSales(db, brandId, mode, listed),
    newPeople(db, brandId, mode, [days.length - 1, days.length - 7, 0].map((i) => ({ since: days[i].starts, until: days.at(-1)!.ends }))),
  ]);

  // Minor units per currency and day (index 0 = oldest).
  const byCurrency = new Map<string, { gross: number[]; refunded: number[]; sales: number[] }>();
  const row = (currency: string) => {
    let r = byCurrency.get(currency);
    if (!r) byCurrency.set(currency, r = { gross: Array(daysShown).fill(0), refunded: Array(daysShown).fill(0), sales: Array(daysShown).fill(0) });
    return r;
  };
  for (const s of sales) { row(s.currency).gross[s.day - 1] += Number(s.gross); row(s.currency).sales[s.day - 1] += s.count; }
  for (const r of refunds) row(r.currency).refunded[r.day - 1] += Number(r.refunded);

  const revenue = [...byCurrency.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([currency, r]) => {
    const period = (from: number): RevenuePeriod => {
      const sum = (xs: number[]) => xs.slice(from).reduce((a, b) => a + b, 0);
      const gross = sum(r.gross), refunded = sum(r.refunded);
      return { gross: toMajor(gross, currency), refunded: toMajor(refunded, currency), net: toMajor(gross - refunded, currency), sales: sum(r.sales) };
    };
    return {
      currency,
      today: period(daysShown - 1),
      last7Days: period(daysShown - 7),
      last30Days: period(0),
      daily: days.map((d, i) => ({
        date: d.date,
        gross: toMajor(r.gross[i], currency),
        refunded: toMajor(r.refunded[i], currency),
        net: toMajor(r.gross[i] - r.refunded[i], currency),
      })),
    };
  });

  const mrr = new Map<string, number>();
  for (const s of running) {
    if (s.status === 'active' && s.cancel_at_period_end) continue;
    mrr.set(s.currency, (mrr.get(s.currency) ?? 0) + (Number(s.amount) * perMonth[s.periodic]) / s.period_interval);
  }

  const customerIds = await customerIdsOf(db, principal.brandId, principal.mode, pastDue.map((s) => s.customer_email));
  return {
    timeZone,
    generatedAt: input.now.toISOString(),
    revenue,
    subscriptions: {
      active: running.filter((s) => s.status === 'active').length,
      cancelling: running.filter((s) => s.status === 'active' && s.cancel_at_period_end).length,
      pastDue: running.filter((s) => s.status === 'past_due').length,
      mrr: [...mrr.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([currency, minor]) => ({ currency, amount: toMajor(Math.round(minor), currency) })),
    },
    newMembers: { today: people[0], last7Days: people[1], last30Days: people[2] },
    recentSales: recent.map((t) => renderTransaction(t, input.fees)),
    failedRenewals: {
      count: running.filter((s) => s.status === 'past_due').length,
      items: pastDue.map((s) => ({
        membershipID: s.membership_id,
        customer: { name: s.customer_name, email: s.customer_email },
        customerID: customerIds.get(s.customer_email)!,
        amount: toMajor(Number(s.amount), s.currency),
        currency: s.currency,
        failedAttempts: s.failed_attempts,
        periodEnded: s.current_period_end.toISOString(),
        ...(s.due_at ? { nextRetryAt: s.due_at.toISOString() } : {}),
      })),
    },
  };
}
