import { versionOf } from '../object-version.ts';
import type { SubscriptionRow } from './repository.ts';
import type { Subscription } from './schemas.ts';

export function renderSubscription(row: SubscriptionRow): Subscription {
  return {
    status: row.status,
    currentPeriodStart: row.current_period_start.toISOString(),
    currentPeriodEnd: row.current_period_end.toISOString(),
    periodsPaid: row.periods_paid,
    count: row.period_count,
    cancelAtPeriodEnd: row.cancel_at_period_end,
    ...(row.next_billing_at ? { nextBillingAt: row.next_billing_at.toISOString() } : {}),
    ...versionOf(row),
  };
}
