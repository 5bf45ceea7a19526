/**
 * Embedded mode's start-up and memory (issue 14 item 4), on the real server process as `npm start`
 * runs it (the bundle, `packages/server/dist/main.js`, with its Node flags, without DATABASE_URL, in
 * a data folder of its own):
 *
 * - first start with an empty folder: the database is created and every migration applied;
 * - cold start with an existing folder (10,000 products, a key), several runs, median: from
 *   spawning the process to the answer of its first GET /api/v1/products?limit=20 (200, with a key);
 * - peak RSS (VmHWM of /proc/PID/status) while the server serves the bench workload: the products
 *   list under load (50 connections), then a 10,000-member import whose member.joined events go to
 *   a webhook endpoint on a local receiver (a 10,000-delivery burst through the in-process worker);
 * - what `npm start` adds before the server (its build checks: dashboard, server bundle), measured on its own.
 *
 * Each start's own account of where the time went comes from its "service started" log line.
 *
 *   node bench/startup.ts            # standalone; `npm run bench -- startup` calls benchStartup()
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { load } from './products.ts';
import { createBrand } from '../packages/server/src/brands/service.ts';
import { loadCatalog } from '../packages/server/src/catalog/load.ts';
import { openPglite } from '../packages/server/src/db/client.ts';
import { createKey } from '../packages/server/src/keys/service.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
/**
 * What `npm start` runs last (package.json): the server's entry (the bundle, scripts/server-build.ts)
 * and the Node flags it runs with (--liftoff-only, --max-semi-space-size; docs/embedded.md), so the figures are what a user
 * gets. BENCH_STARTUP_ENTRY replaces the entry (`packages/server/src/main.ts`: the sources),
 * BENCH_STARTUP_NODE_FLAGS the flags (an empty value: none).
 */
const startScript = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { scripts: { start: string } }).scripts.start;
const serverCommand = /node ((?:--\S+ )*)(packages\/server\/\S+)$/.exec(startScript);
if (!serverCommand) throw new Error(`bench/startup.ts cannot find the server's command in npm start's script: ${startScript}`);
const entry = process.env.BENCH_STARTUP_ENTRY ?? serverCommand[2]!;
const nodeFlags = (process.env.BENCH_STARTUP_NODE_FLAGS ?? serverCommand[1]!).split(' ').filter(Boolean);
const coldRuns = Number(process.env.BENCH_STARTUP_RUNS ?? 5);
const members = 10_000;
const burstEvents = 250;
const burstEndpoints = 4;
const products = 10_000;
const targets = { coldMs: 1500, peakRssMb: 300 };

interface Started {
  child: ChildProcess;
  port: number;
  /** From spawn to the first answer, in ms. */
  firstAnswerMs: number;
  firstStatus: number;
  /** CPU time (user and system) the process had used by its first answer, in ms: steadier than wall time on a busy machine. */
  cpuMs: number;
  /** The server's own start-up marks (ms from its process start), from its "service started" line. */
  marks: Record<string, number>;
}

/** Peak and current resident set of a process, in MB, from /proc. */
async function memoryOf(pid: number): Promise<{ peakMb: number; rssMb: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { peakMb: Math.round(kb('VmHWM') / 1024), rssMb: Math.round(kb('VmRSS') / 1024) };
}

/** CPU time a process has used so far, in ms, from /proc (utime and stime, in clock ticks of 10 ms). */
async function cpuOf(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * Spawns the embedded server on dataDir and sends `path` the moment it says it listens; resolves
 * once that request is answered and the server has logged "service started".
 */
async function start(dataDir: string, path: string, headers: Record<string, string>, env: Record<string, string> = {}): Promise<Started> {
  const startedAt = performance.now();
  const child = spawn(process.execPath, [...nodeFlags, join(root, entry)], {
    cwd: root,
    // The load is one test key's: its default budget (25 req/s) would answer most of it 429.
    env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', RATE_LIMIT_TEST: '1000000', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  const exited = once(child, 'exit').then(([code]) => { throw new Error(`the server exited (${code}) while starting: ${stderr.slice(-2000)}`); });
  exited.catch(() => {});
  const lines = createInterface({ input: child.stdout! });
  let answer: Promise<{ status: number; at: number; cpuMs: number }> | undefined;
  let port = 0;
  const marks = new Promise<Record<string, number>>((resolve) => {
    lines.on('line', (line) => {
      let entry: { msg?: string; startupMs?: Record<string, number> };
      try { entry = JSON.parse(line); } catch { return; }
      const listening = /^Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(entry.msg ?? '');
      if (listening && !answer) {
        port = Number(listening[1]);
        answer = fetch(`http://127.0.0.1:${port}${path}`, { headers }).then(async (res) => {
          await res.arrayBuffer();
          return { status: res.status, at: performance.now(), cpuMs: await cpuOf(child.pid!) };
        });
      }
      if (entry.msg === 'service started' && entry.startupMs) resolve(entry.startupMs);
    });
  });
  const startupMs = await Promise.race([marks, exited]);
  const first = await answer!;
  return { child, port, firstAnswerMs: Math.round(first.at - startedAt), firstStatus: first.status, cpuMs: first.cpuMs, marks: startupMs };
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

/** The folder every cold start opens: one brand, a key, a hub and 10,000 products, as a running shop has. */
async function seed(dataDir: string) {
  const db = await openPglite(dataDir);
  try {
    const brand = await createBrand(db, { name: 'Bench brand' });
    const { key } = await createKey(db, { brandId: brand.id, mode: 'test', scopes: ['products:read', 'customers:write', 'webhooks:write'], name: 'bench' });
    const ids = await db.transaction((tx) => loadCatalog(tx, brand.id, {
      hubs: [{ ref: 'h', name: 'Bench hub', tiers: [{ ref: 'free', name: 'Free', price: { amount: 0, currency: 'USD' } }] }],
    }));
    await db.query(
      `INSERT INTO products (brand_id, id, type, status, title, description, visibility, is_free, keywords, created_at, updated_at)
       SELECT $1, 'prod_bench' || i, 'digital', 'published', 'Product ' || i, 'A product made for the benchmark.', 'public', false,
              ARRAY['bench'], now() - i * interval '1 second', now() - i * interval '1 second'
       FROM generate_series(1, ${products}) AS i`,
      [brand.id],
    );
    return { key, hubId: ids.h! };
  } finally {
    await db.close();
  }
}

/** A local webhook receiver answering 200, counting the distinct deliveries it received (event and path). */
async function receiver() {
  const seen = new Set<string>();
  let wake = () => {};
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.add(`${req.url} ${(JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string }).id}`);
      res.writeHead(200).end();
      wake();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received: () => seen.size,
    async waitFor(n: number, limitMs: number) {
      const until = Date.now() + limitMs;
      while (seen.size < n && Date.now() < until) {
        await new Promise<void>((resolve) => { wake = resolve; setTimeout(resolve, 200); });
      }
      return seen.size >= n;
    },
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

/** The workload peak RSS is measured under; returns VmHWM after each phase and what each phase did. */
async function workload(server: Started, key: string, hubId: string) {
  const base = `http://127.0.0.1:${server.port}/api/v1`;
  const headers = { 'x-service-api': key, 'content-type': 'application/json' };
  const pid = server.child.pid!;
  const phases: { phase: string; peakMb: number; rssMb: number; note: string }[] = [];
  phases.push({ phase: 'started, first request answered', ...await memoryOf(pid), note: '' });

  const list = await load('products', `${base}/products?limit=20`, { 'x-service-api': key }, 10);
  phases.push({ phase: 'products list, 50 connections, 10 s', ...await memoryOf(pid), note: `${list.rps.toFixed(0)} req/s, p99 ${list.p99} ms, ${list.errors} errors` });

  const startedAt = performance.now();
  const res = await fetch(`${base}/hubs/${hubId}/members/import`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ records: Array.from({ length: members }, (_, i) => ({ fullName: `Person ${i}`, email: `person${i}@example.com` })) }),
  });
  const body = await res.json() as { data: { importID: string } };
  if (res.status !== 202) throw new Error(`import refused: ${res.status} ${JSON.stringify(body)}`);
  for (;;) {
    const state = await (await fetch(`${base}/imports/${body.data.importID}`, { headers })).json() as { data: { status: string; createdCount?: number } };
    if (state.data.status === 'completed' || state.data.status === 'failed') break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const importMs = Math.round(performance.now() - startedAt);
  phases.push({ phase: `import of ${members.toLocaleString('en-US')} hub members`, ...await memoryOf(pid), note: `done after ${importMs} ms` });

  // The burst: test events fanned out to several endpoints of the brand, all sent at once.
  const hooks = await receiver();
  try {
    for (let i = 0; i < burstEndpoints; i++) {
      const endpoint = await fetch(`${base}/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url: `${hooks.url}/${i}`, events: ['member.joined'] }) });
      if (endpoint.status !== 200) throw new Error(`webhook endpoint refused: ${endpoint.status} ${await endpoint.text()}`);
    }
    const burstAt = performance.now();
    const send = async () => {
      const sent = await fetch(`${base}/webhooks/test`, { method: 'POST', headers, body: JSON.stringify({ eventType: 'member.joined' }) });
      if (sent.status !== 200) throw new Error(`test event refused: ${sent.status} ${await sent.text()}`);
    };
    for (let i = 0; i < burstEvents; i += 10) await Promise.all(Array.from({ length: 10 }, send));
    const delivered = await hooks.waitFor(burstEvents * burstEndpoints, 60_000);
    phases.push({
      phase: `webhook burst: ${burstEvents} test events to ${burstEndpoints} endpoints`,
      ...await memoryOf(pid),
      note: `${hooks.received().toLocaleString('en-US')} deliveries after ${Math.round(performance.now() - burstAt)} ms${delivered ? '' : ' (gave up waiting)'}`,
    });
  } finally {
    await hooks.close();
  }
  return phases;
}

/** The steps `npm start` runs before the server: its build checks (dashboard, server bundle). */
const buildChecks = startScript.split(' && ').slice(0, -1).map((command) => command.split(' ').slice(1));

/**
 * Runs `npm start`'s build checks, building what is stale as npm start would; resolves to how long
 * they took, or undefined when one built something (a build is not start-up overhead).
 */
async function runBuildChecks(): Promise<number | undefined> {
  const startedAt = performance.now();
  let output = '';
  for (const args of buildChecks) {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout!.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    const [code] = await once(child, 'exit');
    if (code !== 0) throw new Error(`npm start's step \`node ${args.join(' ')}\` failed (${code}): ${output}`);
  }
  return output.trim() === '' ? Math.round(performance.now() - startedAt) : undefined;
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
};

/** Each start's marks as durations of its steps: modules, database, migrations, app, listen. */
function steps(marks: Record<string, number>) {
  return {
    modules: marks.modules!,
    database: marks.database! - marks.modules!,
    migrations: marks.migrations! - marks.database!,
    app: marks.app! - marks.migrations!,
    listen: marks.listening! - marks.app!,
  };
}

/** The markdown section for bench/results/latest.md. */
export async function benchStartup(): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-startup-'));
  // The bench's own first fetch loads Node's HTTP client; not the server's time.
  const warm = await receiver();
  await fetch(warm.url, { method: 'POST', body: '{"id":"warm"}' });
  await warm.close();
  try {
    // The server runs what npm start would: a fresh bundle, built first if it is not.
    await runBuildChecks();
    const empty = await start(dataDir, '/api/v1/ping', {});
    await stop(empty.child);
    const { key, hubId } = await seed(dataDir);

    const cold: Started[] = [];
    for (let i = 0; i < coldRuns; i++) {
      const run = await start(dataDir, '/api/v1/products?limit=20', { 'x-service-api': key });
      await stop(run.child);
      if (run.firstStatus !== 200) throw new Error(`the first products request answered ${run.firstStatus}`);
      cold.push(run);
    }
    const served = await start(dataDir, '/api/v1/products?limit=20', { 'x-service-api': key });
    let phases: Awaited<ReturnType<typeof workload>>;
    try {
      phases = await workload(served, key, hubId);
    } finally {
      await stop(served.child);
    }
    const npmMs = await runBuildChecks();

    const coldMs = median(cold.map((r) => r.firstAnswerMs));
    const stepRow = (name: string, r: Started) => {
      const s = steps(r.marks);
      return `| ${name} | **${r.firstAnswerMs}** | ${r.cpuMs} | ${s.modules} | ${s.database} | ${s.migrations} | ${s.app} | ${s.listen} | ${r.firstAnswerMs - r.marks.listening!} |`;
    };
    const medianRun = [...cold].sort((a, b) => a.firstAnswerMs - b.firstAnswerMs)[Math.floor(cold.length / 2)]!;
    const peak = Math.max(...phases.map((p) => p.peakMb));
    return [
      `### Embedded start-up and memory (\`${['node', ...nodeFlags, entry].join(' ')}\`, PGlite)`,
      '',
      `From spawning the process to the answer of its first request; the steps are the server's own marks ("service started" log line). `
        + `Cold start: ${coldRuns} runs on an existing folder (${products.toLocaleString('en-US')} products), first request GET /api/v1/products?limit=20 with a key. `
        + 'First start: an empty folder (database created, every migration applied), first request GET /api/v1/ping (401, no key exists yet).',
      '',
      '| start | first answer ms | CPU ms | modules ms | database open ms | migrations ms | app build ms | listen ms | request ms |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
      stepRow('first start, empty folder', empty),
      stepRow(`cold start, existing folder (median of ${coldRuns})`, medianRun),
      ...cold.map((r, i) => stepRow(`cold start, run ${i + 1}`, r)),
      '',
      `Cold start median: **${coldMs} ms** (target: under ${targets.coldMs} ms). `
        + (npmMs === undefined ? '`npm start` overhead not measured (a build was stale). ' : `\`npm start\` adds its build checks first (dashboard, server bundle): ${npmMs} ms (plus npm's own start), none of it in the server's figures. `),
      '',
      '| phase | peak RSS MB (VmHWM) | RSS MB | what it did |',
      '|---|---:|---:|---|',
      ...phases.map((p) => `| ${p.phase} | ${p.peakMb} | ${p.rssMb} | ${p.note} |`),
      '',
      `Peak RSS serving the workload: **${peak} MB** (target: under ${targets.peakRssMb} MB).`,
      '',
    ].join('\n');
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.main) console.log(await benchStartup());
