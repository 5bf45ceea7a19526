import type { Queryable } from '../db/client.ts';
import { pageRequest, toPage } from '../db/paging.ts';
import { AppError, invalidAll, notFound, type ErrorDetail } from '../errors.ts';
import { newId } from '../ids.ts';
import type { Principal } from '../auth/principal.ts';
import { exponentOf, toMajor, toMinor } from '../money.ts';
import * as repo from './repository.ts';
import type { CouponRow } from './repository.ts';
import type { Coupon, CouponCreateBody, CouponUpdateBody, CouponWithRedemptions } from './schemas.ts';

type Money = { amount: number; currency: string };

const moneyList = (byCurrency: Record<string, number> | null): Money[] =>
  Object.entries(byCurrency ?? {}).sort(([a], [b]) => a.localeCompare(b)).map(([currency, minor]) => ({ amount: toMajor(Number(minor), currency), currency }));

export function renderCoupon(row: CouponRow): Coupon {
  const scoped = row.product_ids.length + row.tier_ids.length + row.hub_ids.length > 0;
  return {
    id: row.id,
    code: row.code,
    ...(row.name ? { name: row.name } : {}),
    mode: row.mode,
    ...(row.percent_off !== null ? { percentOff: Number(row.percent_off) } : {}),
    ...(row.amounts_off ? { amountsOff: moneyList(row.amounts_off) } : {}),
    ...(scoped ? { appliesTo: { products: row.product_ids, tiers: row.tier_ids, hubs: row.hub_ids } } : {}),
    ...(row.starts_at ? { startsAt: row.starts_at.toISOString() } : {}),
    ...(row.ends_at ? { endsAt: row.ends_at.toISOString() } : {}),
    ...(row.max_redemptions !== null ? { maxRedemptions: row.max_redemptions } : {}),
    ...(row.max_per_customer !== null ? { maxPerCustomer: row.max_per_customer } : {}),
    minimumAmounts: moneyList(row.minimum_amounts),
    duration: row.duration,
    ...(row.duration_periods !== null ? { durationPeriods: row.duration_periods } : {}),
    status: row.status,
    redemptions: row.redemptions,
    reserved: row.reserved,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** A list of { amount, currency } as minor units by currency; problems (a currency twice, too many decimals) by field. */
function byCurrency(list: Money[], field: string, problems: ErrorDetail[], positive: boolean): Record<string, number> {
  const out: Record<string, number> = {};
  list.forEach((m, i) => {
    const minor = toMinor(m.amount, m.currency);
    if (m.currency in out) problems.push({ field: `${field}[${i}].currency`, index: i, message: `${m.currency} is listed twice` });
    else if (minor === null) problems.push({ field: `${field}[${i}].amount`, index: i, message: `has more decimals than ${m.currency} allows` });
    else if (minor < 0 || (positive && minor === 0)) problems.push({ field: `${field}[${i}].amount`, index: i, message: positive ? 'must be more than 0' : 'may not be negative' });
    else out[m.currency] = minor;
  });
  return out;
}

/** The ids a scope names must be the brand's own products, tiers and hubs. */
async function checkScope(tx: Queryable, brandId: string, appliesTo: CouponCreateBody['appliesTo'], problems: ErrorDetail[]) {
  const lists = [['products', 'products', appliesTo?.products], ['tiers', 'tiers', appliesTo?.tiers], ['hubs', 'hubs', appliesTo?.hubs]] as const;
  for (const [key, table, ids] of lists) {
    if (!ids?.length) continue;
    const found = await tx.query<{ id: string }>(`SELECT id FROM ${table} WHERE brand_id = $1 AND id = ANY($2::text[])`, [brandId, ids]);
    ids.forEach((id, i) => {
      if (!found.some((f) => f.id === id)) problems.push({ field: `appliesTo.${key}[${i}]`, index: i, message: `no ${key.slice(0, -1)} with id "${id}" exists` });
    });
  }
}

function checkWindow(startsAt: Date | null, endsAt: Date | null, problems: ErrorDetail[]) {
  if (startsAt && endsAt && endsAt.getTime() <= startsAt.getTime()) problems.push({ field: 'endsAt', message: 'must be after `startsAt`' });
}

export async function createCoupon(tx: Queryable, principal: Principal, body: CouponCreateBody): Promise<Coupon> {
  const problems: ErrorDetail[] = [];
  if ((body.percentOff === undefined) === (body.amountsOff === undefined)) {
    problems.push({ field: 'percentOff', message: 'give either `percentOff` or `amountsOff` (one of them, not both)' });
  }
  if (body.percentOff !== undefined && Math.round(body.percentOff * 100) !== body.percentOff * 100) problems.push({ field: 'percentOff', message: 'may have at most two decimals' });
  const amountsOff = body.amountsOff ? byCurrency(body.amountsOff, 'amountsOff', problems, true) : null;
  const minimums = byCurrency(body.minimumAmounts ?? [], 'minimumAmounts', problems, false);
  const duration = body.duration ?? 'once';
  if (duration === 'repeating' && body.durationPeriods === undefined) problems.push({ field: 'durationPeriods', message: 'is required with `duration: "repeating"` (how many payments are discounted)' });
  if (duration !== 'repeating' && body.durationPeriods !== undefined) problems.push({ field: 'durationPeriods', message: `applies only to \`duration: "repeating"\`, not "${duration}"` });
  const startsAt = body.startsAt ? new Date(body.startsAt) : null;
  const endsAt = body.endsAt ? new Date(body.endsAt) : null;
  checkWindow(startsAt, endsAt, problems);
  await checkScope(tx, principal.brandId, body.appliesTo, problems);
  if (problems.length) throw invalidAll(problems);

  const row = await repo.insertCoupon(tx, {
    brand_id: principal.brandId,
    id: newId('cpn'),
    mode: principal.mode,
    code: body.code,
    name: body.name ?? null,
    percent_off: body.percentOff ?? null,
    amounts_off: amountsOff,
    product_ids: body.appliesTo?.products ?? [],
    tier_ids: body.appliesTo?.tiers ?? [],
    hub_ids: body.appliesTo?.hubs ?? [],
    starts_at: startsAt,
    ends_at: endsAt,
    max_redemptions: body.maxRedemptions ?? null,
    max_per_customer: body.maxPerCustomer ?? null,
    minimum_amounts: minimums,
    duration,
    duration_periods: body.durationPeriods ?? null,
  });
  if (!row) throw codeInUse(body.code);
  return renderCoupon(row);
}

const codeInUse = (code: string) => new AppError('conflict', `An active coupon already has the code "${code}" (codes are matched ignoring case). Archive it first, or pick another code.`,
  [{ field: 'code', message: 'is the code of another active coupon' }]);

export async function listCoupons(db: Queryable, principal: Principal, query: { limit?: number; cursor?: string; status?: string; code?: string }) {
  const page = pageRequest('coupons', query);
  const rows = await repo.listCoupons(db, principal.brandId, principal.mode, page, query);
  return toPage('coupons', page, rows, renderCoupon);
}

export async function getCoupon(db: Queryable, principal: Principal, id: string): Promise<CouponWithRedemptions> {
  const row = await repo.findCoupon(db, principal.brandId, principal.mode, id);
  if (!row) throw notFound('coupon');
  const [uses, totals] = await Promise.all([repo.recentRedemptions(db, principal.brandId, id), repo.revenueOf(db, principal.brandId, id)]);
  return {
    ...renderCoupon(row),
    revenue: totals.map((r) => ({ amount: toMajor(Number(r.revenue), r.currency), currency: r.currency })),
    discounted: totals.map((r) => ({ amount: toMajor(Number(r.discounted), r.currency), currency: r.currency })),
    recentRedemptions: uses.map((u) => ({
      txref: u.txref,
      email: u.email,
      status: u.status,
      discount: { amount: toMajor(Number(u.discount), u.currency), currency: u.currency },
      paid: { amount: toMajor(Number(u.amount) - Number(u.refunded_amount ?? 0), u.currency), currency: u.currency },
      createdAt: u.created_at.toISOString(),
    })),
  };
}

export async function updateCoupon(tx: Queryable, principal: Principal, id: string, body: CouponUpdateBody): Promise<Coupon> {
  const row = await repo.lockCoupon(tx, principal.brandId, principal.mode, id);
  if (!row) throw notFound('coupon');
  const problems: ErrorDetail[] = [];
  if (body.maxRedemptions !== undefined && body.maxRedemptions !== null && body.maxRedemptions < row.held) {
    problems.push({ field: 'maxRedemptions', message: `may not be below the ${row.held} uses already made or under way` });
  }
  const when = (v: string | null | undefined, current: Date | null) => (v === undefined ? current : v === null ? null : new Date(v));
  const startsAt = when(body.startsAt, row.starts_at);
  const endsAt = when(body.endsAt, row.ends_at);
  checkWindow(startsAt, endsAt, problems);
  if (body.appliesTo) await checkScope(tx, principal.brandId, body.appliesTo, problems);
  const minimums = body.minimumAmounts ? byCurrency(body.minimumAmounts, 'minimumAmounts', problems, false) : undefined;
  if (problems.length) throw invalidAll(problems);
  await repo.updateCoupon(tx, principal.brandId, id, {
    name: body.name,
    ...(body.appliesTo ? { product_ids: body.appliesTo.products ?? [], tier_ids: body.appliesTo.tiers ?? [], hub_ids: body.appliesTo.hubs ?? [] } : {}),
    starts_at: body.startsAt === undefined ? undefined : startsAt,
    ends_at: body.endsAt === undefined ? undefined : endsAt,
    max_redemptions: body.maxRedemptions,
    max_per_customer: body.maxPerCustomer,
    minimum_amounts: minimums,
  });
  return renderCoupon((await repo.findCoupon(tx, principal.brandId, principal.mode, id))!);
}

/**
 * DELETE /coupons/{id}, as Stripe's: no new buyer can use it, and what it already gave stays
 * (subscriptions keep their discount, redemptions and revenue stay listed). It is archived,
 * never deleted, so the code is free for a new coupon. Archiving twice answers the same.
 */
export async function archiveCoupon(tx: Queryable, principal: Principal, id: string): Promise<Coupon> {
  const row = await repo.lockCoupon(tx, principal.brandId, principal.mode, id);
  if (!row) throw notFound('coupon');
  if (row.status !== 'archived') await repo.updateCoupon(tx, principal.brandId, id, { status: 'archived' });
  return renderCoupon((await repo.findCoupon(tx, principal.brandId, principal.mode, id))!);
}

/** An active coupon's code and discount in words ("SPRING20: 20% off"), for the web checkout's summary; undefined for an unknown code. */
export async function couponInWords(db: Queryable, brandId: string, mode: Principal['mode'], code: string): Promise<string | undefined> {
  const row = await repo.findActiveByCode(db, brandId, mode, code);
  if (!row) return undefined;
  const off = row.percent_off !== null
    ? `${Number(row.percent_off)}% off`
    : moneyList(row.amounts_off).map((m) => `${m.amount.toFixed(exponentOf(m.currency))} ${m.currency}`).join(' or ') + ' off';
  return `${row.code}: ${off}`;
}
