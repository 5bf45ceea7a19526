/**
 * Import benchmark: one 10,000-record hub member import through the real app (HTTP on a real
 * port) and the real worker, timed from sending the request to the commit of the last
 * membership. On PGlite always, and on PostgreSQL when DATABASE_URL is set (in a throwaway
 * schema). Target: under 5 s on PostgreSQL.
 *
 *   node bench/imports.ts            # standalone; `npm run bench` calls benchImports()
 */
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { buildApp } from '../packages/server/src/app.ts';
import { testDeps } from '../packages/server/src/testing/app.ts';
import { loadCatalog } from '../packages/server/src/catalog/load.ts';
import { loadConfig, type Config } from '../packages/server/src/config.ts';
import { openPglite, openPostgres, type Db } from '../packages/server/src/db/client.ts';
import { migrate } from '../packages/server/src/db/migrate.ts';
import { createBrand } from '../packages/server/src/brands/service.ts';
import { createKey } from '../packages/server/src/keys/service.ts';
import { startWorker } from '../packages/server/src/worker/loop.ts';
import { workSources } from '../packages/server/src/worker/sources.ts';

const records = 10_000;

interface ImportRun {
  kind: string;
  acceptedMs: number;
  totalMs: number;
  batches: number;
  created: number;
}

const hub = { hubs: [{ ref: 'h', name: 'Bench hub', tiers: [{ ref: 'free', name: 'Free', price: { amount: 0, currency: 'USD' } }] }] };

async function runOn(db: Db): Promise<ImportRun> {
  await migrate(db);
  // Defaults, except the batch size, which the environment may set to compare sizes.
  const defaults = loadConfig({ IMPORT_BATCH_SIZE: process.env.IMPORT_BATCH_SIZE });
  const config: Config = { ...defaults, logLevel: 'silent', webhooks: { ...defaults.webhooks, secretKey: randomBytes(32) } };
  const log = pino({ level: 'silent' });
  const deps = testDeps(db, { config, log });
  const app = await buildApp(deps);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/v1`;
  const worker = await startWorker(db, workSources(deps), log);
  try {
    const brand = await createBrand(db, { name: 'Bench brand' });
    const ids = await loadCatalog(db, brand.id, hub);
    const { key } = await createKey(db, { brandId: brand.id, mode: 'test', scopes: ['customers:write'], name: 'bench' });
    const send = (n: number, prefix: string) => fetch(`${base}/hubs/${ids.h}/members/import`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-api': key },
      body: JSON.stringify({ records: Array.from({ length: n }, (_, i) => ({ fullName: `Person ${i}`, email: `${prefix}${i}@example.com` })) }),
    });
    const finished = async (id: string) => {
      for (;;) {
        const [row] = await db.query<{ status: string; finished_at: Date | null; created_count: number }>(
          'SELECT status, finished_at, created_count FROM imports WHERE brand_id = $1 AND id = $2', [brand.id, id]);
        if (row.status === 'completed' || row.status === 'failed') return row;
        await new Promise((r) => setTimeout(r, 25));
      }
    };

    // Warm-up: a small import, so prepared statements and JIT are warm as in a running service.
    const warm = await send(100, 'warm');
    await finished((await warm.json()).data.importID);

    const started = Date.now();
    const res = await send(records, 'person');
    const acceptedMs = Date.now() - started;
    const body = await res.json();
    if (res.status !== 202) throw new Error(`import refused: ${res.status} ${JSON.stringify(body)}`);
    // finished_at is the commit time of the last batch (same machine clock), so polling does not blur it.
    const done = await finished(body.data.importID);
    return {
      kind: db.kind === 'pglite' ? 'PGlite (embedded)' : 'PostgreSQL',
      acceptedMs,
      totalMs: done.finished_at!.getTime() - started,
      batches: Math.ceil(records / config.importBatchSize),
      created: done.created_count,
    };
  } finally {
    await worker.stop();
    await app.close();
  }
}

async function onPglite(): Promise<ImportRun> {
  const db = await openPglite();
  try { return await runOn(db); } finally { await db.close(); }
}

async function onPostgres(url: string): Promise<ImportRun> {
  const schema = `bench_imports_${randomBytes(4).toString('hex')}`;
  const admin = openPostgres(url, { max: 1 });
  await admin.query(`CREATE SCHEMA ${schema}`);
  const db = openPostgres(url, { searchPath: schema });
  try {
    return await runOn(db);
  } finally {
    await db.close();
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.close();
  }
}

/** The markdown section for bench/results/latest.md. */
export async function benchImports(): Promise<string> {
  const runs = [await onPglite()];
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) runs.push(await onPostgres(databaseUrl));
  const rows = runs.map((r) =>
    `| ${r.kind} | ${r.created.toLocaleString('en-US')} | ${r.acceptedMs} | ${r.totalMs} | ${Math.round(records / (r.totalMs / 1000)).toLocaleString('en-US')} | ${r.batches} |`);
  return [
    `### Bulk import (${records.toLocaleString('en-US')} hub members in one request, IMPORT_BATCH_SIZE=${loadConfig({ IMPORT_BATCH_SIZE: process.env.IMPORT_BATCH_SIZE }).importBatchSize})`,
    '',
    'From sending POST /hubs/{hubID}/members/import over HTTP to the commit of the last membership (and its member.joined event), real app and worker, no webhook endpoints.',
    '',
    '| database | created | 202 after ms | done after ms | records/s | batches |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    databaseUrl ? 'Target on PostgreSQL: 10,000 records in under 5,000 ms.' : '_PostgreSQL not measured: set DATABASE_URL to include it._',
    '',
  ].join('\n');
}

if (import.meta.main) console.log(await benchImports());
