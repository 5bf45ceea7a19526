import type { Queryable } from '../db/client.ts';
import { AppError, notFound, type ErrorDetail } from '../errors.ts';
import { requireHub } from '../hubs/repository.ts';
import { newId } from '../ids.ts';
import { appOf, type Principal } from '../auth/principal.ts';
import { hubTiers, productCheckoutFields, productTiers, type TierRow } from '../products/repository.ts';
import { requireProduct } from '../products/service.ts';
import { notifyWorker } from '../worker/notify.ts';
import { checkRecords, foldDuplicates, maxListedProblems, type RecordRules } from './records.ts';
import * as repo from './repository.ts';
import type { Import, ImportBody } from './schemas.ts';

/**
 * The plan imported people join on, or a problem with `plan`. An explicitly named tier may be
 * archived (imports are how grandfathered members are moved over); a default never is.
 */
function choosePlan(tiers: TierRow[], plan: string | undefined, owner: 'hub' | 'product'): { plan?: string; problem?: ErrorDetail } {
  if (plan !== undefined) {
    return tiers.some((t) => t.id === plan)
      ? { plan }
      : { problem: { field: 'plan', message: `is not a tier of this ${owner} (its tiers are ${tiers.map((t) => t.id).join(', ') || 'none'})` } };
  }
  const live = tiers.filter((t) => !t.archived);
  if (owner === 'hub') {
    // "Without it, members go on the free tier": a price of 0; the default one if several are.
    const free = live.filter((t) => t.price_amount === 0).sort((a, b) => Number(b.is_default) - Number(a.is_default) || a.position - b.position)[0];
    return free ? { plan: free.id } : { problem: { field: 'plan', message: 'is required: this hub has no free tier to put members on, so name one of its tiers' } };
  }
  const fallback = live.find((t) => t.is_default);
  return fallback ? { plan: fallback.id } : { problem: { field: 'plan', message: 'is required: this product has no default tier, so name one of its tiers' } };
}

function rejectProblems(total: number, planProblem: ErrorDetail | undefined, checked: ReturnType<typeof checkRecords>): never {
  const details = [...(planProblem ? [planProblem] : []), ...checked.problems].slice(0, maxListedProblems);
  const count = checked.problemCount + (planProblem ? 1 : 0);
  const first = details[0];
  const where = first.index === undefined ? `\`${first.field}\`` : `records[${first.index}]${first.field ? `.${first.field}` : ''}`;
  const summary = checked.invalidRecords
    ? `${checked.invalidRecords} of ${total} records ${checked.invalidRecords === 1 ? 'is' : 'are'} invalid`
    : 'The import is invalid';
  const listed = count > details.length ? ` The first ${details.length} of ${count} problems are listed in data.details.` : '';
  throw new AppError('validation_failed', `${summary}, so nothing was imported. First problem: ${where} ${first.message}.${listed}`, details);
}

async function queue(
  tx: Queryable,
  principal: Principal,
  target: { hub_id: string | null; product_id: string | null },
  tiers: TierRow[],
  rules: RecordRules,
  body: ImportBody,
  batchSize: number,
) {
  const chosen = choosePlan(tiers, body.plan, target.hub_id ? 'hub' : 'product');
  const checked = checkRecords(body.records, rules);
  if (chosen.problem || checked.problemCount) rejectProblems(body.records.length, chosen.problem, checked);
  const { people, duplicates } = foldDuplicates(checked.records);
  const id = newId('imp');
  await repo.insertImport(tx, {
    brand_id: principal.brandId, id, mode: principal.mode, ...target, plan: chosen.plan!, app_id: appOf(principal), duplicate_count: duplicates,
  }, people, Math.min(batchSize, repo.maxChunkSize));
  await notifyWorker(tx, 'import');
  return { queued: true, count: people.length, importID: id, duplicates };
}

/**
 * Our ids are a prefix and base64url: anything else cannot name a row, and some strings (NUL)
 * would make PostgreSQL fail the query, so such an id is answered as unknown without asking.
 */
function requireIdShape(id: string, what: string) {
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(id)) throw notFound(what);
}

/**
 * Endpoint 4: validates every record up front, then queues the import for the worker.
 * `batchSize` (IMPORT_BATCH_SIZE) sizes the stored chunks so the worker's batches take whole ones.
 */
export async function queueHubImport(tx: Queryable, principal: Principal, hubId: string, body: ImportBody, batchSize: number) {
  requireIdShape(hubId, 'hub');
  await requireHub(tx, principal.brandId, hubId);
  const tiers = await hubTiers(tx, principal.brandId, hubId);
  return queue(tx, principal, { hub_id: hubId, product_id: null }, tiers, { kind: 'hub' }, body, batchSize);
}

/** Endpoint 10: as endpoint 4, with the product's checkout fields allowed in records. */
export async function queueProductImport(tx: Queryable, principal: Principal, productId: string, body: ImportBody, batchSize: number) {
  requireIdShape(productId, 'product');
  await requireProduct(tx, principal, productId);
  const [tiers, fields] = await Promise.all([
    productTiers(tx, principal.brandId, productId),
    productCheckoutFields(tx, principal.brandId, productId),
  ]);
  return queue(tx, principal, { hub_id: null, product_id: productId }, tiers, { kind: 'product', fields }, body, batchSize);
}

export function renderImport(row: repo.ImportRow): Import {
  return {
    id: row.id,
    status: row.status,
    mode: row.mode,
    ...(row.hub_id ? { hubID: row.hub_id } : {}),
    ...(row.product_id ? { productID: row.product_id } : {}),
    plan: row.plan,
    count: row.record_count,
    duplicates: row.duplicate_count,
    created: row.created_count,
    alreadyPresent: row.existing_count,
    reactivated: row.reactivated_count,
    unchanged: row.existing_count - row.refused_count,
    refused: row.refused_count,
    failed: row.failed_count,
    pending: row.pending_count,
    // The stored error is for operators (it may quote SQL); the caller gets what it means for them.
    ...(row.status === 'failed'
      ? { error: `The import stopped after repeated errors on our side; ${row.failed_count} people were not imported. Send the rest again, or quote import ${row.id} to support.` }
      : {}),
    createdAt: row.created_at.toISOString(),
    ...(row.started_at ? { startedAt: row.started_at.toISOString() } : {}),
    ...(row.finished_at ? { finishedAt: row.finished_at.toISOString() } : {}),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** Our addition: an import of the key's brand and mode, with its progress. */
export async function getImport(db: Queryable, principal: Principal, id: string, query: { records?: boolean } = {}): Promise<Import> {
  requireIdShape(id, 'import');
  const row = await repo.findImport(db, principal.brandId, principal.mode, id);
  if (!row) throw notFound('import');
  if (!query.records) return renderImport(row);
  return { ...renderImport(row), records: await repo.listOutcomes(db, principal.brandId, row.id) };
}
