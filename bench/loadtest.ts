/**
 * `npm run loadtest`: the production layout under a mixed workload for a fixed time (README,
 * Running in production). Two API processes and one worker on PostgreSQL (DATABASE_URL, a schema
 * of its own), load from autocannon in this process: product and transaction reads, payment
 * links, small imports (each new member is a member.joined event delivered to a local receiver).
 * Writes throughput, p50/p99 latency, error rate and peak RSS per process to
 * bench/results/loadtest.md, and checks that no event was lost or delivered twice.
 *
 * LOADTEST_SECONDS sets the length (default 300); REDIS_URL is passed on when set.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { loadCatalog } from '../packages/server/src/catalog/load.ts';
import { exampleCatalogPath } from '../packages/server/src/cli/commands.ts';
import { createBrand } from '../packages/server/src/brands/service.ts';
import { openPostgres } from '../packages/server/src/db/client.ts';
import { migrate } from '../packages/server/src/db/migrate.ts';
import { createKey } from '../packages/server/src/keys/service.ts';
import { urlWithSchema } from '../packages/server/src/testing/processes.ts';

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  console.error('npm run loadtest needs PostgreSQL: set DATABASE_URL=postgres://… (it works in a schema of its own).');
  process.exit(1);
}
const seconds = Number(process.env.LOADTEST_SECONDS ?? 300);
const mainScript = new URL('../packages/server/src/main.ts', import.meta.url).pathname;

const schema = `loadtest_${randomBytes(4).toString('hex')}`;
const admin = openPostgres(databaseUrl, { max: 1 });
await admin.query(`CREATE SCHEMA ${schema}`);
const db = openPostgres(databaseUrl, { searchPath: schema });
await migrate(db);

const brand = await createBrand(db, { name: 'Load test' });
const catalog: unknown = JSON.parse(await readFile(exampleCatalogPath, 'utf8'));
const ids = await db.transaction((tx) => loadCatalog(tx, brand.id, catalog));
const key = (await createKey(db, { brandId: brand.id, mode: 'test', scopes: ['products:read', 'transactions:read', 'checkout:write', 'customers:write', 'webhooks:write', 'customers:read'] })).key;
const hub = Object.values(ids).find((id) => id.startsWith('hub_'))!;

// The receiver: counts each event id, so a duplicate or a loss shows.
const seen = new Map<string, number>();
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const id = (JSON.parse(Buffer.concat(chunks).toString()) as { id: string }).id;
    seen.set(id, (seen.get(id) ?? 0) + 1);
    res.end('ok');
  });
});
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;

const env = {
  ...process.env,
  DATABASE_URL: urlWithSchema(databaseUrl, schema),
  WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
  WEBHOOK_ALLOW_LOOPBACK: 'true',
  RATE_LIMIT_TEST: '1000000',
  LOG_LEVEL: 'warn',
  HOST: '127.0.0.1',
  PORT: '0',
};

async function start(role: 'api' | 'worker'): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [mainScript], { env: { ...env, ROLES: role, LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => { output += c; });
  child.stderr!.on('data', (c: Buffer) => { output += c; });
  for (const deadline = Date.now() + 30_000; !output.includes('service started');) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`${role} did not start: ${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const port = Number(/"port":(\d+)/.exec(output.split('\n').find((l) => l.includes('service started')) ?? '')?.[1] ?? 0);
  const listening = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
  return { child, port: listening ? Number(listening[1]) : port };
}

/** Peak resident memory of a process so far (VmHWM), in MB. */
async function peakRssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

const apis = [await start('api'), await start('api')];
const worker = await start('worker');
const headers = { 'x-service-api': key, 'content-type': 'application/json' };
await fetch(`http://127.0.0.1:${apis[0].port}/api/v1/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url: receiverUrl, events: ['member.joined'] }) });

let imported = 0;
const link = JSON.stringify({ items: [{ id: ids['brush-course'], plan: ids['brush-standard'], type: 'course' }], form: { formData: { fullName: 'Ada Lovelace', email: 'ada@example.com', experienceLevel: 'Beginner' } } });
const requests = [
  { method: 'GET' as const, path: '/api/v1/products?limit=20' },
  { method: 'GET' as const, path: '/api/v1/transactions?limit=20' },
  { method: 'GET' as const, path: '/api/v1/products?limit=20' },
  { method: 'POST' as const, path: '/api/v1/payment-links', body: link },
  {
    method: 'POST' as const,
    path: `/api/v1/hubs/${hub}/members/import`,
    // Five new people each time: five member.joined events, five deliveries.
    setupRequest: (req: autocannon.Request) => ({
      ...req,
      body: JSON.stringify({ records: Array.from({ length: 5 }, () => ({ fullName: 'Load Tester', email: `p${imported++}@load.example.com` })) }),
    }),
  },
];

console.log(`Loading ${apis.length} API processes for ${seconds} s…`);
const results = await Promise.all(apis.map((api) => autocannon({
  url: `http://127.0.0.1:${api.port}`, headers, connections: 16, duration: seconds, requests,
})));

// Let the worker finish, then compare what was recorded with what arrived.
const expected = async () => (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM events WHERE brand_id = $1 AND type = 'member.joined'`, [brand.id]))[0].n;
const drainStart = Date.now();
for (let last = -1; Date.now() - drainStart < 120_000;) {
  const n = await expected();
  if (seen.size >= n) break;
  if (seen.size === last) await new Promise((r) => setTimeout(r, 1000));
  last = seen.size;
}
const events = await expected();
const duplicates = [...seen.values()].filter((n) => n > 1).length;
const lost = events - seen.size;
const rss = await Promise.all([...apis, worker].map((p) => peakRssMb(p.child.pid!)));

const total = (k: 'requests' | 'latency', f: 'average' | 'p50' | 'p99') => results.map((r) => r[k][f]);
const requestsTotal = results.reduce((s, r) => s + r.requests.total, 0);
const fiveXx = results.reduce((s, r) => s + Object.entries(r.statusCodeStats ?? {}).filter(([code]) => code.startsWith('5')).reduce((t, [, v]) => t + (v as { count: number }).count, 0), 0);
const errors = results.reduce((s, r) => s + r.errors + r.timeouts + r.non2xx, 0);
const report = [
  '# Load test',
  '',
  `${new Date().toISOString()}: ${seconds} s, 2 API processes and 1 worker on PostgreSQL${process.env.REDIS_URL ? ' with Redis' : ''}, `
    + '16 connections per API process from autocannon in a separate process. Each connection cycles: product list, '
    + 'transaction list, product list, payment link, import of 5 new hub members (5 member.joined deliveries to a local receiver).',
  '',
  '| API process | req/s | p50 ms | p99 ms |',
  '|---|---:|---:|---:|',
  ...results.map((r, i) => `| ${i + 1} | ${r.requests.average.toFixed(0)} | ${r.latency.p50} | ${r.latency.p99} |`),
  '',
  `Requests: ${requestsTotal.toLocaleString('en-US')} (${total('requests', 'average').reduce((a, b) => a + b, 0).toFixed(0)}/s in all); `
    + `5xx: ${fiveXx}; other errors (non-2xx, timeouts, connection errors): ${errors - fiveXx}; error rate ${((errors / Math.max(requestsTotal, 1)) * 100).toFixed(3)}%.`,
  '',
  `Events: ${events.toLocaleString('en-US')} member.joined recorded; delivered ${seen.size.toLocaleString('en-US')}; lost ${lost}; delivered twice ${duplicates}.`,
  '',
  `Peak RSS: API 1 ${rss[0].toFixed(0)} MB, API 2 ${rss[1].toFixed(0)} MB, worker ${rss[2].toFixed(0)} MB.`,
  '',
].join('\n');
console.log(report);
await writeFile(join(new URL('.', import.meta.url).pathname, 'results/loadtest.md'), report);

for (const p of [...apis, worker]) p.child.kill('SIGTERM');
await Promise.all([...apis, worker].map((p) => new Promise((r) => (p.child.exitCode !== null ? r(null) : p.child.once('exit', r)))));
receiver.close();
await db.close();
await admin.query(`DROP SCHEMA ${schema} CASCADE`);
await admin.close();
process.exitCode = fiveXx || lost || duplicates ? 1 : 0;
