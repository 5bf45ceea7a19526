/**
 * The scaling benchmark's HTTP side (bench/scaling.ts): the real server in its own process, and
 * requests and load against it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import autocannon from 'autocannon';
import { freePort, serverRoot } from '../packages/server/src/testing/processes.ts';
import type { LoadResult } from './products.ts';

/** main.ts in its own process on a free port, quiet logs; resolves once it answers HTTP. */
export async function startApi(url: string, sealingKey: Buffer, extra: Record<string, string> = {}): Promise<{ base: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [`${serverRoot}src/main.ts`], {
    env: {
      ...process.env, DATABASE_URL: url, ROLES: 'api', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn',
      WEBHOOK_SECRET_KEY: sealingKey.toString('base64'), RATE_LIMIT_LIVE: '1000000', RATE_LIMIT_TEST: '1000000', RATE_LIMIT_AUTH_FAILURES: '1000000', ...extra,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}/api/v1`;
  for (const deadline = Date.now() + 180_000; ;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    if (await fetch(`${base}/products`).then(() => true, () => false)) break;
    if (Date.now() > deadline) { child.kill('SIGKILL'); throw new Error('server did not start'); }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { base, async stop() { if (child.exitCode === null) { child.kill('SIGTERM'); await once(child, 'exit'); } } };
}

async function getJson(url: string, key: string) {
  const res = await fetch(url, { headers: { 'x-service-api': key } });
  const body = await res.json() as { data: { items: unknown[]; nextCursor: string } };
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${JSON.stringify(body)}`);
  return body.data;
}

/** The list name inside a real cursor of this list, so a cursor we make for a deep row is one the API would issue. */
export async function listNameOf(url: string, key: string): Promise<string> {
  const page = await getJson(url, key);
  if (!page.nextCursor) throw new Error(`${url} has a single page`);
  return (JSON.parse(Buffer.from(page.nextCursor, 'base64url').toString('utf8')) as string[])[1];
}

/** Load spread over several keys (one brand each): autocannon cycles each connection through the list. */
export async function loadMany(name: string, base: string, path: string, keys: string[], seconds: number): Promise<LoadResult> {
  const result = await autocannon({
    url: base, connections: 50, duration: seconds,
    requests: keys.map((key) => ({ method: 'GET', path, headers: { 'x-service-api': key } })),
  });
  return { name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx + result.timeouts };
}
