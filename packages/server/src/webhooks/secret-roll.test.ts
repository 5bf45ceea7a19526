import assert from 'node:assert/strict';
import type { IncomingHttpHeaders } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { verifyWebhook } from '@creator-commerce/sdk';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { runCommonRouteTests } from '../testing/auth-checks.ts';
import { createBrand, createKey } from '../testing/factories.ts';
import { registerEndpoint, startReceiver, type Receiver } from '../testing/receiver.ts';

/**
 * Rolling a webhook signing secret (our addition): during the overlap a real receiver verifies
 * deliveries with the old secret (Standard Webhooks carries both signatures) or the new one; after
 * it, only the new one works. Verified with the SDK's verifyWebhook, one secret at a time (the
 * standardwebhooks and svix packages are not installed here).
 */

let t: TestApp;
const receivers: Receiver[] = [];
before(async () => {
  t = await startTestApp({
    worker: true,
    webhooks: { timeoutMs: 1500, claimLeaseMs: 10_000 },
    // Live endpoints need a public name; answer DNS from a table so no test asks a real resolver.
    lookup: async () => [{ address: '93.184.216.34', family: 4 }],
  });
});
after(async () => {
  await t?.close();
  await Promise.all(receivers.map((r) => r.close()));
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function setup() {
  const brand = await createBrand(t.db);
  const key = (await createKey(t.db, brand.id)).key;
  const rx = await startReceiver();
  receivers.push(rx);
  const ep = await registerEndpoint(t, key, rx.url, ['transaction.succeeded']);
  return { key, rx, ep };
}

const roll = (key: string, id: string, payload?: object) =>
  t.request({ method: 'POST', url: `/api/v1/webhooks/${id}/secret/roll`, key, ...(payload ? { payload } : {}) });

/** Sends a test event and returns the delivery the receiver got for it. */
async function deliver(key: string, rx: Receiver) {
  const n = rx.received.length + 1;
  const res = await t.request({ method: 'POST', url: '/api/v1/webhooks/test', key, payload: { eventType: 'transaction.succeeded' } });
  assert.equal(res.statusCode, 200, res.body);
  return (await rx.waitFor(n, 15_000))[n - 1];
}

/** What a Standard Webhooks receiver reads: the webhook-* headers only. */
const standardOnly = (headers: IncomingHttpHeaders) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => name !== 'x-service-signature')) as IncomingHttpHeaders;

describe('POST /webhooks/{id}/secret/roll', () => {
  it('signs with both secrets during the overlap, then with the new one only', async () => {
    const { key, rx, ep } = await setup();
    const old = ep.signingSecret;
    const before = await deliver(key, rx);
    await verifyWebhook(before.raw, before.headers, old);

    const res = await roll(key, ep.id, { overlapSeconds: 3 });
    assert.equal(res.statusCode, 200, res.body);
    const { signingSecret: fresh, previousSecretExpiresAt } = res.json().data;
    assert.match(fresh, /^whsec_/);
    assert.notEqual(fresh, old);
    const overlapEnds = Date.parse(previousSecretExpiresAt);
    assert.ok(overlapEnds > Date.now());
    assert.equal((await t.request({ method: 'GET', url: `/api/v1/webhooks/${ep.id}`, key })).json().data.previousSecretExpiresAt, previousSecretExpiresAt);

    const during = await deliver(key, rx);
    const signatures = String(during.headers['webhook-signature']).split(' ');
    assert.equal(signatures.length, 2, 'two v1 signatures during the overlap');
    assert.ok(signatures.every((s) => s.startsWith('v1,')));
    assert.ok(Date.now() < overlapEnds, 'this delivery was made during the overlap (raise overlapSeconds if the machine is this slow)');
    // A Standard Webhooks receiver still holding the old secret verifies; so does one with the new.
    await verifyWebhook(during.raw, standardOnly(during.headers), old);
    await verifyWebhook(during.raw, during.headers, fresh);
    await verifyWebhook(during.raw, during.headers, [fresh, old]);
    // X-Service-Signature has room for one signature: the new secret's, from the roll on.
    await assert.rejects(verifyWebhook(during.raw, during.headers, old), /X-Service-Signature/);

    await sleep(Math.max(0, overlapEnds - Date.now()) + 50);
    assert.equal((await t.request({ method: 'GET', url: `/api/v1/webhooks/${ep.id}`, key })).json().data.previousSecretExpiresAt, undefined);
    const afterwards = await deliver(key, rx);
    assert.equal(String(afterwards.headers['webhook-signature']).split(' ').length, 1);
    await verifyWebhook(afterwards.raw, afterwards.headers, fresh);
    await assert.rejects(verifyWebhook(afterwards.raw, standardOnly(afterwards.headers), old), /webhook-signature/);
  });

  it('stops the old secret at once with overlapSeconds 0, and defaults to a 24 hour overlap', async () => {
    const { key, rx, ep } = await setup();
    const byDefault = await roll(key, ep.id, {});
    assert.equal(byDefault.statusCode, 200, byDefault.body);
    const overlap = Date.parse(byDefault.json().data.previousSecretExpiresAt) - Date.now();
    assert.ok(overlap > 86_000_000 && overlap <= 86_400_000, `about 24 h, got ${overlap} ms`);

    const second = byDefault.json().data.signingSecret;
    const now = await roll(key, ep.id, { overlapSeconds: 0 });
    assert.equal(now.statusCode, 200, now.body);
    assert.equal(now.json().data.previousSecretExpiresAt, null);
    const d = await deliver(key, rx);
    assert.equal(String(d.headers['webhook-signature']).split(' ').length, 1);
    await verifyWebhook(d.raw, d.headers, now.json().data.signingSecret);
    await assert.rejects(verifyWebhook(d.raw, standardOnly(d.headers), second));
    await assert.rejects(verifyWebhook(d.raw, standardOnly(d.headers), rx.secret ?? ep.signingSecret));
  });

  it('accepts no body at all, and refuses an overlap outside 0 to 7 days', async () => {
    const { key, ep } = await setup();
    assert.equal((await roll(key, ep.id)).statusCode, 200);
    for (const overlapSeconds of [-1, 604_801, 1.5, '60']) {
      const res = await roll(key, ep.id, { overlapSeconds });
      assert.equal(res.statusCode, 400, `${overlapSeconds}: ${res.body}`);
      assert.equal(res.json().data.code, 'validation_failed');
      assert.match(res.json().message, /overlapSeconds/);
    }
    assert.equal((await roll(key, ep.id, { overlap: 5 })).statusCode, 400);
  });

  it('never logs or lists the secret', async () => {
    const { key, ep } = await setup();
    const fresh = (await roll(key, ep.id, { overlapSeconds: 60 })).json().data.signingSecret;
    const list = await t.request({ method: 'GET', url: '/api/v1/webhooks', key });
    const one = await t.request({ method: 'GET', url: `/api/v1/webhooks/${ep.id}`, key });
    for (const body of [list.body, one.body]) {
      assert.ok(!body.includes(fresh.slice(6)) && !body.includes(ep.signingSecret.slice(6)));
    }
  });
});

runCommonRouteTests('POST /webhooks/{id}/secret/roll', {
  method: 'POST',
  scope: 'webhooks:write',
  foreign: 404,
  modeScoped: true,
  async setup({ t: app, brandId, mode }) {
    const k = await createKey(app.db, brandId, { mode });
    const ep = await registerEndpoint(app, k.key, mode === 'live' ? 'https://hooks.example.com/in' : 'http://127.0.0.1:9/hook');
    return { url: `/api/v1/webhooks/${ep.id}/secret/roll`, body: { overlapSeconds: 60 }, marker: 'whsec_' };
  },
}, () => t);
