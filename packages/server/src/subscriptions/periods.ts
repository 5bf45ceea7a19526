/**
 * Billing periods. Every period end is computed from the subscription's start (its anchor), not
 * from the previous end, so a monthly subscription started on 31 January ends its periods on
 * 28/29 February, 31 March, 30 April, 31 May… and never drifts to the 28th.
 */
export type Periodic = 'daily' | 'weekly' | 'monthly' | 'yearly';

const dayMs = 86_400_000;

function addMonths(anchor: Date, months: number): Date {
  const d = new Date(anchor.getTime());
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}

/** The end of the n-th period (n ≥ 1) of a subscription started at `anchor`. */
export function periodEnd(anchor: Date, periodic: Periodic, interval: number, n: number): Date {
  switch (periodic) {
    case 'daily': return new Date(anchor.getTime() + n * interval * dayMs);
    case 'weekly': return new Date(anchor.getTime() + n * interval * 7 * dayMs);
    case 'monthly': return addMonths(anchor, n * interval);
    case 'yearly': return addMonths(anchor, n * interval * 12);
  }
}

const units: Record<Periodic, [string, string]> = {
  daily: ['day', 'days'], weekly: ['week', 'weeks'], monthly: ['month', 'months'], yearly: ['year', 'years'],
};

/** "every month", "every 3 months". */
export function everyPeriod(periodic: Periodic, interval: number): string {
  const [one, many] = units[periodic];
  return interval === 1 ? `every ${one}` : `every ${interval} ${many}`;
}

/** How many months one period is, before its interval: a subscription's amount × this ÷ interval is its monthly recurring revenue. */
export const monthsPerPeriod: Record<Periodic, number> = { daily: 365 / 12, weekly: 52 / 12, monthly: 1, yearly: 1 / 12 };
