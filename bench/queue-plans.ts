/**
 * The worker's statements on the delivery queue at a backlog, with the queue's statistics at their
 * worst (issue 28 item 1, docs/performance.md "The queue apart from the log", Statistics): the
 * queue analyzed while empty after earlier traffic drained (reltuples 0 over pages that still
 * exist, so the planner takes any number of rows for one), autovacuum off so they stay so, then a
 * backlog of QUEUE_PLANS_BACKLOG (50,000) deliveries. Prints the shared buffers per delivery of a
 * 128-delivery claim, its outcome (succeeded, and a retry), its release and resend, each as a
 * custom plan (what EXPLAIN with parameters plans) and as the generic plan a named statement
 * settles on after five runs (PREPARE with plan_cache_mode = force_generic_plan), made while the
 * queue held 150 rows. QUEUE_PLANS_FRESH=1: the queue never analyzed instead, and the generic
 * plans made at 10 rows (one page).
 *
 *   DATABASE_URL=postgres://… node bench/queue-plans.ts
 *
 * Runs in a schema of its own, dropped at the end.
 */
import { randomBytes } from 'node:crypto';
import { openPostgres, type Db, type Queryable } from '../packages/server/src/db/client.ts';
import { migrate } from '../packages/server/src/db/migrate.ts';
import { recordEvents, type NewEvent } from '../packages/server/src/events/service.ts';
import { wireEventSubscribers } from '../packages/server/src/subscribers.ts';
import { createBrand } from '../packages/server/src/testing/factories.ts';
import { insertEndpoint } from '../packages/server/src/webhooks/repository.ts';
import * as claims from '../packages/server/src/webhooks/claim.ts';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL is required');
const backlog = Number(process.env.QUEUE_PLANS_BACKLOG ?? 50_000);
const schema = `queue_plans_${randomBytes(4).toString('hex')}`;
const admin = openPostgres(url, { max: 1 });
await admin.query(`CREATE SCHEMA ${schema}`);
const db = openPostgres(url, { searchPath: schema, max: 2 });
// One connection, so that what is prepared on it stays prepared (a worker's named statements).
const plans = openPostgres(url, { searchPath: schema, max: 1 });
wireEventSubscribers();

class Rollback extends Error {}

/** A parameter as an SQL literal, for EXECUTE (arrays in PostgreSQL's array syntax). */
function literal(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  const text = Array.isArray(v)
    ? `{${v.map((x) => (x === null || x === undefined ? 'NULL' : `"${String(x instanceof Date ? x.toISOString() : x).replace(/["\\]/g, '\\$&')}"`)).join(',')}}`
    : String(v instanceof Date ? v.toISOString() : v);
  return `'${text.replaceAll("'", "''")}'`;
}

/** Each statement's text, and the name it is prepared under on the `plans` connection. */
const preparedNames = new Map<string, string>();

/**
 * Runs `fn` with a Queryable that EXPLAINs each statement (in a savepoint rolled back) and then
 * runs it, all in a transaction rolled back at the end; returns each statement's buffers.
 * `custom`: EXPLAIN with the parameters (a custom plan, made now). `generic`: EXECUTE of a
 * statement prepared on `plans` (plan_cache_mode = force_generic_plan) the first time its text is
 * seen, so a statement first seen at a small queue keeps the generic plan made then, as a
 * worker's named statement does. One statement at a time (claimDue sends two at once).
 */
async function explained(on: Db, how: 'custom' | 'generic', fn: (q: Queryable) => Promise<unknown>) {
  const found: { sql: string; buffers: number; plan: string }[] = [];
  await on.transaction(async (tx) => {
    let turn: Promise<unknown> = Promise.resolve();
    const one = async <R>(sql: string, params: unknown[]): Promise<R[]> => {
      let rows: { 'QUERY PLAN': string }[];
      await tx.query('SAVEPOINT plan_check');
      if (how === 'generic') {
        let name = preparedNames.get(sql);
        if (!name) {
          preparedNames.set(sql, name = `plan_check_${preparedNames.size + 1}`);
          await tx.query(`PREPARE ${name} AS ${sql}`);
        }
        rows = await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) EXECUTE ${name}${params.length ? `(${params.map(literal).join(', ')})` : ''}`)
          .catch((err: Error) => { console.error(`${name}: ${err.message}`); throw err; });
      } else {
        rows = await tx.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params);
      }
      await tx.query('ROLLBACK TO SAVEPOINT plan_check');
      const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
      // The top node's buffers (shared hit + read) are the statement's (CTEs included).
      const m = /Buffers: shared(?: hit=(\d+))?(?: read=(\d+))?/.exec(plan);
      found.push({ sql, buffers: Number(m?.[1] ?? 0) + Number(m?.[2] ?? 0), plan });
      return tx.query<R>(sql, params);
    };
    const q: Queryable = {
      query<R>(sql: string, params: unknown[] = []) {
        const run = turn.then(() => one<R>(sql, params));
        turn = run.catch(() => {});
        return run;
      },
      exec: (sql) => tx.exec(sql),
    };
    await fn(q);
    throw new Rollback();
  }).catch((err) => { if (!(err instanceof Rollback)) throw err; });
  return found;
}

try {
  await migrate(db);
  const brand = await createBrand(db);
  await insertEndpoint(db, {
    brand_id: brand.id, id: 'we_plans', mode: 'test', url: 'http://127.0.0.1:9/', events: ['member.joined'], description: null, secret_sealed: 'x',
  });
  const record = async (count: number, prefix: string) => {
    for (let start = 0; start < count; start += 1000) {
      const events = Array.from({ length: Math.min(1000, count - start) }, (_, k) => ({
        brandId: brand.id, mode: 'test' as const, type: 'member.joined', data: { membershipId: `${prefix}_${start + k}` },
      }));
      await db.transaction((tx) => recordEvents(tx, events as NewEvent[]));
    }
  };
  await db.query('ALTER TABLE webhook_queue SET (autovacuum_enabled = false)');
  // Earlier traffic that drained: the queue's pages stay, its rows are gone; analyzed so.
  // QUEUE_PLANS_FRESH=1: a queue never analyzed, its generic plans made at one page instead.
  const fresh = process.env.QUEUE_PLANS_FRESH === '1';
  if (!fresh) {
    await record(2000, 'earlier');
    await db.query('DELETE FROM webhook_queue');
    await db.query('ANALYZE webhook_queue');
  }
  const caps = { heldByEndpoint: new Map(), heldByBrand: new Map(), perEndpoint: 1000, perBrand: 1000 };
  const statements = (batch: claims.ClaimedDelivery[]): [string, (q: Queryable) => Promise<unknown>][] => {
    const outcome = (status: 'succeeded' | 'pending') => batch.map((delivery) => ({
      delivery,
      attempt: { attemptedAt: new Date(), durationMs: 1, responseCode: status === 'succeeded' ? 200 : 503, error: null, responseBody: null },
      outcome: { status, nextAttemptAt: status === 'pending' ? new Date(Date.now() + 60_000) : null, failureReason: null, disableReason: null, failingCutoff: new Date(0) },
    }));
    return [
      ['claim', (q) => claims.claimDue(q, 128, 60_000, 'plan-check-2', caps, [brand.id])],
      ['outcome: succeeded', (q) => claims.recordAttempts(q, outcome('succeeded'))],
      ['outcome: retry', (q) => claims.recordAttempts(q, outcome('pending'))],
      ['release', (q) => claims.releaseClaims(q, batch)],
      ['abandon (1)', (q) => claims.abandonDelivery(q, batch[0], 'endpoint_disabled')],
      ['resend (1)', (q) => claims.claimOne(q, brand.id, 'test', batch[1].id, batch[1].delivery_created_at, 60_000, 'plan-check-resend')],
      // 128 events about members with a queued delivery each: the fan-out's "earlier sibling
      // queued?" probe finds one for every new delivery.
      ['fan-out', (q) => recordEvents(q, batch.map((d) => ({
        brandId: brand.id, mode: 'test' as const, type: 'member.joined', data: { membershipId: (d.event_data as { membershipId: string }).membershipId },
      })) as NewEvent[])],
    ];
  };
  await plans.query('SET plan_cache_mode = force_generic_plan');
  // Kept busy so the pool never closes its one connection (and its prepared statements) as idle.
  const keepAlive = setInterval(() => { plans.query('SELECT 1').catch(() => {}); }, 1000);
  // The generic plans made while the queue is small (a worker that starts on a quiet queue).
  await record(fresh ? 10 : 150, 'small');
  const small = await claims.claimDue(db, 128, 600_000, 'plan-check-small', caps);
  for (const [, run] of statements(small)) await explained(plans, 'generic', run);
  await claims.releaseClaims(db, small);

  await record(backlog - (fresh ? 10 : 150), 'mem');
  const [stats] = await db.query<{ reltuples: number; relpages: number; pages: number; n: number }>(
    `SELECT reltuples, relpages, pg_relation_size('webhook_queue') / 8192 AS pages, (SELECT count(*)::int FROM webhook_queue) AS n
     FROM pg_class WHERE oid = 'webhook_queue'::regclass`);
  console.log(`queue: ${stats.n} rows in ${stats.pages} pages; pg_class says reltuples ${stats.reltuples} over ${stats.relpages} pages`);
  const batch = await claims.claimDue(db, 128, 600_000, 'plan-check', caps);
  clearInterval(keepAlive);
  console.log('statement (128 deliveries)   plan                       buffers  per delivery');
  for (const [what, run] of statements(batch)) {
    for (const how of ['custom', 'generic'] as const) {
      const found = await explained(how === 'custom' ? db : plans, how, run);
      // The statement of interest is the last one, or for the fan-out the one writing the queue;
      // a claim's statements all count (the pick, the lease, and the leased rows' events and log
      // rows read by day: two statements since the log is partitioned by day).
      const main = what === 'claim'
        ? { sql: '', buffers: found.reduce((sum, f) => sum + f.buffers, 0), plan: found.map((f) => f.plan).join('\n') }
        : what === 'fan-out' ? found.find((f) => f.sql.includes('INSERT INTO webhook_queue'))! : found.at(-1)!;
      const per = what.includes('(1)') ? 1 : batch.length;
      if (!main) { console.log(`${what}: no statement found`); continue; }
      const label = how === 'custom' ? 'custom (made now)' : 'generic (made when small)';
      console.log(`${what.padEnd(28)} ${label.padEnd(26)} ${String(main.buffers).padStart(8)}  ${(main.buffers / per).toFixed(1).padStart(8)}`);
      if (process.env.QUEUE_PLANS_SHOW) console.log(main.plan);
    }
  }
} finally {
  await db.close();
  await plans.close();
  await admin.query(`DROP SCHEMA ${schema} CASCADE`);
  await admin.close();
}
