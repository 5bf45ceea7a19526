/**
 * Webhook delivery benchmark: 10,000 events for 10 brands, each with one endpoint on its own
 * local receiver (10 real HTTP servers answering 200), through the real outbox (recordEvent) and
 * the real worker. Reports deliveries/s and p50/p99 from the event's commit to its receipt.
 *
 * Two phases per case:
 * - paced: events committed in small transactions at BENCH_WEBHOOK_RATE events/s (default 1,000),
 *   the way traffic arrives; latency is measured here.
 * - burst: 10,000 events committed first, then the workers start; deliveries/s is how fast they
 *   drain the backlog (the ceiling).
 *
 * Cases: PGlite with the in-process worker (embedded mode is one process), and, when DATABASE_URL
 * is set, PostgreSQL with 1 and 2 worker processes (`main.ts` with ROLES=worker, real child
 * processes) in a throwaway schema. Each phase gives up after 90 s.
 *
 *   node bench/webhooks.ts            # standalone; `npm run bench` calls benchWebhooks()
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { createBrand } from '../packages/server/src/brands/service.ts';
import { loadConfig, type Config } from '../packages/server/src/config.ts';
import { openPglite, openPostgres, type Db } from '../packages/server/src/db/client.ts';
import { migrate } from '../packages/server/src/db/migrate.ts';
import { recordEvent } from '../packages/server/src/events/service.ts';
import { newId } from '../packages/server/src/ids.ts';
import { createEndpoint } from '../packages/server/src/webhooks/service.ts';
import { startWorker, type Worker } from '../packages/server/src/worker/loop.ts';
import { workSources } from '../packages/server/src/worker/sources.ts';
import { testDeps } from '../packages/server/src/testing/app.ts';
import { startWorkerProcess } from '../packages/server/src/testing/processes.ts';

const events = 10_000;
const brands = 10;
// Offered load of the paced phase. Embedded mode runs the producer, the database and the worker on
// one thread, so it is paced at what that thread can commit, not at the PostgreSQL target.
const rate = Number(process.env.BENCH_WEBHOOK_RATE ?? 1000);
const pgliteRate = Number(process.env.BENCH_WEBHOOK_RATE_PGLITE ?? 250);
const phaseLimitMs = 90_000;
const now = () => performance.timeOrigin + performance.now();

interface Receivers {
  urls: string[];
  /** Receipt time per event id (first receipt). */
  receivedAt: Map<string, number>;
  duplicates: number;
  waitFor(n: number, limitMs: number): Promise<boolean>;
  close(): Promise<void>;
}

async function startReceivers(): Promise<Receivers> {
  const receivedAt = new Map<string, number>();
  let duplicates = 0;
  let wake = () => {};
  const servers: Server[] = [];
  const urls: string[] = [];
  for (let i = 0; i < brands; i++) {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const at = now();
        const id = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string }).id;
        if (receivedAt.has(id)) duplicates++;
        else receivedAt.set(id, at);
        res.writeHead(200).end();
        wake();
      });
    });
    server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    urls.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`);
  }
  return {
    urls,
    receivedAt,
    get duplicates() { return duplicates; },
    waitFor(n, limitMs) {
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(false), limitMs);
        wake = () => { if (receivedAt.size >= n) { clearTimeout(timer); resolve(true); } };
        wake();
      });
    },
    async close() {
      for (const s of servers) s.closeAllConnections();
      await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
    },
  };
}

/** Commits `count` events round-robin over the brands, `perCommit` to a transaction; records each commit time. */
async function produce(db: Db, brandIds: string[], count: number, perCommit: number, committedAt: Map<string, number>, paceEventsPerSec?: number) {
  const start = now();
  for (let sent = 0; sent < count; sent += perCommit) {
    const n = Math.min(perCommit, count - sent);
    const ids = await db.transaction(async (tx) => {
      const out: string[] = [];
      for (let i = 0; i < n; i++) {
        const brandId = brandIds[(sent + i) % brandIds.length];
        const e = await recordEvent(tx, { brandId, mode: 'test', type: 'member.joined', data: { membershipId: newId('mem'), name: 'Bench', email: 'bench@example.com', status: 'active', joinedAt: new Date().toISOString(), version: 1, updatedAt: new Date().toISOString() } });
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
}

function summarise(rx: Receivers, committedAt: Map<string, number>, startedAt: number): PhaseResult {
  const latencies: number[] = [];
  let last = startedAt;
  for (const [id, at] of rx.receivedAt) {
    const c = committedAt.get(id);
    if (c !== undefined) latencies.push(at - c);
    if (at > last) last = at;
  }
  latencies.sort((a, b) => a - b);
  return {
    delivered: rx.receivedAt.size,
    perSecond: rx.receivedAt.size / ((last - startedAt) / 1000),
    p50: percentile(latencies, 50) ?? NaN,
    p99: percentile(latencies, 99) ?? NaN,
    duplicates: rx.duplicates,
  };
}

interface Setup {
  db: Db;
  config: Config;
  brandIds: string[];
  rx: Receivers;
}

async function prepare(db: Db, config: Config): Promise<Setup> {
  await migrate(db);
  const rx = await startReceivers();
  const brandIds: string[] = [];
  for (let i = 0; i < brands; i++) {
    const brand = await createBrand(db, { name: `Bench ${i}` });
    brandIds.push(brand.id);
    const principal = { brandId: brand.id, mode: 'test' as const, scopes: ['webhooks:write' as const], via: 'api_key' as const, keyId: 'bench' };
    await createEndpoint(db, principal, { url: rx.urls[i], events: ['member.joined'] }, { key: config.webhooks.secretKey!, allowLoopback: true });
  }
  return { db, config, brandIds, rx };
}

type StartWorkers = () => Promise<() => Promise<void>>;

async function runPhases(s: Setup, startWorkers: StartWorkers, rate: number): Promise<{ rate: number; paced: PhaseResult; burst: PhaseResult }> {
  // Paced: workers running, events arriving at `rate`.
  let stop = await startWorkers();
  const pacedCommits = new Map<string, number>();
  const pacedStart = now();
  await produce(s.db, s.brandIds, events, Math.max(1, Math.round(rate / 100)), pacedCommits, rate);
  await s.rx.waitFor(events, phaseLimitMs);
  const paced = summarise(s.rx, pacedCommits, pacedStart);
  await stop();

  // Burst: the backlog first, then the workers.
  s.rx.receivedAt.clear();
  const burstCommits = new Map<string, number>();
  await produce(s.db, s.brandIds, events, 100, burstCommits);
  const burstStart = now();
  stop = await startWorkers();
  await s.rx.waitFor(events, phaseLimitMs);
  const burst = summarise(s.rx, burstCommits, burstStart);
  await stop();
  return { rate, paced, burst };
}

async function benchPglite(): Promise<string> {
  const db = await openPglite();
  const defaults = loadConfig({});
  const config: Config = { ...defaults, logLevel: 'silent', webhooks: { ...defaults.webhooks, secretKey: randomBytes(32), allowLoopback: true } };
  const s = await prepare(db, config);
  const log = pino({ level: 'silent' });
  try {
    const r = await runPhases(s, async () => {
      const worker: Worker = await startWorker(db, workSources(testDeps(db, { config, log })), log);
      return () => worker.stop();
    }, pgliteRate);
    return row('PGlite, in-process worker', r);
  } finally {
    await s.rx.close();
    await db.close();
  }
}

async function benchPostgres(databaseUrl: string, workers: number): Promise<string> {
  const schema = `bench_wh_${randomBytes(4).toString('hex')}`;
  const admin = openPostgres(databaseUrl, { max: 1 });
  await admin.query(`CREATE SCHEMA ${schema}`);
  const db = openPostgres(databaseUrl, { searchPath: schema });
  const defaults = loadConfig({});
  const config: Config = { ...defaults, logLevel: 'silent', webhooks: { ...defaults.webhooks, secretKey: randomBytes(32), allowLoopback: true } };
  const u = new URL(databaseUrl);
  u.searchParams.set('options', `-c search_path=${schema}`);
  const s = await prepare(db, config);
  try {
    const r = await runPhases(s, async () => {
      const children = await Promise.all(Array.from({ length: workers }, () => startWorkerProcess({ DATABASE_URL: u.toString(), WEBHOOK_SECRET_KEY: config.webhooks.secretKey!.toString('base64') })));
      return async () => {
        await Promise.all(children.map(async (c) => { c.kill('SIGTERM'); if (c.exitCode === null) await once(c, 'exit'); }));
      };
    }, rate);
    return row(`PostgreSQL, ${workers} worker process${workers > 1 ? 'es' : ''}`, r);
  } finally {
    await s.rx.close();
    await db.close();
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.close();
  }
}

const fmt = (n: number) => (Number.isFinite(n) ? n.toFixed(n < 10 ? 1 : 0) : '–');

function row(name: string, r: { rate: number; paced: PhaseResult; burst: PhaseResult }) {
  const missing = (p: PhaseResult) => (p.delivered < events ? ` (only ${p.delivered} in ${phaseLimitMs / 1000} s)` : '');
  return `| ${name} | ${r.rate} | ${fmt(r.paced.perSecond)}${missing(r.paced)} | ${fmt(r.paced.p50)} | ${fmt(r.paced.p99)} | ${fmt(r.burst.perSecond)}${missing(r.burst)} | ${fmt(r.burst.p50)} | ${fmt(r.burst.p99)} | ${r.paced.duplicates + r.burst.duplicates} |`;
}

export async function benchWebhooks(): Promise<string> {
  const rows = [await benchPglite()];
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) {
    rows.push(await benchPostgres(databaseUrl, 1));
    rows.push(await benchPostgres(databaseUrl, 2));
  }
  return [
    '## Webhook deliveries',
    '',
    `${events.toLocaleString('en')} events over ${brands} brands, one endpoint each on its own local receiver answering 200. `
      + 'Paced: committed in small transactions at the offered rate with the workers running; '
      + 'latency is from the event\'s commit to its receipt. Burst: all events committed first, then the workers start '
      + '(deliveries/s is the drain rate; latency there is mostly queueing). Target: ≥ 1,000 deliveries/s and p50 < 100 ms on PostgreSQL with one worker.',
    '',
    '| case | offered events/s | paced deliveries/s | paced p50 ms | paced p99 ms | burst deliveries/s | burst p50 ms | burst p99 ms | duplicate sends |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows,
    ...(databaseUrl ? [] : ['', '_PostgreSQL not measured: set DATABASE_URL to include it (1 and 2 worker processes)._']),
    '',
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(await benchWebhooks());
}
