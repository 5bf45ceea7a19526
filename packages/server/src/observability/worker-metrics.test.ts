import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startTestApp, testWebhookSettings, type TestApp } from '../testing/app.ts';
import { testDbKind } from '../testing/db.ts';
import { createBrand, createKey } from '../testing/factories.ts';
import { serverRoot, urlWithSchema } from '../testing/processes.ts';
import { registerEndpoint, startReceiver, type Receiver } from '../testing/receiver.ts';

/**
 * A worker-only process (ROLES=worker: no API server) with METRICS_PORT: its metrics port is the
 * only thing it serves, and it shows the deliveries it sent. PostgreSQL only: the embedded
 * database runs both roles in one process.
 */

const sealingKey = randomBytes(32);
let t: TestApp | undefined;
let rx: Receiver | undefined;
let worker: ChildProcess | undefined;
let output = '';

before(async () => {
  if (testDbKind !== 'postgres') return;
  t = await startTestApp({ webhooks: { ...testWebhookSettings(), secretKey: sealingKey } });
  rx = await startReceiver();
});
after(async () => {
  if (worker && worker.exitCode === null) {
    worker.kill('SIGTERM');
    await new Promise((resolve) => worker!.once('exit', resolve));
  }
  await rx?.close();
  await t?.close();
});

describe('metrics of a worker-only process', () => {
  it('serves GET /metrics with the outcomes of the deliveries it sent', async (c) => {
    if (!t || !rx) {
      c.skip('ROLES=worker needs PostgreSQL: set TEST_DATABASE_URL');
      return;
    }
    const brand = await createBrand(t.db);
    const { key } = await createKey(t.db, brand.id, { mode: 'test' });
    const ep = await registerEndpoint(t, key, rx.url, ['transaction.succeeded']);
    rx.secret = ep.signingSecret;
    for (let i = 0; i < 2; i++) {
      assert.equal((await t.request({ method: 'POST', url: '/api/v1/webhooks/test', key, payload: { eventType: 'transaction.succeeded' } })).statusCode, 200);
    }

    worker = spawn(process.execPath, [join(serverRoot, 'src/main.ts')], {
      env: {
        ...process.env,
        ROLES: 'worker',
        DATABASE_URL: urlWithSchema(t.url!, t.searchPath!),
        WEBHOOK_SECRET_KEY: sealingKey.toString('base64'),
        WEBHOOK_ALLOW_LOOPBACK: 'true',
        METRICS_PORT: '0',
        METRICS_HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    worker.stdout!.on('data', (chunk: Buffer) => { output += chunk; });
    worker.stderr!.on('data', (chunk: Buffer) => { output += chunk; });
    const deadline = Date.now() + 60_000;
    let port = 0;
    while (!port) {
      assert.equal(worker.exitCode, null, `the worker exited: ${output}`);
      assert.ok(Date.now() < deadline, `the worker did not start: ${output}`);
      port = Number(/"metricsPort":(\d+)/.exec(output)?.[1] ?? 0);
      if (!port) await new Promise((r) => setTimeout(r, 50));
    }
    assert.doesNotMatch(output, /Server listening/, 'no API server in a worker-only process');

    const received = await rx.waitFor(2, 20_000);
    assert.ok(received.every((d) => d.verified));
    let text = '';
    // The counter moves when a delivery is sent; the queue depth is read from the database at each
    // scrape, so it reaches 0 once the attempts' records commit, a moment later.
    while (!/^webhook_deliveries_total\{outcome="succeeded"\} 2$/m.test(text) || !/^webhook_delivery_queue_depth 0$/m.test(text)) {
      assert.ok(Date.now() < deadline, `the worker's metrics never showed both deliveries sent and recorded:\n${text}`);
      text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.match(text, /^webhook_delivery_queue_depth 0$/m);
    assert.match(text, /^backlog_scrape_success 1$/m);
    assert.match(text, /^nodejs_eventloop_lag_seconds /m);
    assert.match(text, /^db_pool_max_connections 10$/m);
    // No API server: no request series at all.
    assert.doesNotMatch(text, /^http_request_duration_seconds_count/m);
  });
});
