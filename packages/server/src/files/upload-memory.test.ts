import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli, startServerProcess, urlWithSchema, type ServerProcess } from '../testing/processes.ts';
import { startTestS3, type TestS3 } from '../testing/s3.ts';
import { openTestDb, testDbKind, type TestDb } from '../testing/db.ts';
import { createBrand, createKey } from '../testing/factories.ts';

/**
 * A 500 MB upload to `npm start` in its own process, to the local folder and to S3 (s3rver),
 * while the server's resident memory is read from /proc every 50 ms. On PostgreSQL the server
 * must stay under 300 MB all along, which it could not if the upload were held in memory. In
 * embedded mode the database itself (PGlite, several hundred MB) lives in the server's process,
 * so there the upload may add at most 100 MB to what the server held before it. Prints what it
 * measured.
 */
const size = 500 * 1024 * 1024;
const limitBytes = 300 * 1024 * 1024;
const growthLimitBytes = 100 * 1024 * 1024;
const skip = process.platform !== 'linux' ? 'reads the server\'s memory from /proc (Linux only)' : false;

function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}

async function uploadWhileMeasuring(server: ServerProcess, key: string) {
  const headers = { 'content-type': 'application/json', 'x-service-api': key };
  const created = await fetch(`${server.url}/api/v1/products`, { method: 'POST', headers, body: JSON.stringify({
    type: 'course', title: 'Full course recording',
    items: [{ ref: 'video', type: 'video', title: 'Everything, in one file' }],
    tiers: [{ name: 'Standard', price: { amount: 40, currency: 'USD' }, itemIDs: ['video'] }],
  }) });
  assert.equal(created.status, 200, await created.clone().text());
  const product = ((await created.json()) as any).data;
  const pid = server.child.pid!;
  const baseline = rssOf(pid);
  let peak = baseline;
  const sampler = setInterval(() => { peak = Math.max(peak, rssOf(pid)); }, 50);
  const chunk = Buffer.alloc(1024 * 1024, 0x5a);
  let sent = 0;
  const body = new ReadableStream({
    pull(controller) {
      if (sent >= size) return controller.close();
      controller.enqueue(new Uint8Array(chunk));
      sent += chunk.length;
    },
  });
  const started = Date.now();
  const res = await fetch(`${server.url}/api/v1/products/${product.id}/items/${product.items[0].id}/file?filename=course.mp4`, {
    method: 'PUT', headers: { 'content-type': 'video/mp4', 'x-service-api': key }, body, duplex: 'half',
  } as RequestInit);
  clearInterval(sampler);
  peak = Math.max(peak, rssOf(pid));
  const answer = (await res.json()) as any;
  if (res.status !== 200) await new Promise((r) => setTimeout(r, 1000)); // for the server's log of it
  assert.equal(res.status, 200, `${JSON.stringify(answer)}\n${server.output().split("\"PUT\"").pop()!.slice(0, 3000)}`);
  assert.equal(answer.data.content.size, size);
  return { baseline, peak, seconds: (Date.now() - started) / 1000, product };
}

const mb = (n: number) => `${Math.round(n / 1024 / 1024)} MB`;

describe('a 500 MB upload', { skip }, () => {
  let dir: string;
  let s3: TestS3;
  let pg: TestDb | undefined;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'upload-memory-'));
    s3 = await startTestS3();
    if (testDbKind === 'postgres') pg = await openTestDb();
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
    await s3?.stop();
    await pg?.close();
  });

  for (const target of ['local', 's3'] as const) {
    it(`streams to the ${target === 'local' ? 'local folder' : 'S3 store'} with the server's RSS under 300 MB`, async () => {
      const data = join(dir, target);
      const env = {
        DATA_DIR: data, DATABASE_URL: pg ? urlWithSchema(pg.url!, pg.searchPath!) : '',
        ...(target === 's3' ? { S3_BUCKET: s3.settings.bucket, S3_ENDPOINT: s3.settings.endpoint, S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER', S3_PREFIX: 'memory/' } : {}),
      };
      const server = await startServerProcess(env);
      try {
        let key: string;
        if (pg) {
          key = (await createKey(pg.db, (await createBrand(pg.db)).id)).key;
        } else {
          const seed = await runCli(['seed', '--demo'], { DATA_DIR: data, DATABASE_URL: '' });
          assert.equal(seed.code, 0, seed.stderr);
          key = seed.json().key;
        }
        const { baseline, peak, seconds } = await uploadWhileMeasuring(server, key);
        console.log(`# ${target} on ${testDbKind}: ${mb(size)} in ${seconds.toFixed(1)} s; server RSS ${mb(baseline)} before, ${mb(peak)} at most`);
        if (pg) assert.ok(peak < limitBytes, `peak RSS ${mb(peak)} is over 300 MB`);
        else assert.ok(peak - baseline < growthLimitBytes, `the upload added ${mb(peak - baseline)} to the server's RSS`);
      } finally {
        await server.stop();
      }
    });
  }
});
