/**
 * Import benchmark: hub member imports through the real app (HTTP on a real port) and the real
 * worker loop, with one webhook endpoint subscribed to member.joined, so every batch writes its
 * memberships, their events and one delivery row each. Timed from sending the first request to
 * the commit of the last batch (the import's finished_at, set in that transaction, so polling does
 * not blur it). The worker runs only its import source: sending deliveries is what
 * bench/webhooks.ts measures, and here it would share the thread and be counted as import time.
 * Every statement of the measured run is timed (from the client: sending, the database's work and
 * reading the answer), so the section says which steps the time goes to.
 *
 * - 10,000 records in one request, on PGlite and, when DATABASE_URL is set, on PostgreSQL (in a
 *   throwaway schema).
 * - On PostgreSQL, 100,000 records in ten requests of 10,000 sent one after another: records/s
 *   should match the single request's (the work per record does not grow with the table).
 *
 * Target (issue 14): ≥ 50,000 records/s on PostgreSQL, that is 10,000 records in under 200 ms.
 *
 *   node bench/imports.ts            # standalone; `npm run bench -- imports` calls benchImports()
 *   IMPORT_BATCH_SIZE=2000 node bench/imports.ts   # another batch size
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { buildApp } from '../packages/server/src/app.ts';
import { testDeps } from '../packages/server/src/testing/app.ts';
import { loadCatalog } from '../packages/server/src/catalog/load.ts';
import { loadConfig, type Config } from '../packages/server/src/config.ts';
import { openPglite, openPostgres, type Db, type Queryable } from '../packages/server/src/db/client.ts';
import { migrate } from '../packages/server/src/db/migrate.ts';
import { createBrand } from '../packages/server/src/brands/service.ts';
import { createKey } from '../packages/server/src/keys/service.ts';
import { createEndpoint } from '../packages/server/src/webhooks/service.ts';
import { startWorker } from '../packages/server/src/worker/loop.ts';
import { workSources } from '../packages/server/src/work-sources.ts';
import { databaseCpu } from './cpu.ts';
import { recordUnit } from './units.ts';

const perRequest = 10_000;
const target = 50_000;

interface ImportRun {
  kind: string;
  /** Statement name (or its first words) -> summed ms over the run, as timed by the client. */
  statements: Map<string, number>;
  requests: number;
  records: number;
  /** Slowest 202 of the run. */
  acceptedMs: number;
  totalMs: number;
  created: number;
  deliveries: number;
  /** CPU per imported record in µs: PostgreSQL's backends serving the run; PGlite: this process (app and database). */
  cpuUs: number;
}

const hub = { hubs: [{ ref: 'h', name: 'Bench hub', tiers: [{ ref: 'free', name: 'Free', price: { amount: 0, currency: 'USD' } }] }] };

/**
 * The database handle with every statement timed while `timing.on`: per statement name, the
 * summed milliseconds from sending it to having its rows. Two batches run at once on PostgreSQL,
 * so the sums can exceed the run's wall time.
 */
function timed(db: Db, timing: { on: boolean; ms: Map<string, number> }): Db {
  const wrap = (q: Queryable['query']): Queryable['query'] => async (sql, params, name) => {
    const started = performance.now();
    try {
      return await q(sql, params, name);
    } finally {
      if (timing.on) {
        const key = name ?? sql.replace(/\s+/g, ' ').trim().split(' ').slice(0, 3).join(' ');
        timing.ms.set(key, (timing.ms.get(key) ?? 0) + performance.now() - started);
      }
    }
  };
  return {
    kind: db.kind,
    query: wrap(db.query.bind(db)),
    exec: db.exec.bind(db),
    transaction: (fn, options) => db.transaction((tx) => fn({ query: wrap(tx.query.bind(tx)), exec: tx.exec.bind(tx) }), options),
    listen: db.listen.bind(db),
    onCommit: db.onCommit.bind(db),
    close: db.close.bind(db),
  };
}

/** Measures the CPU a run costs: `stop` gives the ms used since `start`. */
type CpuMeter = () => { stop(): Promise<number> };

/** This process's CPU (PGlite: the app, the worker and the embedded database). */
const processCpu: CpuMeter = () => {
  const from = process.cpuUsage();
  return { stop: async () => { const used = process.cpuUsage(from); return (used.user + used.system) / 1000; } };
};

async function runOn(rawDb: Db, plan: { requests: number }[], cpu: CpuMeter): Promise<ImportRun[]> {
  const timing = { on: false, ms: new Map<string, number>() };
  const db = timed(rawDb, timing);
  await migrate(rawDb);
  // Defaults, except the batch size, which the environment may set to compare sizes.
  const defaults = loadConfig({ IMPORT_BATCH_SIZE: process.env.IMPORT_BATCH_SIZE });
  // The rate limit (one import request a second for a test key) would only measure itself here.
  const config: Config = {
    ...defaults, logLevel: 'silent', rateLimits: { live: 1_000_000, test: 1_000_000, authFailuresPerMinute: 1_000_000, registrationsPerHour: 1_000_000 },
    webhooks: { ...defaults.webhooks, secretKey: randomBytes(32), allowLoopback: true },
  };
  const log = pino({ level: 'silent' });
  const deps = testDeps(db, { config, log });
  const app = await buildApp(deps);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address() as AddressInfo;
  const base = `http://127.0.0.1:${address.port}/api/v1`;
  // Its import source only (see above); workSources also wires the webhook fan-out.
  const worker = await startWorker(db, workSources(deps).filter((s) => s.name === 'imports'), log);
  try {
    const brand = await createBrand(db, { name: 'Bench brand' });
    const ids = await loadCatalog(db, brand.id, hub);
    const { key } = await createKey(db, { brandId: brand.id, mode: 'test', scopes: ['customers:write'], name: 'bench' });
    const principal = { brandId: brand.id, mode: 'test' as const, scopes: ['webhooks:write' as const], via: 'api_key' as const, keyId: 'bench' };
    const endpoint = await createEndpoint(db, principal, { url: 'http://127.0.0.1:9/hook', events: ['member.joined'] }, { key: config.webhooks.secretKey!, allowLoopback: true });
    let people = 0;
    const body = (n: number) => JSON.stringify({ records: Array.from({ length: n }, () => ({ fullName: `Person ${people}`, email: `person${people++}@example.com` })) });
    const send = async (payload: string) => {
      const res = await fetch(`${base}/hubs/${ids.h}/members/import`, {
        method: 'POST', headers: { 'content-type': 'application/json', 'x-service-api': key }, body: payload,
      });
      const answer = await res.json();
      if (res.status !== 202) throw new Error(`import refused: ${res.status} ${JSON.stringify(answer)}`);
      return answer.data.importID as string;
    };
    const finished = async (id: string) => {
      for (;;) {
        // Not timed: the polling is the bench's, not the import's.
        const [row] = await rawDb.query<{ status: string; finished_at: Date | null; created_count: number }>(
          'SELECT status, finished_at, created_count FROM imports WHERE brand_id = $1 AND id = $2', [brand.id, id]);
        if (row.status === 'completed' || row.status === 'failed') return row;
        await new Promise((r) => setTimeout(r, 25));
      }
    };
    const deliveries = async () => (await rawDb.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM webhook_deliveries WHERE brand_id = $1 AND endpoint_id = $2', [brand.id, endpoint.id]))[0].n;

    // Warm-up: a small import, so prepared statements and JIT are warm as in a running service.
    await finished(await send(body(100)));

    const runs: ImportRun[] = [];
    for (const { requests } of plan) {
      // Bodies are made before the clock starts: the client's work is not the server's.
      const payloads = Array.from({ length: requests }, () => body(perRequest));
      const before = await deliveries();
      timing.ms = new Map();
      timing.on = true;
      const meter = cpu();
      const started = Date.now();
      let acceptedMs = 0;
      const importIds: string[] = [];
      for (const payload of payloads) {
        const sent = Date.now();
        importIds.push(await send(payload));
        acceptedMs = Math.max(acceptedMs, Date.now() - sent);
      }
      const done = await Promise.all(importIds.map(finished));
      const cpuMs = await meter.stop();
      timing.on = false;
      runs.push({
        kind: db.kind === 'pglite' ? 'PGlite (embedded)' : 'PostgreSQL',
        statements: timing.ms,
        requests,
        records: requests * perRequest,
        acceptedMs,
        totalMs: Math.max(...done.map((d) => d.finished_at!.getTime())) - started,
        created: done.reduce((n, d) => n + d.created_count, 0),
        deliveries: (await deliveries()) - before,
        cpuUs: (cpuMs * 1000) / (requests * perRequest),
      });
    }
    return runs;
  } finally {
    await worker.stop();
    await app.close();
  }
}

async function onPglite(): Promise<ImportRun[]> {
  const db = await openPglite();
  try { return await runOn(db, [{ requests: 1 }], processCpu); } finally { await db.close(); }
}

async function onPostgres(url: string): Promise<ImportRun[]> {
  const schema = `bench_imports_${randomBytes(4).toString('hex')}`;
  const admin = openPostgres(url, { max: 1 });
  await admin.query(`CREATE SCHEMA ${schema}`);
  // Its connections carry the schema's name, so their backends' CPU can be told from other work.
  const u = new URL(url);
  u.searchParams.set('application_name', schema);
  const db = openPostgres(u.toString(), { searchPath: schema });
  try {
    return await runOn(db, [{ requests: 1 }, { requests: 10 }], () => databaseCpu(admin, schema));
  } finally {
    await db.close();
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.close();
  }
}

const int = (n: number) => Math.round(n).toLocaleString('en-US');

/** The markdown section for bench/results/latest.md. */
export async function benchImports(): Promise<string> {
  const runs = await onPglite();
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) runs.push(...await onPostgres(databaseUrl));
  const single = new Map(runs.filter((r) => r.requests === 1).map((r) => [r.kind, r]));
  for (const r of single.values()) {
    const database = r.kind === 'PostgreSQL' ? 'PostgreSQL' : 'PGlite';
    recordUnit('CPU per imported record, µs (membership, event, its delivery row)', database, Number.isFinite(r.cpuUs) ? r.cpuUs.toFixed(0) : '–', '≤ 40');
    recordUnit('10,000 records imported, ms', database, int(r.totalMs), '< 500');
  }
  const rows = runs.map((r) => {
    const perSecond = r.records / (r.totalMs / 1000);
    const one = single.get(r.kind)!;
    const linear = r === one ? '' : `${(perSecond / (one.records / (one.totalMs / 1000))).toFixed(2)}`;
    return `| ${r.kind} | ${r.requests} × ${int(perRequest)} | ${int(r.created)} | ${int(r.deliveries)} | ${r.acceptedMs} | ${r.totalMs} | ${int(perSecond)} | ${(perSecond / target).toFixed(2)} | ${linear} | ${Number.isFinite(r.cpuUs) ? r.cpuUs.toFixed(0) : '–'} |`;
  });
  // Where the time goes: the statements of each single-request run, largest first.
  const stepNames = [...new Set([...single.values()].flatMap((r) => [...r.statements.keys()]))];
  const share = (r: ImportRun, name: string) => {
    const total = [...r.statements.values()].reduce((a, b) => a + b, 0);
    const ms = r.statements.get(name) ?? 0;
    return `${int(ms)} (${Math.round((ms / total) * 100)}%)`;
  };
  const ones = [...single.values()];
  const steps = stepNames
    .map((name) => ({ name, ms: Math.max(...ones.map((r) => r.statements.get(name) ?? 0)) }))
    .sort((a, b) => b.ms - a.ms);
  const shown = steps.slice(0, 8);
  const rest = steps.slice(8).map((st) => st.name);
  return [
    `### Bulk import (hub members, one subscribed webhook endpoint, IMPORT_BATCH_SIZE=${loadConfig({ IMPORT_BATCH_SIZE: process.env.IMPORT_BATCH_SIZE }).importBatchSize})`,
    '',
    'From sending the first POST /hubs/{hubID}/members/import over HTTP to the commit of the last batch: memberships, their member.joined '
      + 'events and one delivery row each for the subscribed endpoint (real app over HTTP, the real worker loop running its import source; '
      + 'the deliveries are written, not sent: sending them is the webhook section\'s). '
      + 'Requests of a run are sent one after another. "vs 1 request" is records/s against the single-request run on the same database: 1.00 is linear. '
      + 'CPU per record: on PostgreSQL the CPU time of the run\'s own database backends (from /proc, so the database must be on this machine), '
      + 'the import\'s database cost whatever else shares the machine (issue 28 target: at most 40 µs); on PGlite this process\'s CPU, app and embedded database together.',
    '',
    '| database | requests | created | deliveries | slowest 202 ms | done after ms | records/s | of 50,000/s | vs 1 request | CPU µs per record |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    databaseUrl ? `Target on PostgreSQL: ≥ ${int(target)} records/s (10,000 records in under 200 ms).` : '_PostgreSQL not measured: set DATABASE_URL to include it._',
    '',
    'Where the time goes in the 1 × 10,000 runs: ms summed per statement, timed from the client (sending, the database\'s work, reading the answer); '
      + 'on PostgreSQL two batches run at once, so the sum exceeds the run\'s wall time.',
    '',
    `| statement | ${ones.map((r) => r.kind).join(' | ')} |`,
    `|---|${ones.map(() => '---:').join('|')}|`,
    ...shown.map((st) => `| ${st.name} | ${ones.map((r) => share(r, st.name)).join(' | ')} |`),
    ...(rest.length ? [`| ${rest.length} others | ${ones.map((r) => int(rest.reduce((sum, name) => sum + (r.statements.get(name) ?? 0), 0))).join(' | ')} |`] : []),
    '',
  ].join('\n');
}

if (import.meta.main) console.log(await benchImports());
