import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { request } from 'node:http';
import { loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { inTurns, load } from './products.ts';

/** Time to the first byte of one GET, in ms (the response's headers arriving). */
function firstByte(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(url, (res) => {
      res.once('data', () => {
        const ms = performance.now() - started;
        res.resume();
        res.on('end', () => resolve(ms));
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/**
 * Issue 24's speed targets: a product page at 50 connections against the framework's own rate for
 * the same bytes (the product list's method: bench/products.ts, in turns), and the first byte of
 * the web checkout (rendered on every request) one buyer at a time, p99.
 */
export async function benchStorefront(databaseUrl?: string): Promise<string> {
  const server = spawn(process.execPath, [new URL('./storefront-server.ts', import.meta.url).pathname], {
    env: { ...process.env, BENCH_DATABASE_URL: databaseUrl ?? '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = await once(createInterface({ input: server.stdout! }), 'line');
  const info = JSON.parse(line) as { appPort: number; barePort: number; productPath: string; checkoutPath: string; bookingPath: string; kind: string; bytes: number };
  try {
    const productUrl = `http://127.0.0.1:${info.appPort}${info.productPath}`;
    const frameworkUrl = `http://127.0.0.1:${info.barePort}/framework`;
    const checkoutUrl = `http://127.0.0.1:${info.appPort}${info.checkoutPath}`;
    await load('warm-up', productUrl, {}, 3);
    await load('warm-up', frameworkUrl, {}, 3);
    const [framework, page] = await inTurns([
      () => load('framework ceiling (bare route, the page\'s bytes from memory)', frameworkUrl, {}, 5),
      () => load(`GET /s/{slug}/p/{id} (product page, catalog cache)`, productUrl, {}, 5),
    ], 2);
    const checkoutLoad = await load('GET /buy/{brand}/{link} (web checkout, 50 connections)', checkoutUrl, {}, 5);
    const load1 = loadavg()[0];
    const firstBytes = async (url: string) => {
      for (let i = 0; i < 50; i++) await firstByte(url); // warm-up
      const times: number[] = [];
      for (let i = 0; i < 1000; i++) times.push(await firstByte(url));
      return times.sort((a, b) => a - b);
    };
    const times = await firstBytes(checkoutUrl);
    const slotTimes = await firstBytes(`http://127.0.0.1:${info.appPort}${info.bookingPath}`);
    const rows = [framework, page, checkoutLoad].map((r) => `| ${r.name} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.errors} |`);
    return [
      `### Storefront on ${info.kind} (a product page of ${info.bytes} bytes, 50 connections; the framework ceiling and the page in turns of 5 s, twice)`,
      '',
      '| target | req/s | p50 ms | p99 ms | errors |',
      '|---|---:|---:|---:|---:|',
      ...rows,
      '',
      `Product page / framework ceiling: **${((page.rps / framework.rps) * 100).toFixed(0)}%** (target: at least 50%). `
        + `Web checkout first byte, one buyer at a time, 1,000 requests: p50 ${percentile(times, 50).toFixed(1)} ms, `
        + `**p99 ${percentile(times, 99).toFixed(1)} ms** (target: under 50 ms); the web checkout of a bookable call with its slot picker: `
        + `p50 ${percentile(slotTimes, 50).toFixed(1)} ms, **p99 ${percentile(slotTimes, 99).toFixed(1)} ms**. Load average (1 min) when measured: ${load1.toFixed(2)}.`,
      '',
    ].join('\n');
  } finally {
    server.kill('SIGTERM');
    await once(server, 'close');
  }
}
