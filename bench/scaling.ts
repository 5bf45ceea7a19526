/**
 * How cost grows (issue 14 item 5): `npm run bench -- --scaling` writes bench/results/scaling.md.
 * PostgreSQL only (DATABASE_URL), in a throwaway database that is dropped at the end; not part
 * of CI, and it may take a good while longer than `npm run bench`.
 *
 * Data is made with set-based SQL (scaling-data.ts); everything is measured through the real
 * server (main.ts in its own processes, ROLES=api, one with the catalog cache and one with
 * CATALOG_CACHE_MB=0) and the real worker (main.ts, ROLES=worker), with autocannon in this process:
 *   - GET /products?limit=20, first page and a deep keyset page, at 1k, 100k and 1M products in
 *     one brand, and one brand's list among 10k brands (load spread over 100 of them);
 *   - GET /hubs/{id}/members?limit=20, first and deep page, at 1k and 1M members;
 *   - POST /hubs/{id}/members/import of 1k, 10k and 100k records (10k a request), until the last commit;
 *   - webhook deliveries drained by one worker process with 10 and 1,000 endpoints (local receivers);
 *   - the delivery log at 100k, 1M and 10M deliveries over 30 daily partitions: its lists and
 *     filters, the claim and retention by day (scaling-log.ts, BENCH_SCALING_LOG_MAX).
 * Then, at the largest sizes, EXPLAIN (ANALYZE, BUFFERS) of every statement those paths run
 * (explain.ts), and the table and index sizes the capacity model in docs/performance.md uses.
 *
 * Sizes can be made smaller to try it out:
 *   BENCH_SCALING_MAX (1000000: products and members), BENCH_SCALING_BRANDS (10000),
 *   BENCH_SCALING_IMPORT_MAX (100000), BENCH_SCALING_ENDPOINTS_MAX (1000),
 *   BENCH_SCALING_EVENTS (10000 deliveries a case), BENCH_SCALING_SECONDS (5 s a load).
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { cpus, loadavg, totalmem } from 'node:os';
import pino from 'pino';
import { buildApp } from '../packages/server/src/app.ts';
import { createBrand } from '../packages/server/src/brands/service.ts';
import { loadCatalog } from '../packages/server/src/catalog/load.ts';
import { openPostgres, type Db } from '../packages/server/src/db/client.ts';
import { migrate } from '../packages/server/src/db/migrate.ts';
import { recordEvent } from '../packages/server/src/events/service.ts';
import { newId } from '../packages/server/src/ids.ts';
import { createKey } from '../packages/server/src/keys/service.ts';
import { wireEventSubscribers } from '../packages/server/src/subscribers.ts';
import { testDeps, testWebhookSettings } from '../packages/server/src/testing/app.ts';
import { startWorkerProcess } from '../packages/server/src/testing/processes.ts';
import { createEndpoint } from '../packages/server/src/webhooks/service.ts';
import { workSources } from '../packages/server/src/work-sources.ts';
import { distinct, explainSection, explaining, relationSizes, sizesTable, type Explained, type ExplainedStatement } from './explain.ts';
import { load, type LoadResult } from './products.ts';
import { listNameOf, loadMany, startApi } from './scaling-http.ts';
import { startReceivers, type Receivers } from './receivers.ts';
import { measureDeliveryLog } from './scaling-log.ts';
import { addBrandsWithProducts, addMembers, addPaymentLinks, addProducts, cursorAt } from './scaling-data.ts';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const max = env('BENCH_SCALING_MAX', 1_000_000);
const fillerBrands = env('BENCH_SCALING_BRANDS', 10_000);
const perFillerBrand = 100;
const importMax = env('BENCH_SCALING_IMPORT_MAX', 100_000);
const endpointsMax = env('BENCH_SCALING_ENDPOINTS_MAX', 1000);
const deliveries = env('BENCH_SCALING_EVENTS', 10_000);
const seconds = env('BENCH_SCALING_SECONDS', 5);
const upTo = (sizes: number[], limit: number) => [...new Set([...sizes.filter((s) => s < limit), limit])];
const productSizes = upTo([1000, 100_000], max);
const memberSizes = upTo([1000], max);
const importSizes = upTo([1000, 10_000], importMax);
const endpointCounts = upTo([10], endpointsMax);
const importPerRequest = 10_000;
const n = (x: number) => x.toLocaleString('en-US');
const now = () => performance.timeOrigin + performance.now();

const sealingKey = randomBytes(32);

interface Row { what: string; size: string; cache: string; result: LoadResult }

const tableOf = (rows: Row[]) => [
  '| list | size | catalog cache | req/s | p50 ms | p99 ms | errors |',
  '|---|---:|---|---:|---:|---:|---:|',
  ...rows.map((r) => `| ${r.what} | ${r.size} | ${r.cache} | ${r.result.rps.toFixed(0)} | ${r.result.p50} | ${r.result.p99} | ${r.result.errors} |`),
];

async function measureProducts(db: Db, cached: string, uncached: string): Promise<{ rows: Row[]; brandId: string; key: string; filler: { brandId: string; key: string } }> {
  const rows: Row[] = [];
  const brand = await createBrand(db, { name: 'Scaling brand' });
  const { key } = await createKey(db, { brandId: brand.id, mode: 'test', scopes: ['products:read', 'products:write', 'customers:read', 'customers:write'], name: 'bench' });
  const headers = { 'x-service-api': key };
  let have = 0;
  for (const size of productSizes) {
    const t = now();
    await addProducts(db, brand.id, have + 1, size);
    await db.exec('ANALYZE products');
    console.log(`products: ${n(size)} in one brand (+${n(size - have)} in ${((now() - t) / 1000).toFixed(1)} s)`);
    have = size;
    const list = await listNameOf(`${cached}/products?limit=20`, key);
    const deep = await cursorAt(db, list, 'SELECT created_at, id FROM products WHERE brand_id = $1', [brand.id], size - 30);
    for (const [cache, base] of [['on', cached], ['off', uncached]] as const) {
      await load('warm-up', `${base}/products?limit=20`, headers, 2);
      rows.push({ what: 'products, first page', size: n(size), cache, result: await load('first', `${base}/products?limit=20`, headers, seconds) });
      rows.push({ what: 'products, deep page', size: n(size), cache, result: await load('deep', `${base}/products?limit=20&cursor=${deep}`, headers, seconds) });
    }
  }

  const t = now();
  const fillers = await addBrandsWithProducts(db, fillerBrands, perFillerBrand);
  await db.exec('ANALYZE brands; ANALYZE products');
  console.log(`products: ${n(fillerBrands)} more brands with ${perFillerBrand} each in ${((now() - t) / 1000).toFixed(1)} s`);
  // The load goes to 100 of them, spread, so the cache holds many brands as a busy storefront host would.
  const loaded = fillers.filter((_, i) => i % Math.max(1, Math.floor(fillers.length / 100)) === 0).slice(0, 100);
  const keys = await Promise.all(loaded.map(async (brandId) =>
    (await createKey(db, { brandId, mode: 'test', scopes: ['products:read'], name: 'bench' })).key));
  const list = await listNameOf(`${cached}/products?limit=20`, keys[0]);
  const deepOf = await cursorAt(db, list, 'SELECT created_at, id FROM products WHERE brand_id = $1', [loaded[0]], perFillerBrand - 10);
  const size = `${perFillerBrand} of ${n(fillerBrands * perFillerBrand + have)} (${n(fillerBrands + 1)} brands, load over ${loaded.length})`;
  for (const [cache, base] of [['on', cached], ['off', uncached]] as const) {
    await loadMany('warm-up', base, '/api/v1/products?limit=20', keys, seconds);
    rows.push({ what: 'products, first page', size, cache, result: await loadMany('first', base, '/api/v1/products?limit=20', keys, seconds) });
    rows.push({ what: 'products, deep page (one brand)', size, cache, result: await load('deep', `${base}/products?limit=20&cursor=${deepOf}`, { 'x-service-api': keys[0] }, seconds) });
  }
  return { rows, brandId: brand.id, key, filler: { brandId: loaded[0], key: keys[0] } };
}

const hubCatalog = {
  hubs: [{ ref: 'h', name: 'Scaling hub', tiers: [
    { ref: 'free', name: 'Free', price: { amount: 0, currency: 'USD' } },
    { ref: 'gold', name: 'Gold', price: { amount: 500, currency: 'USD' } },
    { ref: 'spare', name: 'Spare', price: { amount: 900, currency: 'USD' } },
  ] }],
};

async function measureMembers(db: Db, base: string, brandId: string, key: string): Promise<{ rows: Row[]; hubId: string }> {
  const rows: Row[] = [];
  const ids = await db.transaction((tx) => loadCatalog(tx, brandId, hubCatalog));
  let have = 0;
  for (const size of memberSizes) {
    const t = now();
    await addMembers(db, brandId, ids.h, ids.free, have + 1, size);
    await db.exec('ANALYZE memberships');
    console.log(`members: ${n(size)} in one hub (+${n(size - have)} in ${((now() - t) / 1000).toFixed(1)} s)`);
    have = size;
    const url = `${base}/hubs/${ids.h}/members?limit=20`;
    const list = await listNameOf(url, key);
    const deep = await cursorAt(db, list, `SELECT created_at, id FROM memberships WHERE brand_id = $1 AND mode = 'test' AND hub_id = $2`, [brandId, ids.h], size - 30);
    await load('warm-up', url, { 'x-service-api': key }, 1);
    rows.push({ what: 'hub members, first page', size: n(size), cache: '–', result: await load('first', url, { 'x-service-api': key }, seconds) });
    rows.push({ what: 'hub members, deep page', size: n(size), cache: '–', result: await load('deep', `${url}&cursor=${deep}`, { 'x-service-api': key }, seconds) });
  }
  // Links that sold the gold tier, so "was this tier sold" reads them too (EXPLAIN below).
  await addPaymentLinks(db, brandId, ids.h, ids.gold, Math.max(1, Math.floor(max / 10)));
  await db.exec('ANALYZE payment_links');
  return { rows, hubId: ids.h };
}

interface ImportRun { records: number; requests: number; acceptedMs: number; totalMs: number }

async function measureImports(db: Db, url: string, base: string, brandId: string, key: string): Promise<ImportRun[]> {
  const worker = await startWorkerProcess({ DATABASE_URL: url, WEBHOOK_SECRET_KEY: sealingKey.toString('base64'), LOG_LEVEL: 'warn' });
  const runs: ImportRun[] = [];
  try {
    for (const records of importSizes) {
      const ids = await db.transaction((tx) => loadCatalog(tx, brandId, { hubs: [{ ref: 'h', name: `Import ${records}`, tiers: [{ ref: 'free', name: 'Free', price: { amount: 0, currency: 'USD' } }] }] }));
      const bodies: string[] = [];
      for (let from = 0; from < records; from += importPerRequest) {
        const count = Math.min(importPerRequest, records - from);
        bodies.push(JSON.stringify({ records: Array.from({ length: count }, (_, i) => ({ fullName: `Person ${from + i}`, email: `import${records}-${from + i}@example.com` })) }));
      }
      const started = now();
      const importIds: string[] = [];
      for (const body of bodies) {
        const res = await fetch(`${base}/hubs/${ids.h}/members/import`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-service-api': key }, body });
        const answer = await res.json() as { data: { importID: string } };
        if (res.status !== 202) throw new Error(`import refused: ${res.status} ${JSON.stringify(answer)}`);
        importIds.push(answer.data.importID);
      }
      const acceptedMs = now() - started;
      for (;;) {
        const [row] = await db.query<{ done: number; last: Date | null }>(
          `SELECT count(*) FILTER (WHERE status IN ('completed', 'failed'))::int AS done, max(finished_at) AS last FROM imports WHERE brand_id = $1 AND id = ANY($2)`,
          [brandId, importIds]);
        if (row.done === importIds.length) {
          runs.push({ records, requests: bodies.length, acceptedMs: Math.round(acceptedMs), totalMs: Math.round(row.last!.getTime() - started) });
          break;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      console.log(`imports: ${n(records)} records in ${runs.at(-1)!.totalMs} ms`);
    }
  } finally {
    worker.kill('SIGTERM');
    if (worker.exitCode === null) await once(worker, 'exit');
  }
  return runs;
}

interface DeliveryRun { endpoints: number; delivered: number; perSecond: number; seconds: number }

/** One brand per endpoint; `deliveries` events round-robin over them, committed first, then one worker drains them. */
async function measureDeliveries(db: Db, url: string, endpoints: number): Promise<{ run: DeliveryRun; brandIds: string[]; rx: Receivers }> {
  const rx = await startReceivers(endpoints);
  const brandIds: string[] = [];
  for (let i = 0; i < endpoints; i++) {
    const brand = await createBrand(db, { name: `Delivery ${i}` });
    brandIds.push(brand.id);
    const principal = { brandId: brand.id, mode: 'test' as const, scopes: ['webhooks:write' as const], via: 'api_key' as const, keyId: 'bench' };
    await createEndpoint(db, principal, { url: rx.urls[i], events: ['member.joined'] }, { key: sealingKey, allowLoopback: true });
  }
  await commitEvents(db, brandIds, deliveries);
  const worker = await startWorkerProcess({ DATABASE_URL: url, WEBHOOK_SECRET_KEY: sealingKey.toString('base64'), LOG_LEVEL: 'warn' });
  const deadline = Date.now() + 180_000;
  await rx.waitFor(deliveries, Math.max(0, deadline - Date.now()));
  worker.kill('SIGTERM');
  if (worker.exitCode === null) await once(worker, 'exit');
  const times = [...rx.receivedAt.values()];
  const took = (Math.max(...times) - Math.min(...times)) / 1000;
  console.log(`deliveries: ${n(times.length)} to ${n(endpoints)} endpoints in ${took.toFixed(1)} s`);
  return { run: { endpoints, delivered: times.length, perSecond: times.length / took, seconds: took }, brandIds, rx };
}

async function commitEvents(db: Db, brandIds: string[], count: number) {
  for (let sent = 0; sent < count; sent += 100) {
    await db.transaction(async (tx) => {
      for (let i = sent; i < Math.min(count, sent + 100); i++) {
        const at = new Date().toISOString();
        await recordEvent(tx, { brandId: brandIds[i % brandIds.length], mode: 'test', type: 'member.joined', data: { membershipId: newId('mem'), name: 'Bench', email: 'bench@example.com', status: 'active', joinedAt: at, version: 1, updatedAt: at } });
      }
    });
  }
}

/**
 * The statements the hot paths run at the largest sizes, each with its plan: the app and the
 * worker sources in this process, on a Db that EXPLAINs every statement before running it.
 */
async function explainHotPaths(db: Db, s: { brandId: string; key: string; filler: { brandId: string; key: string }; hubId: string; deliveryBrands: string[] }): Promise<Explained[]> {
  const out: Explained[] = [];
  const sink: ExplainedStatement[] = [];
  const xdb = explaining(db, sink);
  const log = pino({ level: 'silent' });
  const deps = testDeps(xdb, { log, config: { catalogCacheMb: 0, webhooks: { ...testWebhookSettings(), secretKey: sealingKey, allowLoopback: true } } });
  const app = await buildApp(deps);
  const take = (what: string) => { out.push({ what, statements: distinct(sink.splice(0)) }); };
  const get = async (url: string, key: string) => {
    const res = await app.inject({ method: 'GET', url, headers: { 'x-service-api': key } });
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    return (res.json() as { data: { nextCursor: string } }).data;
  };
  try {
    // The key is resolved once and then cached: read it outside the plans that matter.
    await get('/api/v1/products?limit=1', s.key);
    await get('/api/v1/products?limit=1', s.filler.key);
    sink.splice(0);
    const list = JSON.parse(Buffer.from((await get('/api/v1/products?limit=20', s.key)).nextCursor, 'base64url').toString('utf8'))[1] as string;
    sink.splice(0);
    await get('/api/v1/products?limit=20', s.key);
    take(`GET /products?limit=20, ${n(max)} products in the brand, first page (CATALOG_CACHE_MB=0)`);
    const deep = await cursorAt(db, list, 'SELECT created_at, id FROM products WHERE brand_id = $1', [s.brandId], max - 30);
    await get(`/api/v1/products?limit=20&cursor=${deep}`, s.key);
    take(`GET /products?limit=20&cursor=…, ${n(max)} products, deep page (row ${n(max - 30)})`);
    await get('/api/v1/products?limit=20', s.filler.key);
    take(`GET /products?limit=20, one brand of ${n(fillerBrands)} (${perFillerBrand} products each)`);

    const members = `/api/v1/hubs/${s.hubId}/members?limit=20`;
    const memberList = JSON.parse(Buffer.from((await get(members, s.key)).nextCursor, 'base64url').toString('utf8'))[1] as string;
    sink.splice(0);
    await get(members, s.key);
    take(`GET /hubs/{id}/members?limit=20, ${n(max)} members, first page`);
    const deepMember = await cursorAt(db, memberList, `SELECT created_at, id FROM memberships WHERE brand_id = $1 AND mode = 'test' AND hub_id = $2`, [s.brandId, s.hubId], max - 30);
    await get(`${members}&cursor=${deepMember}`, s.key);
    take(`GET /hubs/{id}/members?limit=20&cursor=…, ${n(max)} members, deep page`);

    // A batch of an import into the big hub: the existing-member checks, inserts and events at size.
    const records = Array.from({ length: 1000 }, (_, i) => ({ fullName: `Late ${i}`, email: `late${i}@example.com` }));
    const queued = await app.inject({ method: 'POST', url: `/api/v1/hubs/${s.hubId}/members/import`, headers: { 'x-service-api': s.key }, payload: { records } });
    if (queued.statusCode !== 202) throw new Error(`import: ${queued.statusCode} ${queued.body}`);
    take(`POST /hubs/{id}/members/import (1,000 records) into the hub of ${n(max)} members`);
    const sources = workSources(deps);
    const imports = sources.find((x) => x.name === 'imports');
    while (imports && await imports.runOnce() > 0) { /* until the import is done */ }
    take(`Worker: that import's batches (IMPORT_BATCH_SIZE=${deps.config.importBatchSize}), memberships at ${n(max)}`);

    // Deliveries: a backlog for the 1,000-endpoint brands, claimed and sent by the worker's source.
    await commitEvents(db, s.deliveryBrands, Math.min(1000, deliveries));
    const send = sources.find((x) => x.name === 'webhook-deliveries');
    if (send) {
      for (let i = 0; i < 5; i++) await send.runOnce();
      await send.stop?.();
      take(`Worker: claiming and recording deliveries (${n(s.deliveryBrands.length)} endpoints, backlog of ${n(Math.min(1000, deliveries))})`);
    }

    // "Was this tier ever sold": a hub's tier list that leaves out the sold free tier, the gold
    // tier sold through links only, and the spare tier nobody bought (the worst case: no row stops the search).
    const patch = await app.inject({ method: 'PATCH', url: `/api/v1/hubs/${s.hubId}`, headers: { 'x-service-api': s.key }, payload: { tiers: [{ name: 'Platinum', price: { amount: 0, currency: 'USD' } }] } });
    if (patch.statusCode !== 200) throw new Error(`PATCH hub: ${patch.statusCode} ${patch.body}`);
    take(`PATCH /hubs/{id} leaving out 3 tiers: "was this tier sold" over ${n(max)} memberships and ${n(Math.floor(max / 10))} payment links`);
  } finally {
    await app.close();
  }
  return out;
}

const setting = async (db: Db, name: string) => (await db.query<{ v: string }>('SELECT current_setting($1) AS v', [name]))[0].v;

/** Runs everything against a throwaway database next to DATABASE_URL's and returns scaling.md. */
export async function benchScaling(databaseUrl: string): Promise<string> {
  const name = `bench_scaling_${randomBytes(4).toString('hex')}`;
  const admin = openPostgres(databaseUrl, { max: 1 });
  await admin.query(`CREATE DATABASE ${name}`);
  const u = new URL(databaseUrl);
  u.pathname = `/${name}`;
  const url = u.toString();
  const db = openPostgres(url);
  const started = now();
  const loadBefore = loadavg();
  wireEventSubscribers();
  try {
    await migrate(db);
    const cached = await startApi(url, sealingKey);
    const uncached = await startApi(url, sealingKey, { CATALOG_CACHE_MB: '0' }).catch(async (err: unknown) => { await cached.stop(); throw err; });
    let products; let members;
    try {
      products = await measureProducts(db, cached.base, uncached.base);
      members = await measureMembers(db, cached.base, products.brandId, products.key);
    } finally {
      await uncached.stop();
    }
    let imports;
    try {
      imports = await measureImports(db, url, cached.base, products.brandId, products.key);
    } finally {
      await cached.stop();
    }
    const runs: DeliveryRun[] = [];
    let last: Awaited<ReturnType<typeof measureDeliveries>> | undefined;
    for (const endpoints of endpointCounts) {
      await last?.rx.close();
      last = await measureDeliveries(db, url, endpoints);
      runs.push(last.run);
    }
    await db.exec('ANALYZE');
    const loadMeasured = loadavg();
    const sizes = await relationSizes(db);
    const explained = await explainHotPaths(db, { ...products, hubId: members.hubId, deliveryBrands: last!.brandIds });
    await last!.rx.close();
    // The delivery log and queue are updated in place (claim, outcome) and measured right after: compacted, they
    // show what a row takes once vacuum lets its space be reused, which is what the capacity model needs.
    const logTables = ['events', 'webhook_deliveries', 'webhook_attempts', 'webhook_queue'];
    await db.query(`VACUUM (FULL, ANALYZE) ${logTables.join(', ')}`);
    const compacted = (await relationSizes(db)).filter((t) => logTables.includes(t.table));
    // Last: it makes the largest tables of the run (10M deliveries), which the plans above need not read.
    const log = await measureDeliveryLog(db, url, sealingKey);
    const minutes = ((now() - started) / 60_000).toFixed(1);

    return [
      '# How cost grows (scaling benchmark)',
      '',
      `${new Date().toISOString()} on ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GB, Node ${process.version}, `
        + `PostgreSQL ${await setting(db, 'server_version')} (shared_buffers ${await setting(db, 'shared_buffers')}, work_mem ${await setting(db, 'work_mem')}). `
        + `Load average ${loadBefore.map((x) => x.toFixed(1)).join(' / ')} at the start and ${loadMeasured.map((x) => x.toFixed(1)).join(' / ')} after the measurements (1 / 5 / 15 min); ${minutes} min in all. `
        + 'Produced by `npm run bench -- --scaling` (bench/scaling.ts); sizes from BENCH_SCALING_* (see the file).',
      '',
      `Servers: main.ts with ROLES=api in its own process (one with the catalog cache, one with CATALOG_CACHE_MB=0), PostgreSQL via DATABASE_URL in a throwaway database; `
        + `load from autocannon in the bench process, 50 connections, ${seconds} s a row. The deep page is a keyset cursor 30 rows from the end of the list.`,
      '',
      '## Lists',
      '',
      ...tableOf([...products.rows, ...members.rows]),
      '',
      '## Imports',
      '',
      `POST /hubs/{id}/members/import over HTTP (${n(importPerRequest)} records a request) with one worker process (main.ts, ROLES=worker), `
        + `into a new hub of a brand that already holds ${n(max)} members; from the first request to the commit of the last batch (imports.finished_at).`,
      '',
      '| records | requests | all accepted after ms | done after ms | records/s |',
      '|---:|---:|---:|---:|---:|',
      ...imports.map((r) => `| ${n(r.records)} | ${r.requests} | ${r.acceptedMs} | ${r.totalMs} | ${n(Math.round(r.records / (r.totalMs / 1000)))} |`),
      '',
      '## Webhook deliveries',
      '',
      `${n(deliveries)} member.joined events round-robin over N brands with one endpoint each (a local receiver answering 200 for each), `
        + 'committed first; then one worker process (main.ts, ROLES=worker) drains them. Rate is deliveries over the time from the first receipt to the last.',
      '',
      '| endpoints | delivered | seconds | deliveries/s |',
      '|---:|---:|---:|---:|',
      ...runs.map((r) => `| ${n(r.endpoints)} | ${n(r.delivered)} | ${r.seconds.toFixed(1)} | ${r.perSecond.toFixed(0)} |`),
      '',
      ...log,
      '## Table and index sizes at the largest size',
      '',
      'pg_table_size and pg_indexes_size after ANALYZE; rows are the planner\'s estimate.',
      '',
      ...sizesTable(sizes),
      '',
      'The delivery log after `VACUUM FULL` (taken after the plans below): what a row takes once its dead versions\' space is reused.',
      '',
      ...sizesTable(compacted),
      '',
      '## Plans at the largest size',
      '',
      'Every statement each path ran, captured by running the real app and worker sources on a Db that first runs the statement as '
        + '`EXPLAIN (ANALYZE, BUFFERS)` in a savepoint it rolls back (bench/explain.ts): the exact SQL and parameters, with custom plans '
        + '(the app runs some as named prepared statements, which may switch to a generic plan after five runs). Slowest first.',
      '',
      ...explainSection(explained),
    ].join('\n');
  } finally {
    await db.close();
    if (!process.env.BENCH_SCALING_KEEP) await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
    else console.log(`kept database ${name}`);
    await admin.close();
  }
}

if (import.meta.main) {
  if (!process.env.DATABASE_URL) throw new Error('the scaling benchmark runs on PostgreSQL: set DATABASE_URL');
  console.log(await benchScaling(process.env.DATABASE_URL));
}
