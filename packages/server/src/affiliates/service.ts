import type { Queryable } from '../db/client.ts';
import { pageRequest, toPage } from '../db/paging.ts';
import { AppError, invalidAll, notFound, type ErrorDetail } from '../errors.ts';
import { newId } from '../ids.ts';
import type { Principal } from '../auth/principal.ts';
import { modeNow } from '../clock/repository.ts';
import { requireHub } from '../hubs/repository.ts';
import { toMajor } from '../money.ts';
import { findProduct } from '../products/repository.ts';
import { feeOf } from '../transactions/service.ts';
import { versionOf } from '../object-version.ts';
import { commissionAmount, heldUntil, type CommissionSettings } from './commissions.ts';
import { commissionsOf, type CommissionWithPayment } from './commissions-repository.ts';
import * as repo from './repository.ts';
import type { AffiliateRow } from './repository.ts';
import type { Affiliate, AffiliateCreateBody, AffiliateUpdateBody } from './schemas.ts';

const toBps = (percent: number) => Math.round(percent * 100);

/** What the affiliate brought per currency: sales, and commission pending (in its hold), earned and paid out. */
function statsOf(rows: CommissionWithPayment[], now: Date, settings: CommissionSettings): Affiliate['stats'] {
  const by = new Map<string, { sales: number; salesAmount: number; pending: number; earned: number; paidOut: number }>();
  for (const c of rows) {
    const s = by.get(c.currency) ?? { sales: 0, salesAmount: 0, pending: 0, earned: 0, paidOut: 0 };
    const amount = commissionAmount(c, settings, c.payment_fee ?? feeOf(Number(c.payment_amount), c.currency, settings));
    s.sales += 1;
    s.salesAmount += Number(c.payment_amount);
    if (heldUntil(c, settings) > now) s.pending += amount;
    else s.earned += amount;
    if (c.payout_id) s.paidOut += amount;
    by.set(c.currency, s);
  }
  return [...by.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([currency, s]) => ({
    currency,
    sales: s.sales,
    salesAmount: toMajor(s.salesAmount, currency),
    pending: toMajor(s.pending, currency),
    earned: toMajor(s.earned, currency),
    paidOut: toMajor(s.paidOut, currency),
  }));
}

async function render(db: Queryable, row: AffiliateRow, settings: CommissionSettings): Promise<Affiliate> {
  const [rows, now] = await Promise.all([commissionsOf(db, row.brand_id, row.id), modeNow(db, row.brand_id, row.mode)]);
  return {
    id: row.id,
    mode: row.mode,
    name: row.name,
    email: row.email,
    code: row.code,
    commissionPercent: row.commission_bps / 100,
    productCommissions: Object.entries(row.product_bps).map(([productID, bps]) => ({ productID, commissionPercent: bps / 100 })),
    recurring: row.recurring,
    status: row.status,
    stats: statsOf(rows, now, settings),
    createdAt: row.created_at.toISOString(),
    ...versionOf(row),
  };
}

/** Each product id must be a product or hub of the brand; named once. */
async function productRates(tx: Queryable, brandId: string, list: AffiliateCreateBody['productCommissions'], problems: ErrorDetail[]) {
  const rates: Record<string, number> = {};
  for (const [i, p] of (list ?? []).entries()) {
    const field = `productCommissions[${i}].productID`;
    if (rates[p.productID] !== undefined) problems.push({ field, index: i, message: `"${p.productID}" is named twice` });
    const known = (await findProduct(tx, brandId, p.productID)) ?? (await requireHub(tx, brandId, p.productID).catch(() => undefined));
    if (!known) problems.push({ field, index: i, message: `no product or hub with id "${p.productID}" exists` });
    rates[p.productID] = toBps(p.commissionPercent);
  }
  return rates;
}

async function codeTaken(tx: Queryable, principal: Principal, code: string, self?: string) {
  const holder = await repo.findActiveByCode(tx, principal.brandId, principal.mode, code);
  return holder && holder.id !== self ? holder : undefined;
}

const takenMessage = (code: string) => `"${code}" is the code of another active affiliate of this brand (codes are case-insensitive)`;

export async function createAffiliate(tx: Queryable, principal: Principal, body: AffiliateCreateBody, settings: CommissionSettings): Promise<Affiliate> {
  const problems: ErrorDetail[] = [];
  const product_bps = await productRates(tx, principal.brandId, body.productCommissions, problems);
  if (await codeTaken(tx, principal, body.code)) problems.push({ field: 'code', message: takenMessage(body.code) });
  if (problems.length) throw invalidAll(problems);
  const row = await repo.insertAffiliate(tx, {
    brand_id: principal.brandId, id: newId('aff'), mode: principal.mode, name: body.name, email: body.email, code: body.code,
    commission_bps: toBps(body.commissionPercent), product_bps, recurring: body.recurring ?? false,
  }).catch((err: unknown) => {
    // Two requests racing for one code: the unique index decides, and the loser is told as above.
    if ((err as { code?: string }).code === '23505') throw invalidAll([{ field: 'code', message: takenMessage(body.code) }]);
    throw err;
  });
  return render(tx, row, settings);
}

export async function listAffiliates(db: Queryable, principal: Principal, query: { limit?: number; cursor?: string; status?: string }, settings: CommissionSettings) {
  const page = pageRequest('affiliates', query);
  const rows = await repo.listAffiliates(db, principal.brandId, principal.mode, page, { status: query.status });
  const rendered = await Promise.all(rows.map((r) => render(db, r, settings)));
  const byId = new Map(rendered.map((a) => [a.id, a]));
  return toPage('affiliates', page, rows, (r) => byId.get(r.id)!);
}

export async function getAffiliate(db: Queryable, principal: Principal, id: string, settings: CommissionSettings) {
  const row = await repo.findAffiliate(db, principal.brandId, principal.mode, id);
  if (!row) throw notFound('affiliate');
  return render(db, row, settings);
}

export async function updateAffiliate(tx: Queryable, principal: Principal, id: string, body: AffiliateUpdateBody, settings: CommissionSettings) {
  const row = await repo.findAffiliate(tx, principal.brandId, principal.mode, id, { forUpdate: true });
  if (!row) throw notFound('affiliate');
  const problems: ErrorDetail[] = [];
  const product_bps = body.productCommissions ? await productRates(tx, principal.brandId, body.productCommissions, problems) : undefined;
  const code = body.code ?? row.code;
  const willBeActive = (body.status ?? row.status) === 'active';
  if (willBeActive && (body.code !== undefined || body.status === 'active') && await codeTaken(tx, principal, code, row.id)) {
    problems.push({ field: body.code !== undefined ? 'code' : 'status', message: takenMessage(code) });
  }
  if (problems.length) throw invalidAll(problems);
  const updated = await repo.updateAffiliate(tx, principal.brandId, id, {
    name: body.name, email: body.email, code: body.code, recurring: body.recurring, status: body.status, product_bps,
    commission_bps: body.commissionPercent === undefined ? undefined : toBps(body.commissionPercent),
  }).catch((err: unknown) => {
    if ((err as { code?: string }).code === '23505') throw new AppError('conflict', takenMessage(code));
    throw err;
  });
  return render(tx, updated!, settings);
}
