/**
 * Webhook delivery benchmark: events for 10 brands, each with one endpoint on its own local
 * receiver (10 real HTTP servers answering 200, in a child process: bench/webhook-receivers.ts),
 * through the real outbox (recordEvent) and the real worker. Reports deliveries/s and p50/p99
 * from the event's commit to its receipt.
 *
 * Two phases per case:
 * - paced: events committed in small transactions at the offered rate, the way traffic arrives;
 *   latency is measured here. PostgreSQL: BENCH_WEBHOOK_RATE events/s (default 2,000); PGlite:
 *   BENCH_WEBHOOK_RATE_PGLITE (default 250), since embedded mode runs the producer, the database
 *   and the worker on one thread.
 * - burst: all events committed first, then the workers start; deliveries/s is how fast they
 *   drain the backlog, from the first receipt to the last (a worker process takes a while to start).
 *
 * The delivery ceiling: a bare loop in its own process (bench/webhook-ceiling.ts) POSTs the same
 * bodies to the same receivers at a worker's concurrency with no database; burst / ceiling is how
 * much of what the machine can deliver the workers achieve (one loop process per worker process).
 *
 * Cases: PGlite with the in-process worker (embedded mode is one process), and, when DATABASE_URL
 * is set, PostgreSQL with 1 and 2 worker processes (`main.ts` with ROLES=worker, real child
 * processes) in a throwaway schema, and 1 worker process sending everything to one endpoint (its
 * in-flight cap, WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT, bounds it; its ceiling is a bare loop at that
 * concurrency to that one receiver). Each phase gives up after 60 s.
 *
 * Database CPU per delivery (PostgreSQL): the CPU time of the worker processes' own database
 * connections (found by their application_name, read from /proc while the phase runs, so it needs
 * the database on this machine), divided by the deliveries of the burst. Other load on the same
 * cluster does not count, unlike the cluster's total.
 *
 *   node bench/webhooks.ts            # standalone; `npm run bench` calls benchWebhooks()
 *   BENCH_WEBHOOK_CASES=pg1,pg2       # only some cases (pglite, pg1, pg2, pg1-one)
 *   BENCH_WEBHOOK_EVENTS=20000        # events per phase (default 10,000)
 *   BENCH_WEBHOOK_PHASES=burst        # only some phases (paced, burst; default both)
 *   BENCH_WEBHOOK_CPU_PROF=/tmp/prof  # worker processes write V8 CPU profiles there
 *   BENCH_HOT=1                       # print webhook_deliveries' updates and heap-only ones (PostgreSQL)
 *   BENCH_WEBHOOK_LOG_DAYS_BACK=32    # the log's daily partitions from 32 days back, as a database
 *                                     # 30 days into DELIVERY_LOG_RETENTION has them (a new one has
 *                                     # yesterday onwards): statements not pruned at plan time plan them all
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { createBrand } from '../packages/server/src/brands/service.ts';
import { loadConfig, type Config } from '../packages/server/src/config.ts';
import { openPglite, openPostgres, type Db } from '../packages/server/src/db/client.ts';
import { migrate } from '../packages/server/src/db/migrate.ts';
import { ensureLogPartitions } from '../packages/server/src/db/partitions.ts';
import { recordEvent } from '../packages/server/src/events/service.ts';
import { createEndpoint } from '../packages/server/src/webhooks/service.ts';
import { startWorker, type Worker } from '../packages/server/src/worker/loop.ts';
import { workSources } from '../packages/server/src/work-sources.ts';
import { testDeps } from '../packages/server/src/testing/app.ts';
import { startWorkerProcess } from '../packages/server/src/testing/processes.ts';
import { wireEventSubscribers } from '../packages/server/src/subscribers.ts';
import { databaseCpu, processCpuMs } from './cpu.ts';
import { startReceivers, type Receivers } from './receivers.ts';
import { recordUnit, type Database } from './units.ts';
import { benchEventData } from './webhook-event.ts';

const events = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 10_000);
const brands = 10;
const rate = Number(process.env.BENCH_WEBHOOK_RATE ?? 2000);
const pgliteRate = Number(process.env.BENCH_WEBHOOK_RATE_PGLITE ?? 250);
const cases = new Set((process.env.BENCH_WEBHOOK_CASES ?? 'pglite,pg1,pg2,pg1-one').split(',').map((c) => c.trim()));
const cpuProfDir = process.env.BENCH_WEBHOOK_CPU_PROF;
const phases = new Set((process.env.BENCH_WEBHOOK_PHASES ?? 'paced,burst').split(',').map((p) => p.trim()));
const phaseLimitMs = 60_000;
const logDaysBack = Number(process.env.BENCH_WEBHOOK_LOG_DAYS_BACK ?? 0);
const now = () => performance.timeOrigin + performance.now();
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

/** Commits `count` events round-robin over the brands, `perCommit` to a transaction; records each commit time. */
async function produce(db: Db, brandIds: string[], count: number, perCommit: number, committedAt: Map<string, number>, paceEventsPerSec?: number) {
  const start = now();
  for (let sent = 0; sent < count; sent += perCommit) {
    const n = Math.min(perCommit, count - sent);
    const ids = await db.transaction(async (tx) => {
      const out: string[] = [];
      for (let i = 0; i < n; i++) {
        const brandId = brandIds[(sent + i) % brandIds.length];
        const e = await recordEvent(tx, { brandId, mode: 'test', type: 'member.joined', data: benchEventData() });
        out.push(e.id);
      }
      return out;
    });
    const at = now();
    for (const id of ids) committedAt.set(id, at);
    if (paceEventsPerSec) {
      const due = start + ((sent + n) / paceEventsPerSec) * 1000;
      const wait = due - now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
  }
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

interface PhaseResult {
  delivered: number;
  perSecond: number;
  p50: number;
  p99: number;
  duplicates: number;
  connections: number;
  /** Database CPU per delivery in µs (PostgreSQL burst only). */
  dbCpuUs?: number;
  /** The worker processes' own CPU per delivery in µs (burst only; PGlite: its database's too). */
  workerCpuUs?: number;
}

/** Deliveries/s from the first receipt to the last; latency from each event's commit. */
function summarise(rx: Receivers, committedAt: Map<string, number>): PhaseResult {
  const latencies: number[] = [];
  let first = Infinity;
  let last = -Infinity;
  for (const [id, at] of rx.receivedAt) {
    const c = committedAt.get(id);
    if (c !== undefined) latencies.push(at - c);
    first = Math.min(first, at);
    last = Math.max(last, at);
  }
  latencies.sort((a, b) => a - b);
  return {
    delivered: rx.receivedAt.size,
    perSecond: (rx.receivedAt.size - 1) / ((last - first) / 1000),
    p50: percentile(latencies, 50) ?? NaN,
    p99: percentile(latencies, 99) ?? NaN,
    duplicates: rx.duplicates,
    connections: rx.connections,
  };
}

/**
 * The delivery ceiling with `processes` bare loops, each at a worker's concurrency, to `urls`:
 * deliveries/s, and the loops' own CPU per delivery in µs.
 */
async function ceiling(rx: Receivers, processes: number, concurrency: number, urls = rx.urls): Promise<{ ceiling: number; ceilingCpuUs: number }> {
  await rx.reset();
  const children: ChildProcess[] = [];
  let cpuMs = 0;
  for (let i = 0; i < processes; i++) {
    const count = Math.floor(events / processes) + (i < events % processes ? 1 : 0);
    const child = fork(here('./webhook-ceiling.ts'), [String(count), String(concurrency), ...urls]);
    child.on('message', (m: { cpuMs?: number }) => { cpuMs += m.cpuMs ?? 0; });
    children.push(child);
  }
  await Promise.all(children.map((c) => (c.exitCode === null ? once(c, 'exit') : undefined)));
  await rx.waitFor(events, 5000);
  const r = summarise(rx, new Map());
  await rx.reset();
  return { ceiling: r.perSecond, ceilingCpuUs: (cpuMs * 1000) / events };
}

interface Setup {
  db: Db;
  config: Config;
  brandIds: string[];
  rx: Receivers;
}

async function prepare(db: Db, config: Config, rx: Receivers): Promise<Setup> {
  await migrate(db);
  if (logDaysBack) await ensureLogPartitions(db, new Date(Date.now() - logDaysBack * 86_400_000), new Date(Date.now() + 2 * 86_400_000));
  const brandIds: string[] = [];
  for (let i = 0; i < brands; i++) {
    const brand = await createBrand(db, { name: `Bench ${i}` });
    brandIds.push(brand.id);
    const principal = { brandId: brand.id, mode: 'test' as const, scopes: ['webhooks:write' as const], via: 'api_key' as const, keyId: 'bench' };
    await createEndpoint(db, principal, { url: rx.urls[i], events: ['member.joined'] }, { key: config.webhooks.secretKey!, allowLoopback: true });
  }
  return { db, config, brandIds, rx };
}

/** Running workers: how to stop them, and the CPU time (ms) their processes have used so far. */
type StartWorkers = () => Promise<{ stop(): Promise<void>; cpuMs(): number }>;

interface CaseResult {
  rate: number;
  paced: PhaseResult;
  burst: PhaseResult;
  ceiling: number;
  /** The ceiling loops' CPU per delivery in µs. */
  ceilingCpuUs: number;
}

interface PhaseOptions {
  /** The brands (one endpoint each) the events go to: all of them, or one for the one-endpoint case. */
  brandIds?: string[];
  /** Samples the database CPU of the workers' connections during the burst. */
  cpu?: () => { stop(): Promise<number> };
  /** The ceiling's concurrency and receivers (default: a worker's concurrency, every receiver). */
  ceiling?: { concurrency: number; urls: string[] };
}

const skipped: PhaseResult = { delivered: 0, perSecond: NaN, p50: NaN, p99: NaN, duplicates: 0, connections: 0 };

async function runPhases(s: Setup, startWorkers: StartWorkers, rate: number, ceilingProcesses: number, o: PhaseOptions = {}): Promise<CaseResult> {
  const brandIds = o.brandIds ?? s.brandIds;
  let paced = skipped;
  let burst = skipped;
  if (phases.has('paced')) {
    // Paced: workers running, events arriving at `rate`.
    await s.rx.reset();
    const workers = await startWorkers();
    const pacedCommits = new Map<string, number>();
    await produce(s.db, brandIds, events, Math.max(1, Math.round(rate / 100)), pacedCommits, rate);
    await s.rx.waitFor(events, phaseLimitMs);
    paced = summarise(s.rx, pacedCommits);
    await workers.stop();
  }

  if (phases.has('burst')) {
    // Burst: the backlog first, then the workers.
    await s.rx.reset();
    const burstCommits = new Map<string, number>();
    await produce(s.db, brandIds, events, 100, burstCommits);
    const workers = await startWorkers();
    const cpu = o.cpu?.();
    // Counted from here: the worker's start-up (loading its modules) is not delivery work.
    const workerCpuFrom = workers.cpuMs();
    await s.rx.waitFor(events, phaseLimitMs);
    burst = summarise(s.rx, burstCommits);
    const workerCpuMs = workers.cpuMs() - workerCpuFrom;
    const cpuMs = await cpu?.stop();
    if (cpuMs !== undefined) burst.dbCpuUs = (cpuMs * 1000) / burst.delivered;
    burst.workerCpuUs = (workerCpuMs * 1000) / burst.delivered;
    await workers.stop();
  }

  // The ceiling right after, on the same receivers, so the machine's load is as alike as it gets.
  const c = o.ceiling ?? { concurrency: s.config.webhooks.concurrency, urls: s.rx.urls };
  return { rate, paced, burst, ...await ceiling(s.rx, ceilingProcesses, c.concurrency, c.urls) };
}

function benchConfig(): Config {
  const defaults = loadConfig({});
  return { ...defaults, logLevel: 'silent', webhooks: { ...defaults.webhooks, secretKey: randomBytes(32), allowLoopback: true } };
}

async function benchPglite(rx: Receivers): Promise<string> {
  const db = await openPglite();
  const config = benchConfig();
  const s = await prepare(db, config, rx);
  const log = pino({ level: 'silent' });
  try {
    const r = await runPhases(s, async () => {
      const worker: Worker = await startWorker(db, workSources(testDeps(db, { config, log })), log);
      // Embedded: the worker and its database run in this process (the receivers do not).
      const cpuMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
      return { stop: () => worker.stop(), cpuMs };
    }, pgliteRate, 1);
    recordUnits('PGlite', 'ten', r);
    return row('PGlite, in-process worker', r);
  } finally {
    await db.close();
  }
}

async function benchPostgres(databaseUrl: string, workers: number, rx: Receivers, oneEndpoint = false): Promise<string> {
  const schema = `bench_wh_${randomBytes(4).toString('hex')}`;
  const admin = openPostgres(databaseUrl, { max: 1 });
  await admin.query(`CREATE SCHEMA ${schema}`);
  const db = openPostgres(databaseUrl, { searchPath: schema });
  const config = benchConfig();
  const u = new URL(databaseUrl);
  u.searchParams.set('options', `-c search_path=${schema}`);
  u.searchParams.set('application_name', schema);
  const profile = cpuProfDir ? { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --cpu-prof --cpu-prof-dir=${cpuProfDir}` } : {};
  const running = new Set<ChildProcess>();
  const stopAll = () => Promise.all([...running].map(async (c) => {
    c.kill('SIGTERM');
    if (c.exitCode === null) await once(c, 'exit');
    running.delete(c);
  }));
  try {
    const s = await prepare(db, config, rx);
    const one = { concurrency: config.webhooks.maxInFlightPerEndpoint, urls: rx.urls.slice(0, 1) };
    const r = await runPhases(s, async () => {
      const env = { DATABASE_URL: u.toString(), WEBHOOK_SECRET_KEY: config.webhooks.secretKey!.toString('base64'), ...profile };
      const started = await Promise.all(Array.from({ length: workers }, () => startWorkerProcess(env)));
      for (const c of started) running.add(c);
      return { stop: async () => { await stopAll(); }, cpuMs: () => started.reduce((ms, c) => ms + processCpuMs(c.pid!), 0) };
    }, rate, workers, { cpu: () => databaseCpu(admin, schema, true), ...(oneEndpoint ? { brandIds: s.brandIds.slice(0, 1), ceiling: one } : {}) });
    if (workers === 1) recordUnits('PostgreSQL', oneEndpoint ? 'one' : 'ten', r);
    return row(`PostgreSQL, ${workers} worker process${workers > 1 ? 'es' : ''}${oneEndpoint ? ', one endpoint' : `, ${brands} endpoints`}`, r);
  } finally {
    // After a failure too: a worker left running would hold the schema's tables.
    await stopAll();
    // The log is partitioned by day (migration 037): its counts are its partitions'.
    if (process.env.BENCH_HOT) {
      console.error(JSON.stringify(await admin.query(
        `SELECT regexp_replace(relname, '_p[0-9]{8}$', '') AS relname, sum(n_tup_ins)::int AS n_tup_ins, sum(n_tup_upd)::int AS n_tup_upd, sum(n_tup_hot_upd)::int AS n_tup_hot_upd
         FROM pg_stat_user_tables WHERE schemaname = '${schema}' AND (relname LIKE 'webhook_deliveries_p%' OR relname LIKE 'webhook_attempts_p%' OR relname = 'webhook_queue')
         GROUP BY 1`)));
    }
    await db.close();
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.close();
  }
}

/** One worker's figures for the per-unit table (bench/units.ts). */
function recordUnits(database: Database, endpoints: 'one' | 'ten', r: CaseResult) {
  const ratio = (r.burst.perSecond / r.ceiling).toFixed(2);
  if (endpoints === 'one') {
    recordUnit('one endpoint: deliveries/s (its share of a 16-wide no-database loop)', database, `${fmt(r.burst.perSecond)} (${ratio})`, '≥ 2,000/s');
    return;
  }
  recordUnit('database CPU per delivery, µs (one worker, ten endpoints)', database, fmt((database === 'PGlite' ? r.burst.workerCpuUs : r.burst.dbCpuUs) ?? NaN), '≤ 80');
  recordUnit('one worker: share of the no-database ceiling (ten endpoints)', database, ratio, '≥ 0.6');
  recordUnit('paced: p50 ms from commit to receipt (offered events/s)', database, `${fmt(r.paced.p50)} (${r.rate}/s)`, '< 10 ms at 2,000/s');
}

const fmt = (n: number) => (Number.isFinite(n) ? n.toFixed(n < 10 ? 1 : 0) : '–');

function row(name: string, r: CaseResult) {
  const missing = (p: PhaseResult) => (p.delivered < events ? ` (only ${p.delivered} in ${phaseLimitMs / 1000} s)` : '');
  return `| ${name} | ${r.rate} | ${fmt(r.paced.perSecond)}${missing(r.paced)} | ${fmt(r.paced.p50)} | ${fmt(r.paced.p99)} `
    + `| ${fmt(r.burst.perSecond)}${missing(r.burst)} | ${fmt(r.burst.p50)} | ${fmt(r.burst.p99)} `
    + `| ${fmt(r.ceiling)} | ${(r.burst.perSecond / r.ceiling).toFixed(2)} | ${r.burst.dbCpuUs === undefined ? '–' : fmt(r.burst.dbCpuUs)} `
    + `| ${r.burst.workerCpuUs === undefined ? '–' : fmt(r.burst.workerCpuUs)} | ${fmt(r.ceilingCpuUs)} | ${r.burst.connections} | ${r.paced.duplicates + r.burst.duplicates} |`;
}

export async function benchWebhooks(): Promise<string> {
  const databaseUrl = process.env.DATABASE_URL;
  wireEventSubscribers();
  const rx = await startReceivers(brands);
  const rows: string[] = [];
  const loadBefore = loadavg();
  try {
    if (cases.has('pglite')) rows.push(await benchPglite(rx));
    if (databaseUrl && cases.has('pg1')) rows.push(await benchPostgres(databaseUrl, 1, rx));
    if (databaseUrl && cases.has('pg2')) rows.push(await benchPostgres(databaseUrl, 2, rx));
    if (databaseUrl && cases.has('pg1-one')) rows.push(await benchPostgres(databaseUrl, 1, rx, true));
  } finally {
    await rx.close();
  }
  return [
    '## Webhook deliveries',
    '',
    `${events.toLocaleString('en')} events per phase over ${brands} brands, one endpoint each on its own local receiver answering 200 `
      + '(the receivers run in a child process). '
      + 'Paced: committed in small transactions at the offered rate with the workers running; '
      + 'latency is from the event\'s commit to its receipt. Burst: all events committed first, then the workers start '
      + '(deliveries/s is the drain rate from the first receipt to the last; latency there is mostly queueing). '
      + 'Ceiling: a bare loop per worker process POSTing the same bodies to the same receivers at the same concurrency with no database; '
      + 'burst / ceiling is the share of it the workers reach; burst connections: how many the workers opened to the receivers (kept alive and reused). '
      + 'Database CPU: the CPU time of the worker processes\' own PostgreSQL connections during the burst, per delivery. '
      + 'Worker CPU: the worker processes\' own CPU time during the burst (after start-up), per delivery (PGlite: the bench process, worker and database together); '
      + 'ceiling CPU: the bare loops\' CPU per delivery, what sending alone costs. '
      + 'One endpoint: every event to one brand\'s one endpoint, whose in-flight cap (16) bounds the drain; its ceiling is a bare loop at that concurrency to that receiver. '
      + 'Target on PostgreSQL: burst ≥ 10,000 deliveries/s per worker process or ≥ 0.6 of the ceiling, paced p50 < 10 ms at 2,000/s, no duplicates; one endpoint ≥ 2,000 deliveries/s.',
    '',
    '| case | offered events/s | paced deliveries/s | paced p50 ms | paced p99 ms | burst deliveries/s | burst p50 ms | burst p99 ms | ceiling deliveries/s | burst / ceiling | burst DB CPU µs/delivery | burst worker CPU µs/delivery | ceiling CPU µs/delivery | burst connections | duplicate sends |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    `Load average (1 min) ${loadBefore[0].toFixed(1)} before, ${loadavg()[0].toFixed(1)} after.`,
    ...(databaseUrl ? [] : ['', '_PostgreSQL not measured: set DATABASE_URL to include it (1 and 2 worker processes)._']),
    '',
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(await benchWebhooks());
}
