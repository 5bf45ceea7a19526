/**
 * The server side of the products benchmark, run as its own process so the load generator
 * (autocannon, in bench/run.ts) does not share its CPU. It serves three things from one database
 * handle (the same pool):
 *   - the real app: GET /api/v1/products?limit=20 with a key, auth, envelope and all;
 *   - the database ceiling: a bare Fastify route running the same page query, no auth, no envelope;
 *   - the framework ceiling: a bare Fastify route returning the real response's bytes from memory.
 * It prints one JSON line with the ports and the key, then serves until killed.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { buildApp } from '../packages/server/src/app.ts';
import { testDeps } from '../packages/server/src/testing/app.ts';
import { openPglite, openPostgres } from '../packages/server/src/db/client.ts';
import { migrate } from '../packages/server/src/db/migrate.ts';
import { listProducts } from '../packages/server/src/products/repository.ts';
import { createBrand, createKey } from '../packages/server/src/testing/factories.ts';

const url = process.env.BENCH_DATABASE_URL;
const db = url ? openPostgres(url) : await openPglite(await mkdtemp(join(tmpdir(), 'bench-products-')));
await migrate(db);

const brand = await createBrand(db, { name: 'Bench brand' });
const key = await createKey(db, brand.id, { mode: 'test', scopes: ['products:read'] });
await db.query(
  `INSERT INTO products (brand_id, id, type, status, title, description, visibility, is_free, keywords, created_at, updated_at)
   SELECT $1, 'prod_bench' || i, 'digital', 'published', 'Product ' || i, 'A product made for the benchmark.', 'public', false,
          ARRAY['bench'], now() - i * interval '1 second', now() - i * interval '1 second'
   FROM generate_series(1, 10000) AS i`,
  [brand.id],
);
// Fresh statistics, as PostgreSQL's autovacuum and the embedded server's maintenance keep them.
await db.exec('ANALYZE');

const app = await buildApp(testDeps(db, { config: { bodyLimitBytes: 1 << 20, logLevel: 'silent', publicUrl: 'http://localhost' } }));
await app.listen({ port: 0, host: '127.0.0.1' });
const appPort = (app.server.address() as { port: number }).port;
const uncachedApp = await buildApp(testDeps(db, { config: { bodyLimitBytes: 1 << 20, logLevel: 'silent', publicUrl: 'http://localhost', catalogCacheMb: 0 } }));
await uncachedApp.listen({ port: 0, host: '127.0.0.1' });
const uncachedPort = (uncachedApp.server.address() as { port: number }).port;

const real = await app.inject({ method: 'GET', url: '/api/v1/products?limit=20', headers: { 'x-service-api': key.key } });
if (real.statusCode !== 200) throw new Error(`the real route answered ${real.statusCode}: ${real.body}`);
const bytes = real.rawPayload;

const bare = Fastify({ logger: false });
bare.get('/framework', async (_req, reply) => reply.type('application/json').send(bytes));
bare.get('/database', async () => listProducts(db, brand.id, { limit: 20 }));
await bare.listen({ port: 0, host: '127.0.0.1' });
const barePort = (bare.server.address() as { port: number }).port;

process.stdout.write(`${JSON.stringify({ appPort, uncachedPort, barePort, key: key.key, kind: db.kind, bytes: bytes.length })}\n`);
process.on('SIGTERM', async () => {
  await app.close();
  await uncachedApp.close();
  await bare.close();
  if (url) await db.query(`DELETE FROM products WHERE brand_id = $1`, [brand.id]);
  await db.close();
  process.exit(0);
});
