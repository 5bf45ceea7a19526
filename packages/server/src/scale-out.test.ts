import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { after, before, describe, it } from 'node:test';
import { setRateLimits } from './brands/repository.ts';
import { courseBody, cards } from './testing/checkout-fixtures.ts';
import { startTestApp, type TestApp } from './testing/app.ts';
import { testDbKind } from './testing/db.ts';
import { createBrandWithCatalog, createKey } from './testing/factories.ts';
import { freePort, runCli, startServerProcess, startWorkerProcess, urlWithSchema, type ServerProcess } from './testing/processes.ts';
import { startReceiver, type Receiver } from './testing/receiver.ts';

/**
 * The production layout on one machine (README, Running in production): two API processes and
 * two workers on one PostgreSQL and one Redis. Traffic goes through both APIs; nothing is
 * charged, granted or delivered twice, budgets are shared, and a revoked key stops working on
 * every process within KEY_CACHE_MS.
 */
const skip = testDbKind === 'pglite'
  ? 'needs PostgreSQL: several processes share one database only with DATABASE_URL'
  : spawnSync('redis-server', ['--version']).status !== 0 && !process.env.CI
    ? 'needs Redis: install redis-server (apt-get install -y redis-server)'
    : false;

let t: TestApp;
let redis: ChildProcess;
let rx: Receiver;
const apis: ServerProcess[] = [];
const workers: ChildProcess[] = [];


describe('two API processes and two workers on one PostgreSQL and Redis', { skip }, () => {
  let env: Record<string, string>;
  before(async () => {
    t = await startTestApp();
    const redisPort = await freePort();
    redis = spawn('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    env = {
      DATABASE_URL: urlWithSchema(t.url!, t.searchPath!),
      WEBHOOK_SECRET_KEY: t.deps.secrets.webhookKey.toString('base64'),
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      KEY_CACHE_MS: '500',
      RATE_LIMIT_TEST: '100000',
      WEBHOOK_RETRY_SCHEDULE: '100ms,200ms',
      WEBHOOK_ALLOW_LOOPBACK: 'true',
    };
    apis.push(...(await Promise.all([startServerProcess({ ...env, ROLES: 'api' }), startServerProcess({ ...env, ROLES: 'api' })])));
    workers.push(...(await Promise.all([startWorkerProcess(env), startWorkerProcess(env)])));
    rx = await startReceiver();
  });
  after(async () => {
    await Promise.all(apis.map((a) => a.stop()));
    await Promise.all(workers.map(async (w) => { if (w.exitCode === null) { w.kill('SIGTERM'); await once(w, 'close'); } }));
    redis?.kill('SIGKILL');
    await rx?.close();
    await t?.close();
  });

  const call = (api: ServerProcess, key: string, method: string, path: string, body?: unknown) =>
    fetch(`${api.url}${path}`, { method, headers: { 'x-service-api': key, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });

  it('charges, grants and delivers everything exactly once, whichever process takes it', async () => {
    const shop = await createBrandWithCatalog(t.db);
    const [a, b] = apis;
    const endpoint = await (await call(a, shop.testKey, 'POST', '/api/v1/webhooks', { url: rx.url, events: ['transaction.succeeded', 'member.joined'] })).json() as { data: { signingSecret: string } };
    rx.secret = endpoint.data.signingSecret;

    const links = 6;
    for (let i = 0; i < links; i++) {
      const made = await (await call(i % 2 ? b : a, shop.testKey, 'POST', '/api/v1/payment-links', courseBody(shop.ids, { form: { formData: { fullName: `Buyer ${i}`, email: `buyer${i}@example.com`, experienceLevel: 'Beginner' } } }))).json() as { data: { link: string } };
      const path = new URL(made.data.link).pathname;
      // The buyer double-clicks: the same form reaches both API processes at once.
      const pay = (api: ServerProcess) => fetch(`${api.url}${path}/pay`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ card: cards.ok }), redirect: 'manual' });
      const answers = await Promise.all([pay(a), pay(b)]);
      for (const res of answers) assert.equal(res.status, 303);
    }
    const hub = Object.values(shop.ids).find((id) => id.startsWith('hub_'))!;
    const records = Array.from({ length: 40 }, (_, i) => ({ fullName: `Member ${i}`, email: `member${i}@example.com` }));
    assert.equal((await call(b, shop.testKey, 'POST', `/api/v1/hubs/${hub}/members/import`, { records })).status, 202);

    const expected = links * 2 + records.length; // per link: transaction.succeeded + member.joined
    const got = await rx.waitFor(expected, 30_000);
    await new Promise((r) => setTimeout(r, 500)); // anything extra would arrive now
    assert.equal(rx.received.length, expected, 'no delivery twice');
    assert.ok(got.every((d) => d.verified));
    assert.equal(new Set(rx.received.map((d) => d.json.id)).size, expected, 'every event once');
    const [charges] = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM transactions WHERE brand_id = $1 AND status = 'succeeded'`, [shop.brand.id]);
    assert.equal(charges.n, links, 'one charge per link');
    const [members] = await t.db.query<{ n: number; people: number }>('SELECT count(*)::int AS n, count(DISTINCT lower(email))::int AS people FROM memberships WHERE brand_id = $1', [shop.brand.id]);
    assert.equal(members.n, links + records.length);
    assert.equal(members.people, members.n, 'no person granted twice');
  });

  it('shares one rate-limit budget between the API processes', async () => {
    const shop = await createBrandWithCatalog(t.db);
    await setRateLimits(t.db, shop.brand.id, { test: 4 });
    const key = (await createKey(t.db, shop.brand.id)).key;
    const [a, b] = apis;
    const codes = [];
    for (const api of [a, b, a, b, a]) codes.push((await call(api, key, 'GET', '/api/v1/products')).status);
    assert.deepEqual(codes, [200, 200, 200, 200, 429]);
  });

  it('refuses a key revoked through the CLI on every process within a second', async () => {
    const shop = await createBrandWithCatalog(t.db);
    const key = await createKey(t.db, shop.brand.id);
    const [a, b] = apis;
    assert.equal((await call(a, key.key, 'GET', '/api/v1/ping')).status, 200);
    assert.equal((await call(b, key.key, 'GET', '/api/v1/ping')).status, 200);
    const revoked = await runCli(['key', 'revoke', key.id], env);
    assert.equal(revoked.code, 0, revoked.stderr);
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal((await call(a, key.key, 'GET', '/api/v1/ping')).status, 401);
    assert.equal((await call(b, key.key, 'GET', '/api/v1/ping')).status, 401);
  });
});
