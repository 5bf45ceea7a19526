import type { FastifyBaseLogger } from 'fastify';
import { isConnectionError, type Db } from '../db/client.ts';
import { importMembers } from '../memberships/service.ts';
import type { WorkSource } from '../worker/loop.ts';
import * as repo from './repository.ts';

export interface ImportWorkOptions {
  /** Records per batch transaction (IMPORT_BATCH_SIZE). */
  batchSize: number;
  /** Consecutive failed attempts of one import before it is marked failed. */
  maxAttempts?: number;
  /** Back-off after the first failed attempt, doubled after each further one (capped at a minute). */
  retryBaseMs?: number;
  /**
   * Batches run at once by one runOnce, each in its own transaction (default: 2 on PostgreSQL,
   * where the database works on one batch while this process prepares the other; 1 on PGlite,
   * whose single connection runs one transaction at a time anyway).
   */
  lanes?: number;
  /** Tests only: runs inside the batch transaction after the memberships are written, before the commit. */
  beforeCommit?: (batch: { importId: string; created: number }) => Promise<void> | void;
}

export interface BatchResult {
  importId: string;
  taken: number;
  created: number;
  status: repo.ImportStatus;
}

/**
 * Processes the next batch of the import whose turn it is, in one transaction: takes up to
 * batchSize records no other batch holds, inserts the memberships that do not exist yet,
 * reactivates removed or expired ones, records one member.joined per membership inserted or
 * reactivated (and its webhook deliveries), keeps what happened to each record, and moves the
 * counters. A crash anywhere before the commit rolls all of it back, records included, so the
 * next attempt redoes exactly this batch; the membership unique index (ON CONFLICT DO NOTHING)
 * means even a replayed person is not created, or announced, twice.
 *
 * `onClaim` hears which import was taken, so a failure can be charged to it.
 */
export async function processNextBatch(db: Db, options: ImportWorkOptions, onClaim?: (imp: repo.ImportRow) => void): Promise<BatchResult | undefined> {
  return db.transaction(async (tx) => {
    const imp = await repo.claimImport(tx);
    if (!imp) {
      // Counters say records are pending but none are stored: never expected; do not leave it processing.
      const stranded = await repo.lockStrandedImport(tx);
      if (!stranded) return undefined;
      onClaim?.(stranded);
      await repo.failImport(tx, stranded, 'pending records are missing');
      return { importId: stranded.id, taken: 0, created: 0, status: 'failed' };
    }
    onClaim?.(imp);
    const records = await repo.takeRecords(tx, imp, options.batchSize);
    // In email order, so two batches inserting overlapping people (two imports to one hub) wait
    // on each other in the same order instead of deadlocking.
    const byEmail = records.map((r) => ({ key: r.email.toLowerCase(), r }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      .map(({ r }) => r);
    const results = await importMembers(
      tx,
      { brandId: imp.brand_id, mode: imp.mode, hubId: imp.hub_id, productId: imp.product_id, plan: imp.plan, appId: imp.app_id },
      byEmail.map((r) => ({ name: r.name, email: r.email, phone: r.phone ?? null, fields: r.fields })),
    );
    const outcomes = byEmail.map((r, i): repo.RecordOutcome => ({ index: r.index, outcome: results[i].outcome, membershipID: results[i].membershipId }));
    const count = (o: repo.RecordOutcome['outcome']) => outcomes.filter((x) => x.outcome === o).length;
    const created = count('created');
    await options.beforeCommit?.({ importId: imp.id, created });
    await repo.insertOutcomes(tx, imp, outcomes);
    const updated = await repo.recordBatch(tx, imp, {
      taken: records.length, created, reactivated: count('reactivated'), refused: count('refused'),
      existing: count('unchanged') + count('refused'),
    });
    return { importId: imp.id, taken: records.length, created, status: updated.status };
  });
}

/**
 * Charges a failed batch to its import: back off and try again, or, after maxAttempts in a row,
 * mark the import failed so one broken import cannot keep a worker busy forever.
 */
async function chargeFailure(db: Db, imp: repo.ImportRow, err: unknown, options: Required<Pick<ImportWorkOptions, 'maxAttempts' | 'retryBaseMs'>>) {
  const message = (err instanceof Error ? err.message : String(err)).slice(0, 500);
  await db.transaction(async (tx) => {
    const current = await repo.lockUnfinishedImport(tx, imp.brand_id, imp.id);
    if (!current) return;
    if (current.attempts + 1 >= options.maxAttempts) await repo.failImport(tx, current, message);
    else await repo.recordFailedAttempt(tx, current, message, Math.min(options.retryBaseMs * 2 ** current.attempts, 60_000));
  });
}

/**
 * The worker's import source: `lanes` lanes per runOnce, each taking batch after batch until it
 * finds nothing to do, a batch fails, or the worker stops; returns how many records they took.
 * Lanes do not wait for each other between batches: when they did (one batch each per runOnce),
 * the faster lane sat idle until the slower one committed, up to a tenth of a 10,000-record
 * import on PostgreSQL (docs/imports.md, Speed and settings).
 */
export function importWorkSource(db: Db, log: FastifyBaseLogger, options: ImportWorkOptions): WorkSource {
  const retry = { maxAttempts: options.maxAttempts ?? 5, retryBaseMs: options.retryBaseMs ?? 1000 };
  const lanes = options.lanes ?? (db.kind === 'postgres' ? 2 : 1);
  /** One batch: records taken (at least 1 when something was done), 0 when there was nothing, or 'failed'. */
  const batch = async (): Promise<number | 'failed'> => {
    let claimed: repo.ImportRow | undefined;
    try {
      const result = await processNextBatch(db, options, (imp) => { claimed = imp; });
      if (result?.status === 'completed') log.info({ importId: result.importId }, 'import completed');
      return result ? Math.max(result.taken, 1) : 0;
    } catch (err) {
      // A lost database is not the import's fault: the batch rolled back; the loop retries later.
      if (!claimed || isConnectionError(err)) throw err;
      log.error({ err, importId: claimed.id }, 'import batch failed');
      await chargeFailure(db, claimed, err, retry);
      return 'failed';
    }
  };
  let stopping = false;
  const lane = async () => {
    let did = 0;
    for (;;) {
      // PGlite runs queries on this thread and its promises settle without a trip through the
      // event loop, so batch after batch would starve HTTP traffic in embedded mode (a 202 sat
      // unsent until a 10,000-record import had finished). Yield before every batch.
      await new Promise((resolve) => setImmediate(resolve));
      const taken = await batch();
      // Other imports may be waiting; a failed one is skipped until its back-off ends.
      if (taken === 'failed') return did + 1;
      did += taken;
      if (taken === 0 || stopping) return did;
    }
  };
  return {
    name: 'imports',
    async runOnce() {
      // Settled, not all: when one lane throws, the others still end before this returns.
      const results = await Promise.allSettled(Array.from({ length: lanes }, lane));
      const failed = results.find((r) => r.status === 'rejected');
      if (failed) throw failed.reason;
      return results.reduce((sum, r) => sum + (r.status === 'fulfilled' ? r.value : 0), 0);
    },
    // Lanes finish the batch they are in (its transaction commits or rolls back) and take no other.
    async stop() { stopping = true; },
  };
}
