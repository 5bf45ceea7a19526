import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { createBrand, createKey } from '../testing/factories.ts';

/**
 * Receivers that misbehave cost one attempt's bounded time and memory: a connection reset is a
 * failed attempt with its reason, and a 10 MB answer is read only as far as the log needs
 * (1 KB kept, at most 64 KB read) and never held whole.
 */
let t: TestApp;
const servers: Server[] = [];
before(async () => { t = await startTestApp({ worker: true, webhooks: { timeoutMs: 3000, retryScheduleMs: [] } }); });
after(async () => {
  for (const s of servers) s.closeAllConnections?.();
  for (const s of servers) await new Promise((r) => s.close(r));
  await t.close();
});

async function receiver(handle: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handle);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`;
}

async function deliverOnce(url: string) {
  const brand = await createBrand(t.db);
  const key = (await createKey(t.db, brand.id)).key;
  await t.request({ method: 'POST', url: '/api/v1/webhooks', key, payload: { url, events: ['member.joined'] } });
  await t.request({ method: 'POST', url: '/api/v1/webhooks/test', key, payload: { eventType: 'member.joined' } });
  for (let i = 0; i < 300; i++) {
    const [d] = (await t.request({ method: 'GET', url: '/api/v1/webhooks/deliveries', key })).json().data.items;
    if (d && d.status !== 'pending') return (await t.request({ method: 'GET', url: `/api/v1/webhooks/deliveries/${d.id}`, key })).json().data;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the delivery never settled');
}

describe('receivers that misbehave', () => {
  it('records a reset connection as a failed attempt with its reason', async () => {
    const url = await receiver((req) => { req.socket.destroy(); });
    const d = await deliverOnce(url);
    assert.equal(d.status, 'failed');
    assert.equal(d.attemptLog.length, 1);
    assert.match(d.attemptLog[0].error, /socket hang up|ECONNRESET|reset/i);
    assert.equal(d.attemptLog[0].responseCode, undefined);
  });

  it('reads a 10 MB answer only as far as it needs, keeping the first 1 KB', async () => {
    let written = 0;
    const url = await receiver((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(64 * 1024, 'z');
      const pump = () => {
        while (written < 10_000_000) {
          written += chunk.length;
          if (!res.write(chunk)) { res.once('drain', pump); return; }
        }
        res.end();
      };
      res.on('error', () => {});
      pump();
    });
    const d = await deliverOnce(url);
    assert.equal(d.status, 'succeeded', 'a 2xx is a success, whatever it says');
    assert.equal(d.attemptLog[0].responseBody.length, 1024);
    assert.ok(d.attemptLog[0].durationMs < 3000, 'within the attempt\'s time bound');
    assert.ok(written < 10_000_000, `the sender hung up early (the receiver wrote ${written} bytes before the connection closed)`);
  });
});
