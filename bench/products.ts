import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';

export interface LoadResult {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

/** Connections the load holds open: issue 14's targets are stated at 50. */
const connections = 50;

export async function load(name: string, url: string, headers: Record<string, string> = {}, seconds = 10): Promise<LoadResult> {
  const result = await autocannon({ url, headers, connections, duration: seconds });
  const errors = result.errors + result.non2xx + result.timeouts;
  return { name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors };
}

/** Runs each load `rounds` times, in turns; per load: mean req/s, median p50, worst p99, errors summed. */
export async function inTurns(loads: (() => Promise<LoadResult>)[], rounds: number): Promise<LoadResult[]> {
  const runs: LoadResult[][] = loads.map(() => []);
  for (let r = 0; r < rounds; r++) for (const [i, run] of loads.entries()) runs[i].push(await run());
  return runs.map((rs) => ({
    name: rs[0].name,
    rps: rs.reduce((sum, x) => sum + x.rps, 0) / rs.length,
    p50: rs.map((x) => x.p50).sort((a, b) => a - b)[Math.floor(rs.length / 2)],
    p99: Math.max(...rs.map((x) => x.p99)),
    errors: rs.reduce((sum, x) => sum + x.errors, 0),
  }));
}

/**
 * GET /api/v1/products?limit=20 with a key on a brand with 10,000 products, against both ceilings,
 * served from the catalog cache (the default) and by an app with the cache off (CATALOG_CACHE_MB=0).
 */
export async function benchProducts(databaseUrl?: string): Promise<string> {
  const server = spawn(process.execPath, [new URL('./products-server.ts', import.meta.url).pathname], {
    env: { ...process.env, BENCH_DATABASE_URL: databaseUrl ?? '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = await once(createInterface({ input: server.stdout! }), 'line');
  const info = JSON.parse(line) as { appPort: number; uncachedPort: number; barePort: number; key: string; kind: string; bytes: number };
  try {
    const authed = `http://127.0.0.1:${info.appPort}/api/v1/products?limit=20`;
    const frameworkUrl = `http://127.0.0.1:${info.barePort}/framework`;
    await load('warm-up', authed, { 'x-service-api': info.key }, 3);
    await load('warm-up', frameworkUrl, {}, 3);
    // The two a ratio is taken of run in turns (5 s each, twice), so a drift in the machine's
    // load over the run weighs on both alike instead of on whichever ran second.
    const [framework, api] = await inTurns([
      () => load('framework ceiling (bare route, bytes from memory)', frameworkUrl, {}, 5),
      () => load('GET /api/v1/products?limit=20 (key, envelope, catalog cache)', authed, { 'x-service-api': info.key }, 5),
    ], 2);
    const database = await load('database ceiling (bare route, same page query)', `http://127.0.0.1:${info.barePort}/database`);
    const uncached = await load('the same with CATALOG_CACHE_MB=0 (cache off)',
      `http://127.0.0.1:${info.uncachedPort}/api/v1/products?limit=20`, { 'x-service-api': info.key });
    const rows = [framework, database, api, uncached].map((r) =>
      `| ${r.name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.errors} |`);
    return [
      `### Products list on ${info.kind} (10,000 products, ${info.bytes} bytes a page, ${connections} connections; 10 s each, the framework ceiling and the API in turns of 5 s)`,
      '',
      '| target | req/s | p50 ms | p99 ms | errors |',
      '|---|---:|---:|---:|---:|',
      ...rows,
      '',
      `API / framework ceiling: **${((api.rps / framework.rps) * 100).toFixed(0)}%** with the catalog cache, p99 ${api.p99} ms `
        + `(targets: at least 40% and p99 under 20 ms); ${((uncached.rps / framework.rps) * 100).toFixed(0)}% with it off. `
        + `Cache off / database ceiling: ${((uncached.rps / database.rps) * 100).toFixed(0)}% (target on PostgreSQL: at least 80%).`,
      '',
    ].join('\n');
  } finally {
    server.kill('SIGTERM');
    await once(server, 'close');
  }
}
