import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { createLogger } from '../logger.ts';
import { runCommonRouteTests } from '../testing/auth-checks.ts';
import { createBrand, createKey } from '../testing/factories.ts';
import { registerEndpoint } from '../testing/receiver.ts';
import type { Mode } from '../auth/principal.ts';

let t: TestApp;
// DNS as a table: these names never reach a real resolver.
const dns: Record<string, string> = { 'hooks.example.com': '93.184.215.14', 'rebind.example.com': '127.0.0.1', 'intranet.example.com': '10.1.2.3' };
before(async () => {
  t = await startTestApp({ lookup: async (host) => (dns[host] ? [{ address: dns[host], family: 4 }] : Promise.reject(Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' }))) });
});
after(async () => { await t.close(); });

async function owner(mode: Mode = 'test') {
  const brand = await createBrand(t.db);
  const key = await createKey(t.db, brand.id, { mode });
  return { brandId: brand.id, key: key.key };
}

const urlFor = (mode: Mode) => (mode === 'live' ? 'https://hooks.example.com/in' : 'http://127.0.0.1:9/hook');

async function endpointIn(ctx: { t: TestApp; brandId: string; mode: Mode }) {
  const key = await createKey(ctx.t.db, ctx.brandId, { mode: ctx.mode });
  return registerEndpoint(ctx.t, key.key, urlFor(ctx.mode), ['member.joined']);
}

describe('webhook endpoints: shared auth checks', () => {
  runCommonRouteTests('GET /webhooks', {
    method: 'GET', scope: 'webhooks:write', foreign: 'hidden', modeScoped: true,
    async setup(ctx) { const ep = await endpointIn(ctx); return { url: '/api/v1/webhooks', marker: ep.id }; },
  }, () => t);
  runCommonRouteTests('POST /webhooks', {
    method: 'POST', scope: 'webhooks:write', foreign: 'none', modeScoped: true,
    async setup() { return { url: '/api/v1/webhooks', body: { url: 'http://localhost:9/x', events: ['member.joined'] } }; },
  }, () => t);
  runCommonRouteTests('GET /webhooks/{id}', {
    method: 'GET', scope: 'webhooks:write', foreign: 404, modeScoped: true,
    async setup(ctx) { const ep = await endpointIn(ctx); return { url: `/api/v1/webhooks/${ep.id}`, marker: ep.id }; },
  }, () => t);
  runCommonRouteTests('PATCH /webhooks/{id}', {
    method: 'PATCH', scope: 'webhooks:write', foreign: 404, modeScoped: true,
    async setup(ctx) { const ep = await endpointIn(ctx); return { url: `/api/v1/webhooks/${ep.id}`, body: { description: 'x' }, marker: ep.id }; },
  }, () => t);
  runCommonRouteTests('DELETE /webhooks/{id}', {
    method: 'DELETE', scope: 'webhooks:write', foreign: 404, modeScoped: true,
    async setup(ctx) { const ep = await endpointIn(ctx); return { url: `/api/v1/webhooks/${ep.id}`, marker: ep.id }; },
  }, () => t);
});

describe('POST /webhooks', () => {
  it('shows the signing secret once, in the creation response only', async () => {
    const { key } = await owner();
    const res = await t.request({ method: 'POST', url: '/api/v1/webhooks', key, payload: { url: 'http://localhost:4000/hook', events: ['transaction.succeeded', 'member.joined'], description: 'laptop' } });
    assert.equal(res.statusCode, 200, res.body);
    const ep = res.json().data;
    assert.match(ep.signingSecret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(Buffer.from(ep.signingSecret.slice(6), 'base64').length, 32);
    assert.equal(ep.status, 'active');
    assert.match(ep.id, /^we_/);
    assert.deepEqual(ep.events, ['transaction.succeeded', 'member.joined']);
    for (const req of [
      { method: 'GET' as const, url: `/api/v1/webhooks/${ep.id}` },
      { method: 'GET' as const, url: '/api/v1/webhooks' },
      { method: 'PATCH' as const, url: `/api/v1/webhooks/${ep.id}`, payload: { description: 'changed' } },
    ]) {
      const r = await t.request({ ...req, key });
      assert.equal(r.statusCode, 200);
      assert.ok(!r.body.includes(ep.signingSecret) && !r.body.includes('signingSecret'), `${req.method} ${req.url} hides the secret`);
    }
    const [row] = await t.db.query<{ secret_sealed: string }>('SELECT secret_sealed FROM webhook_endpoints WHERE id = $1', [ep.id]);
    assert.ok(!row.secret_sealed.includes(ep.signingSecret.slice(6)), 'stored sealed, not in clear');
  });

  it('refuses an empty, duplicated or unknown event list naming the bad value', async () => {
    const { key } = await owner();
    const post = (events: unknown) => t.request({ method: 'POST', url: '/api/v1/webhooks', key, payload: { url: 'http://localhost/x', events } });
    const empty = await post([]);
    assert.equal(empty.statusCode, 400);
    assert.equal(empty.json().data.code, 'validation_failed');
    assert.match(empty.json().message, /events/);
    const dup = await post(['member.joined', 'member.joined']);
    assert.equal(dup.statusCode, 400);
    assert.match(dup.json().message, /"member\.joined" is listed twice/);
    const unknown = await post(['member.joined', 'invoice.paid']);
    assert.equal(unknown.statusCode, 400);
    assert.match(unknown.json().message, /"invoice\.paid" is not an event type/);
    assert.equal(unknown.json().data.details[0].field, 'events[1]');
    const missing = await t.request({ method: 'POST', url: '/api/v1/webhooks', key, payload: { events: ['member.joined'] } });
    assert.equal(missing.statusCode, 400);
    assert.match(missing.json().message, /url/);
  });

  it('accepts http only for localhost, 127.0.0.1 and [::1] in test mode', async () => {
    const { key } = await owner('test');
    for (const url of ['http://localhost:3000/h', 'http://127.0.0.1:8080/h', 'http://[::1]:8080/h', 'https://hooks.example.com/h']) {
      const res = await t.request({ method: 'POST', url: '/api/v1/webhooks', key, payload: { url, events: ['member.joined'] } });
      assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
    }
    for (const url of ['http://hooks.example.com/h', 'http://10.0.0.1/h', 'https://10.0.0.1/h', 'https://169.254.169.254/latest', 'ftp://localhost/x', 'not a url']) {
      const res = await t.request({ method: 'POST', url: '/api/v1/webhooks', key, payload: { url, events: ['member.joined'] } });
      assert.equal(res.statusCode, 400, url);
      assert.match(res.json().message, /url/);
    }
  });

  it('refuses private, loopback, link-local and metadata targets in live mode (no SSRF)', async () => {
    const { key } = await owner('live');
    const refused = [
      'http://hooks.example.com/h', 'http://localhost:3000/h', 'https://127.0.0.1/', 'https://10.0.0.1/', 'https://172.16.5.4/',
      'https://192.168.1.1/', 'https://169.254.169.254/', 'https://localhost/', 'https://[::1]/', 'https://[fd00::1]/',
      'https://[::ffff:127.0.0.1]/', 'https://2130706433/', 'https://0x7f.1/', 'https://100.100.100.200/',
      'https://metadata.google.internal/', 'https://rebind.example.com/', 'https://intranet.example.com/',
    ];
    for (const url of refused) {
      const res = await t.request({ method: 'POST', url: '/api/v1/webhooks', key, payload: { url, events: ['member.joined'] } });
      assert.equal(res.statusCode, 400, `${url} must be refused: ${res.body}`);
      assert.equal(res.json().data.code, 'validation_failed');
      assert.match(res.json().message, /url/);
    }
    const okRes = await t.request({ method: 'POST', url: '/api/v1/webhooks', key, payload: { url: 'https://hooks.example.com/in', events: ['member.joined'] } });
    assert.equal(okRes.statusCode, 200, okRes.body);
    // A name DNS does not know yet is accepted; delivery checks it again.
    const later = await t.request({ method: 'POST', url: '/api/v1/webhooks', key, payload: { url: 'https://not-yet.example.com/in', events: ['member.joined'] } });
    assert.equal(later.statusCode, 200, later.body);
  });
});

describe('GET /webhooks, PATCH and DELETE /webhooks/{id}', () => {
  it('lists endpoints newest first with cursor paging', async () => {
    const { key } = await owner();
    const ids = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await registerEndpoint(t, key, `http://localhost:900${i}/h`, ['member.joined'])).id);
      // Each in its own millisecond: two made in one are ordered by id, not by which came first.
      await new Promise((r) => setTimeout(r, 2));
    }
    const first = (await t.request({ method: 'GET', url: '/api/v1/webhooks?limit=2', key })).json().data;
    assert.deepEqual(first.items.map((e: any) => e.id), [ids[2], ids[1]]);
    assert.equal(first.hasMore, true);
    const second = (await t.request({ method: 'GET', url: `/api/v1/webhooks?limit=2&cursor=${first.nextCursor}`, key })).json().data;
    assert.deepEqual(second.items.map((e: any) => e.id), [ids[0]]);
    assert.equal(second.hasMore, false);
  });

  it('updates url, events, status and description, checking each like creation', async () => {
    const { key } = await owner('live');
    const ep = await registerEndpoint(t, key, 'https://hooks.example.com/a', ['member.joined']);
    const res = await t.request({ method: 'PATCH', url: `/api/v1/webhooks/${ep.id}`, key, payload: { events: ['member.removed', 'payout.settled'], status: 'disabled', description: 'paused' } });
    assert.equal(res.statusCode, 200, res.body);
    const updated = res.json().data;
    assert.deepEqual(updated.events, ['member.removed', 'payout.settled']);
    assert.equal(updated.status, 'disabled');
    assert.equal(updated.description, 'paused');
    assert.equal(updated.url, 'https://hooks.example.com/a');
    const ssrf = await t.request({ method: 'PATCH', url: `/api/v1/webhooks/${ep.id}`, key, payload: { url: 'https://169.254.169.254/' } });
    assert.equal(ssrf.statusCode, 400);
    const badStatus = await t.request({ method: 'PATCH', url: `/api/v1/webhooks/${ep.id}`, key, payload: { status: 'paused' } });
    assert.equal(badStatus.statusCode, 400);
    assert.match(badStatus.json().message, /status/);
    const badEvents = await t.request({ method: 'PATCH', url: `/api/v1/webhooks/${ep.id}`, key, payload: { events: [] } });
    assert.equal(badEvents.statusCode, 400);
    const back = await t.request({ method: 'PATCH', url: `/api/v1/webhooks/${ep.id}`, key, payload: { status: 'active' } });
    assert.equal(back.json().data.status, 'active');
  });

  it('deletes an endpoint: id and deleted, then 404', async () => {
    const { key } = await owner();
    const ep = await registerEndpoint(t, key, 'http://localhost:9/h', ['member.joined']);
    const res = await t.request({ method: 'DELETE', url: `/api/v1/webhooks/${ep.id}`, key });
    assert.deepEqual(res.json().data, { id: ep.id, deleted: true });
    assert.equal((await t.request({ method: 'GET', url: `/api/v1/webhooks/${ep.id}`, key })).statusCode, 404);
    assert.equal((await t.request({ method: 'DELETE', url: `/api/v1/webhooks/${ep.id}`, key })).statusCode, 404);
  });
});

describe('secrets in logs', () => {
  it('never writes the signing secret to the log, even at trace level', async () => {
    const { Writable } = await import('node:stream');
    const { buildApp } = await import('../app.ts');
    let logged = '';
    const sink = new Writable({ write(chunk, _enc, cb) { logged += chunk; cb(); } });
    const app = await buildApp({ ...t.deps, log: createLogger('trace', sink), config: { ...t.config, logLevel: 'trace' } });
    try {
      const { key } = await owner();
      const res = await app.inject({ method: 'POST', url: '/api/v1/webhooks', headers: { 'x-service-api': key }, payload: { url: 'http://localhost:9/h', events: ['member.joined'] } });
      const secret = res.json().data.signingSecret as string;
      assert.match(secret, /^whsec_/);
      assert.ok(logged.length > 0, 'something was logged');
      assert.ok(!logged.includes(secret) && !logged.includes(secret.slice(6)), 'the secret is not in the log');
      app.log.info({ endpoint: res.json().data }, 'an endpoint logged by mistake');
      assert.ok(!logged.includes(secret.slice(6)), 'redacted even when someone logs the object');
    } finally {
      await app.close();
    }
  });
});
