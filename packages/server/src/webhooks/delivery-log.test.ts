import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { createLogger } from '../logger.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { createBrand, createKey } from '../testing/factories.ts';
import { registerEndpoint, startReceiver } from '../testing/receiver.ts';
import { startWorker, type Worker } from '../worker/loop.ts';
import { workSources } from '../work-sources.ts';

/** Every delivery attempt leaves one log line (issue 27, item 3): a receiver's 503 and its retry are on record. */
let t: TestApp;
let worker: Worker;
const lines: Record<string, unknown>[] = [];
before(async () => {
  t = await startTestApp({ webhooks: { timeoutMs: 1500, claimLeaseMs: 10_000, retryScheduleMs: [200, 60_000] } });
  const stream = new PassThrough();
  stream.on('data', (c: Buffer) => { for (const l of c.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l)); });
  const log = createLogger('info', stream);
  worker = await startWorker(t.db, workSources({ ...t.deps, log }), log, 25);
});
after(async () => {
  await worker.stop();
  await t.close();
});

describe('webhook delivery log', () => {
  it('logs each attempt with its endpoint, event type, status, duration and next retry', async () => {
    const brand = await createBrand(t.db);
    const key = (await createKey(t.db, brand.id)).key;
    const rx = await startReceiver({ respond: (n) => (n === 1 ? { status: 503 } : { status: 200 }) });
    try {
      const ep = await registerEndpoint(t, key, rx.url, ['transaction.succeeded']);
      rx.secret = ep.signingSecret;
      await t.request({ method: 'POST', url: '/api/v1/webhooks/test', key, payload: { eventType: 'transaction.succeeded' } });
      await rx.waitFor(2);
      const attempts = () => lines.filter((l) => l.msg === 'webhook delivery attempt' && l.endpoint === ep.id);
      for (let i = 0; i < 100 && attempts().length < 2; i++) await new Promise((r) => setTimeout(r, 20));
      const [failed, retried] = attempts();
      assert.ok(failed && retried, JSON.stringify(lines.slice(-5)));
      assert.deepEqual({ ...failed, durationMs: 0 }, { ...failed, eventType: 'transaction.succeeded', attempt: 1, responseCode: 503, outcome: 'pending', nextRetryInSeconds: 0, durationMs: 0 });
      assert.equal(typeof failed.durationMs, 'number');
      assert.equal(retried.responseCode, 200);
      assert.equal(retried.outcome, 'succeeded');
      assert.equal(retried.nextRetryInSeconds, null);
      assert.ok(!JSON.stringify(lines).includes(ep.signingSecret), 'no secret in the log');
    } finally {
      await rx.close();
    }
  });
});
