import type { Queryable } from '../db/client.ts';
import { pageRequest, toPage } from '../db/paging.ts';
import type { Principal } from '../auth/principal.ts';
import { toMajor } from '../money.ts';
import { monthsPerPeriod } from './periods.ts';
import { listSubscriptions as listRows, type SubscriptionFilter, type SubscriptionListRow } from './repository.ts';
import type { SubscriptionListQuery, SubscriptionSummary } from './schemas.ts';

function stateOf(row: SubscriptionListRow): SubscriptionSummary['state'] {
  if (row.status === 'active') return row.cancel_at_period_end ? 'cancelling' : 'active';
  return row.status === 'past_due' ? 'past_due' : 'ended';
}

/**
 * A subscription's monthly recurring revenue in minor units, unrounded: what GET /metrics/summary
 * adds up per currency (and rounds once). Only subscriptions that will renew count: active and
 * not cancelling, or past due (still being retried).
 */
export function monthlyMinor(row: Pick<SubscriptionListRow, 'status' | 'cancel_at_period_end' | 'amount' | 'periodic' | 'period_interval'>): number {
  const renewing = (row.status === 'active' && !row.cancel_at_period_end) || row.status === 'past_due';
  return renewing ? (Number(row.amount) * monthsPerPeriod[row.periodic]) / row.period_interval : 0;
}

export function renderSubscriptionSummary(row: SubscriptionListRow): SubscriptionSummary {
  return {
    id: row.id,
    membershipID: row.membership_id,
    state: stateOf(row),
    status: row.status,
    ...(row.product_id ? { productID: row.product_id } : {}),
    ...(row.hub_id ? { hubID: row.hub_id } : {}),
    tierID: row.tier_id,
    amount: toMajor(Number(row.amount), row.currency),
    currency: row.currency,
    periodic: row.periodic,
    interval: row.period_interval,
    count: row.period_count,
    mrr: toMajor(Math.round(monthlyMinor(row)), row.currency),
    ...(row.next_billing_at ? { nextRenewalAt: row.next_billing_at.toISOString() } : {}),
    currentPeriodEnd: row.current_period_end.toISOString(),
    failedAttempts: row.failed_attempts,
    startedAt: row.started_at.toISOString(),
    ...(row.ended_at ? { endedAt: row.ended_at.toISOString() } : {}),
    customer: { id: row.customer_id, name: row.customer_name, email: row.customer_email },
  };
}

/** GET /subscriptions: one page, newest first. */
export async function listSubscriptions(db: Queryable, principal: Principal, query: SubscriptionListQuery) {
  const page = pageRequest('subscriptions', query);
  const filter: SubscriptionFilter = { state: query.status, product: query.product, hub: query.hub, tier: query.tier, customer: query.customer };
  const rows = await listRows(db, principal.brandId, principal.mode, filter, page);
  return toPage('subscriptions', page, rows, renderSubscriptionSummary);
}

/** Every subscription of one person (a lower-cased email), newest first: their customer page. */
export async function subscriptionsOfPerson(db: Queryable, principal: Principal, person: string): Promise<SubscriptionSummary[]> {
  const rows = await listRows(db, principal.brandId, principal.mode, { person }, { limit: 1000 });
  return rows.slice(0, 1000).map(renderSubscriptionSummary);
}
