import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { createBrand, createKey } from '../testing/factories.ts';
import { startReceiver } from '../testing/receiver.ts';
import { startWorker } from '../worker/loop.ts';
import { workSources } from '../work-sources.ts';

/**
 * Loopback receivers are a setting, not a test-mode privilege: a server's loopback is other
 * services' too, so with DATABASE_URL http://127.0.0.1 endpoints need WEBHOOK_ALLOW_LOOPBACK=true.
 */
let t: TestApp;
before(async () => { t = await startTestApp(); });
after(async () => { await t.close(); });

describe('WEBHOOK_ALLOW_LOOPBACK', () => {
  it('is on by default in embedded mode only, and takes true or false', () => {
    assert.equal(loadConfig({}).webhooks.allowLoopback, true);
    assert.equal(loadConfig({ DATABASE_URL: 'postgres://x@127.0.0.1/db' }).webhooks.allowLoopback, false);
    assert.equal(loadConfig({ DATABASE_URL: 'postgres://x@127.0.0.1/db', WEBHOOK_ALLOW_LOOPBACK: 'true' }).webhooks.allowLoopback, true);
    assert.equal(loadConfig({ WEBHOOK_ALLOW_LOOPBACK: 'false' }).webhooks.allowLoopback, false);
    assert.throws(() => loadConfig({ WEBHOOK_ALLOW_LOOPBACK: 'yes' }), /WEBHOOK_ALLOW_LOOPBACK must be true or false/);
  });

  it('refuses a loopback endpoint on a server without the setting, naming it', async () => {
    const app = await buildApp({ ...t.deps, config: { ...t.config, webhooks: { ...t.config.webhooks, allowLoopback: false } } });
    try {
      const brand = await createBrand(t.db);
      const key = (await createKey(t.db, brand.id)).key;
      for (const url of ['http://127.0.0.1:9/x', 'https://localhost/x', 'http://[::1]:8080/']) {
        const res = await app.inject({ method: 'POST', url: '/api/v1/webhooks', headers: { 'x-service-api': key }, payload: { url, events: ['member.joined'] } });
        assert.equal(res.statusCode, 400, url);
        assert.match(res.json().message, /WEBHOOK_ALLOW_LOOPBACK/);
      }
    } finally {
      await app.close();
    }
  });

  it('does not deliver to a loopback endpoint once the setting is off, and shows nothing it answered', async () => {
    const rx = await startReceiver({ respond: () => ({ status: 200, body: 'secret internal page' }) });
    const brand = await createBrand(t.db);
    const key = (await createKey(t.db, brand.id)).key;
    // Registered while allowed (a developer's setting), then the server runs without it.
    const ep = (await t.request({ method: 'POST', url: '/api/v1/webhooks', key, payload: { url: rx.url, events: ['member.joined'] } })).json().data;
    const strict = { ...t.deps, config: { ...t.config, webhooks: { ...t.config.webhooks, allowLoopback: false, retryScheduleMs: [] } } };
    const worker = await startWorker(t.db, workSources(strict), t.deps.log, 25);
    try {
      await t.request({ method: 'POST', url: '/api/v1/webhooks/test', key, payload: { eventType: 'member.joined', endpointID: ep.id } });
      let detail;
      for (let i = 0; i < 200; i++) {
        const [d] = (await t.request({ method: 'GET', url: '/api/v1/webhooks/deliveries', key })).json().data.items;
        if (d?.status === 'failed') { detail = (await t.request({ method: 'GET', url: `/api/v1/webhooks/deliveries/${d.id}`, key })).json().data; break; }
        await new Promise((r) => setTimeout(r, 25));
      }
      assert.ok(detail, 'the delivery failed');
      assert.match(detail.attemptLog[0].error, /refused/);
      assert.equal(detail.attemptLog[0].responseBody, undefined);
      assert.equal(rx.received.length, 0, 'nothing reached the loopback receiver');
    } finally {
      await worker.stop();
      await rx.close();
    }
  });
});
