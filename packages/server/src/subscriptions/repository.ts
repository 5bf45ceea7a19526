import type { Queryable } from '../db/client.ts';
import type { Mode } from '../auth/principal.ts';
import { bumpVersionSql } from '../object-version.ts';
import { notAdvancingSql, rowNowSql } from '../clock/repository.ts';
import type { PageRequest } from '../db/paging.ts';
import { customerIdSql } from '../ids.ts';
import type { Periodic } from './periods.ts';

export type SubscriptionStatus = 'active' | 'past_due' | 'cancelled' | 'expired' | 'completed';

export interface SubscriptionRow {
  brand_id: string;
  id: string;
  mode: Mode;
  /** The membership the subscription.* events are about (the product's customer, else the hub member). */
  membership_id: string;
  tier_id: string;
  amount: number;
  currency: string;
  periodic: Periodic;
  period_interval: number;
  period_count: number;
  status: SubscriptionStatus;
  started_at: Date;
  current_period_start: Date;
  current_period_end: Date;
  periods_paid: number;
  cancel_at_period_end: boolean;
  next_billing_at: Date | null;
  failed_attempts: number;
  due_at: Date | null;
  pending_transaction_id: string | null;
  customer_name: string;
  customer_email: string;
  metadata: Record<string, string>;
  provider: string | null;
  payment_method: string | null;
  ended_at: Date | null;
  /** A coupon's discount on each renewal (minor units) and how many payments in all it lasts, null for all (migration 024). */
  discount_amount?: number | string | null;
  discount_periods?: number | null;
  created_at: Date;
  /** Incremented, with updated_at, by every UPDATE here (object-version.ts). */
  version: number;
  updated_at: Date;
}

export type NewSubscription = Omit<SubscriptionRow, 'created_at' | 'updated_at' | 'version' | 'ended_at' | 'failed_attempts' | 'pending_transaction_id' | 'cancel_at_period_end'>;

const columns = ['brand_id', 'id', 'mode', 'membership_id', 'tier_id', 'amount', 'currency', 'periodic', 'period_interval', 'period_count',
  'status', 'started_at', 'current_period_start', 'current_period_end', 'periods_paid', 'next_billing_at', 'due_at', 'customer_name',
  'customer_email', 'metadata', 'provider', 'payment_method', 'discount_amount', 'discount_periods'] as const satisfies readonly (keyof NewSubscription)[];

export async function insertSubscription(db: Queryable, s: NewSubscription): Promise<SubscriptionRow> {
  const [row] = await db.query<SubscriptionRow>(
    `INSERT INTO subscriptions (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING *`,
    columns.map((c) => s[c]),
  );
  return row;
}

export type SubscriptionPatch = Partial<Pick<SubscriptionRow, 'status' | 'current_period_start' | 'current_period_end' | 'periods_paid'
  | 'cancel_at_period_end' | 'next_billing_at' | 'failed_attempts' | 'due_at' | 'pending_transaction_id' | 'ended_at' | 'payment_method'>>;

export async function updateSubscription(db: Queryable, brandId: string, id: string, patch: SubscriptionPatch): Promise<SubscriptionRow> {
  const keys = Object.keys(patch) as (keyof SubscriptionPatch)[];
  const [row] = await db.query<SubscriptionRow>(
    `UPDATE subscriptions SET ${keys.map((k, i) => `${k} = $${i + 3}`).join(', ')}, ${bumpVersionSql}
     WHERE brand_id = $1 AND id = $2 RETURNING *`,
    [brandId, id, ...keys.map((k) => patch[k])],
  );
  return row;
}

export async function findSubscription(db: Queryable, brandId: string, id: string, options: { forUpdate?: boolean } = {}) {
  const [row] = await db.query<SubscriptionRow>(
    `SELECT * FROM subscriptions WHERE brand_id = $1 AND id = $2${options.forUpdate ? ' FOR UPDATE' : ''}`, [brandId, id]);
  return row;
}

/** The subscription a provider bills itself (Stripe), by the provider's id for it kept in payment_method; locked. */
export async function findByProviderMethod(db: Queryable, brandId: string, provider: string, method: string) {
  const [row] = await db.query<SubscriptionRow>(
    'SELECT * FROM subscriptions WHERE brand_id = $1 AND provider = $2 AND payment_method = $3 ORDER BY created_at DESC LIMIT 1 FOR UPDATE',
    [brandId, provider, method]);
  return row;
}

/** The subscription a renewal charge belongs to, locked; none once it has moved on. */
export async function findByPendingTransaction(db: Queryable, brandId: string, transactionId: string) {
  const [row] = await db.query<SubscriptionRow>(
    'SELECT * FROM subscriptions WHERE brand_id = $1 AND pending_transaction_id = $2 FOR UPDATE', [brandId, transactionId]);
  return row;
}

export function findSubscriptions(db: Queryable, brandId: string, ids: string[]) {
  if (!ids.length) return Promise.resolve([]);
  return db.query<SubscriptionRow>('SELECT * FROM subscriptions WHERE brand_id = $1 AND id = ANY($2::text[])', [brandId, ids]);
}

/**
 * Claims the subscription whose turn it is (a renewal, a retry, or the end of access): due in its
 * own brand's and mode's time, earliest first, skipping rows another worker holds. With `brand`,
 * only that brand's test-mode work due by `until` (a test clock advance, which runs it itself);
 * without, any brand's, except test-mode work of a brand whose clock is being advanced.
 */
export async function claimDue(tx: Queryable, brand?: { brandId: string; until: Date }): Promise<SubscriptionRow | undefined> {
  const [row] = brand
    ? await tx.query<SubscriptionRow>(
      `SELECT * FROM subscriptions s WHERE s.brand_id = $1 AND s.mode = 'test' AND s.due_at IS NOT NULL AND s.due_at <= $2
       ORDER BY s.due_at, s.id LIMIT 1 FOR UPDATE SKIP LOCKED`,
      [brand.brandId, brand.until],
    )
    : await tx.query<SubscriptionRow>(
      `SELECT * FROM subscriptions s WHERE s.due_at IS NOT NULL AND s.due_at <= ${rowNowSql('s')} AND ${notAdvancingSql('s')}
       ORDER BY s.due_at LIMIT 1 FOR UPDATE SKIP LOCKED`,
      [],
      'claim_due_subscription',
    );
  return row;
}

/** When the brand's next test-mode subscription work falls due. */
export async function nextDueAt(db: Queryable, brandId: string): Promise<Date | undefined> {
  const [row] = await db.query<{ due: Date | null }>(
    'SELECT min(due_at) AS due FROM subscriptions WHERE brand_id = $1 AND mode = \'test\' AND due_at IS NOT NULL', [brandId]);
  return row?.due ?? undefined;
}

/** Which of these tiers some subscription (any mode, any status) bills: they were sold. */
export async function tiersInUse(db: Queryable, brandId: string, tierIds: string[]): Promise<string[]> {
  // One probe of subscriptions_tier per tier, stopping at the first row.
  const rows = await db.query<{ tier_id: string }>(
    `SELECT t AS tier_id FROM unnest($2::text[]) AS t
     WHERE EXISTS (SELECT 1 FROM subscriptions WHERE brand_id = $1 AND tier_id = t)`,
    [brandId, tierIds],
  );
  return rows.map((r) => r.tier_id);
}

/** The customer's newest subscription of a tier: the one a renewal transaction of that tier paid. */
export async function findForRenewal(db: Queryable, brandId: string, mode: Mode, tierId: string, email: string) {
  const [row] = await db.query<SubscriptionRow>(
    `SELECT * FROM subscriptions WHERE brand_id = $1 AND mode = $2 AND tier_id = $3 AND lower(customer_email) = lower($4)
     ORDER BY started_at DESC, id DESC LIMIT 1 FOR UPDATE`,
    [brandId, mode, tierId, email],
  );
  return row;
}

/** What the home counts of a brand's subscriptions in one mode (metrics/): those still running, and those a renewal failed on. */
export function runningSubscriptions(db: Queryable, brandId: string, mode: Mode) {
  return db.query<Pick<SubscriptionRow, 'amount' | 'currency' | 'periodic' | 'period_interval' | 'status' | 'cancel_at_period_end'>>(
    `SELECT amount, currency, periodic, period_interval, status, cancel_at_period_end FROM subscriptions
     WHERE brand_id = $1 AND mode = $2 AND status IN ('active', 'past_due')`,
    [brandId, mode],
  );
}

/** Subscriptions whose renewal failed and is being retried (past_due), the oldest failure first. */
export function pastDueSubscriptions(db: Queryable, brandId: string, mode: Mode, limit: number) {
  return db.query<SubscriptionRow>(
    `SELECT * FROM subscriptions WHERE brand_id = $1 AND mode = $2 AND status = 'past_due'
     ORDER BY current_period_end, id LIMIT $3`,
    [brandId, mode, limit],
  );
}

/** A subscription as the list shows it: with what its membership is of, and its customer's id. */
export type SubscriptionListRow = SubscriptionRow & { product_id: string | null; hub_id: string | null; customer_id: string };

export interface SubscriptionFilter {
  state?: 'active' | 'past_due' | 'cancelling' | 'ended';
  product?: string;
  hub?: string;
  tier?: string;
  /** A customer id (`cus_…`). */
  customer?: string;
  /** A lower-cased email: one person's (GET /customers/{id}). */
  person?: string;
}

const stateSql = {
  active: 's.status = \'active\' AND NOT s.cancel_at_period_end',
  cancelling: 's.status = \'active\' AND s.cancel_at_period_end',
  past_due: 's.status = \'past_due\'',
  ended: 's.status IN (\'cancelled\', \'expired\', \'completed\')',
};

/** GET /subscriptions: a brand's subscriptions of one mode, newest first, with the filter. */
export function listSubscriptions(db: Queryable, brandId: string, mode: Mode, filter: SubscriptionFilter, page: PageRequest) {
  const params: unknown[] = [brandId, mode, page.limit + 1];
  const param = (value: unknown) => { params.push(value); return `$${params.length}`; };
  const where: string[] = [];
  if (filter.state !== undefined) where.push(stateSql[filter.state]);
  if (filter.product !== undefined) where.push(`m.product_id = ${param(filter.product)}`);
  if (filter.hub !== undefined) where.push(`m.hub_id = ${param(filter.hub)}`);
  if (filter.tier !== undefined) where.push(`s.tier_id = ${param(filter.tier)}`);
  if (filter.customer !== undefined) where.push(`${customerIdSql('s.brand_id', 's.mode', 's.customer_email')} = ${param(filter.customer)}`);
  if (filter.person !== undefined) where.push(`lower(s.customer_email) = ${param(filter.person)}`);
  if (page.after) where.push(`(s.created_at, s.id) < (${param(page.after.createdAt)}, ${param(page.after.id)})`);
  return db.query<SubscriptionListRow>(
    `SELECT s.*, m.product_id, m.hub_id, ${customerIdSql('s.brand_id', 's.mode', 's.customer_email')} AS customer_id
     FROM subscriptions s
     LEFT JOIN memberships m ON m.brand_id = s.brand_id AND m.id = s.membership_id
     WHERE s.brand_id = $1 AND s.mode = $2 ${where.map((w) => `AND ${w}`).join(' ')}
     ORDER BY s.created_at DESC, s.id DESC
     LIMIT $3`,
    params,
  );
}
