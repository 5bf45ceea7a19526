import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../app.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { createBrand, createKey } from '../testing/factories.ts';

let t: TestApp;
before(async () => { t = await startTestApp(); });
after(async () => { await t.close(); });

describe('a slow upload', () => {
  it('gets 408 at REQUEST_TIMEOUT and its connection closed', async () => {
    const app = await buildApp({ ...t.deps, config: { ...t.config, requestTimeoutMs: 1000 } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as { port: number }).port;
    const key = (await createKey(t.db, (await createBrand(t.db)).id)).key;
    try {
      const started = performance.now();
      const socket = connect(port, '127.0.0.1');
      let answer = '';
      socket.on('data', (d) => { answer += d; });
      const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(performance.now() - started)));
      socket.on('error', () => {});
      await new Promise((r) => socket.once('connect', r));
      socket.write(`POST /api/v1/products HTTP/1.1\r\nHost: x\r\nx-service-api: ${key}\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"name":`);
      // A byte every 200 ms: the body would take 20 s to arrive.
      const drip = setInterval(() => { if (!socket.destroyed) socket.write(' '); }, 200);
      const elapsed = await closed;
      clearInterval(drip);
      assert.match(answer, /^HTTP\/1\.1 408 /, answer);
      assert.match(answer, /connection: close/i);
      const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
      assert.equal(body.status, 'error');
      assert.match(body.message, /took longer than 1 s to arrive/);
      assert.ok(elapsed < 3000, `the server closed the connection after ${Math.round(elapsed)} ms`);
    } finally {
      app.server.closeAllConnections();
      await app.close();
    }
  });
});
