import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli, startServerProcess, type ServerProcess } from '../testing/processes.ts';

/**
 * An oversize body is answered 413 in the envelope, and a client still sending it reads that
 * answer: the server keeps reading (and discarding) the rest before it closes (lingering close).
 * The failure this guards against is a race between our close and the client's sending, seen
 * only with the server in another process, so it runs against `npm start` and many times.
 * (Embedded mode whatever the test run's database: the body limit does not depend on it.)
 */
let dir: string;
let server: ServerProcess;
let headers: Record<string, string>;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'body-limit-'));
  server = await startServerProcess({ DATA_DIR: dir, DATABASE_URL: '' });
  const seed = await runCli(['seed', '--demo'], { DATA_DIR: dir, DATABASE_URL: '' });
  assert.equal(seed.code, 0, seed.stderr);
  headers = { 'content-type': 'application/json', 'x-service-api': seed.json().key };
});
after(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

const body = Buffer.alloc(64_000_000, 'a');

async function expect413(res: Response, attempt: number) {
  assert.equal(res.status, 413, `attempt ${attempt}`);
  const json = (await res.json()) as any;
  assert.equal(json.status, 'error');
  assert.equal(json.data.code, 'payload_too_large');
  assert.equal(json.data.requestId, res.headers.get('x-request-id'));
}

describe('a body over the limit, sent with fetch', () => {
  it('gets the 413 envelope every time, not "fetch failed"', async () => {
    for (let i = 0; i < 20; i++) {
      await expect413(await fetch(`${server.url}/api/v1/webhooks`, { method: 'POST', headers, body }), i);
    }
  });

  it('also when the body comes without a length (chunked)', async () => {
    for (let i = 0; i < 5; i++) {
      const stream = new ReadableStream({
        start(controller) {
          for (let off = 0; off < body.length; off += 1_000_000) controller.enqueue(body.subarray(off, off + 1_000_000));
          controller.close();
        },
      });
      await expect413(await fetch(`${server.url}/api/v1/webhooks`, { method: 'POST', headers, body: stream, duplex: 'half' } as RequestInit), i);
    }
  });

  it('still serves the next request', async () => {
    const res = await fetch(`${server.url}/api/v1/products`, { headers });
    assert.equal(res.status, 200);
  });
});
