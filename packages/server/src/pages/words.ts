import { formatMoney } from '../money.ts';
import { everyPeriod } from '../subscriptions/periods.ts';
import type { TierRow } from '../products/repository.ts';

/** How the public pages (storefront, checkout, checkout links, portal) say things in words: prices, recurrence, durations, dates in the brand's time zone. */

/** "Saturday 14 March 2027, 15:00 GMT" in the brand's time zone (UTC when it has none). */
export function dateTimeWords(at: Date, timeZone: string | null): string {
  return new Intl.DateTimeFormat('en-GB', {
    weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit',
    timeZone: timeZone ?? 'UTC', timeZoneName: 'short',
  }).format(at);
}

/** 600 -> "10 min", 5400 -> "1 h 30 min" (an item's `duration` is in seconds). */
export function durationWords(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return h ? `${h} h${m ? ` ${m} min` : ''}` : `${m} min`;
}

/** "every month, until cancelled", "every 2 weeks, 6 payments", or undefined for a one-off tier. */
export function recurrenceWords(tier: Pick<TierRow, 'recurrence_periodic' | 'recurrence_interval' | 'recurrence_count'>): string | undefined {
  if (!tier.recurrence_periodic) return undefined;
  const every = everyPeriod(tier.recurrence_periodic, tier.recurrence_interval ?? 1);
  const count = tier.recurrence_count ?? 0;
  if (count === 1) return `once, for one period (${every.replace('every ', '')})`;
  return count > 1 ? `${every}, ${count} payments` : `${every}, until cancelled`;
}

/** What a tier costs, as shown: the price after discount and, if discounted, the price before. */
export function tierPrice(tier: TierRow): { now: string; was?: string; saving?: string; free: boolean; pwyw: boolean } {
  const discount = tier.discount_amount ?? 0;
  const now = tier.price_amount - discount;
  return {
    now: now === 0 ? 'Free' : formatMoney(now, tier.currency),
    ...(discount > 0 ? { was: formatMoney(tier.price_amount, tier.currency), saving: formatMoney(discount, tier.currency) } : {}),
    free: now === 0 && tier.type !== 'pay_what_you_want',
    pwyw: tier.type === 'pay_what_you_want',
  };
}

export const eventTypeWords: Record<string, string> = { in_person: 'In person', online: 'Online', hybrid: 'In person and online' };
