import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { buildApp } from '../app.ts';
import { setRateLimits } from '../testing/factories.ts';
import { courseBody } from '../testing/checkout-fixtures.ts';
import type { App } from './app-type.ts';
import { createLogger } from '../logger.ts';
import { startTestApp, testDeps, type TestApp } from '../testing/app.ts';
import { createBrand, createBrandWithCatalog, createKey } from '../testing/factories.ts';
import { freePort } from '../testing/processes.ts';
import { connectRateLimitRedis } from './rate-limit.ts';

let t: TestApp;
before(async () => { t = await startTestApp(); });
after(async () => { await t.close(); });

const apps: App[] = [];
after(async () => { for (const a of apps) await a.close(); });

/** An app on the test database with small budgets. */
async function limitedApp(limits: { live?: number; test?: number; authFailuresPerMinute?: number }, redis?: Redis, log = createLogger('silent')) {
  const app = await buildApp({ ...t.deps, log, redis, config: { ...t.config, rateLimits: { live: 100, test: 25, authFailuresPerMinute: 30, registrationsPerHour: 30, ...limits } } });
  await app.ready();
  apps.push(app);
  return app;
}

const get = (app: App, key: string, url = '/api/v1/products') => app.inject({ method: 'GET', url, headers: { 'x-service-api': key } });

describe('rate limits', () => {
  it('counts each key\'s requests a second, says so in RateLimit headers, and answers 429 in the envelope past the budget', async () => {
    const app = await limitedApp({ test: 5 });
    const brand = await createBrand(t.db);
    const key = (await createKey(t.db, brand.id)).key;
    // A route's schemas compile on its first request (http/compile-on-use.ts): one request with
    // another key first, so the counted ones fall within one second on a busy machine too.
    await get(app, (await createKey(t.db, brand.id)).key);
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await get(app, key));
    assert.deepEqual(answers.slice(0, 5).map((a) => a.statusCode), [200, 200, 200, 200, 200]);
    assert.equal(answers[0].headers['ratelimit-limit'], '5');
    assert.deepEqual(answers.slice(0, 5).map((a) => a.headers['ratelimit-remaining']), ['4', '3', '2', '1', '0']);
    assert.ok(Number(answers[0].headers['ratelimit-reset']) <= 1);
    const refused = answers[5];
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.json().status, 'error');
    assert.equal(refused.json().data.code, 'rate_limited');
    assert.match(refused.json().message, /5 requests a second/);
    assert.ok(Number(refused.headers['retry-after']) >= 1);
    assert.equal(refused.headers['ratelimit-remaining'], '0');
    // Another key of the same brand has its own budget.
    assert.equal((await get(app, (await createKey(t.db, brand.id)).key)).statusCode, 200);
  });

  it('puts the headers on errors of authenticated requests too', async () => {
    const app = await limitedApp({ test: 50 });
    const brand = await createBrand(t.db);
    const key = (await createKey(t.db, brand.id)).key;
    const missing = await get(app, key, '/api/v1/products/prod_missing');
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.headers['ratelimit-limit'], '50');
    const invalid = await get(app, key, '/api/v1/products?limit=0');
    assert.equal(invalid.statusCode, 400);
    assert.equal(invalid.headers['ratelimit-limit'], '50');
  });

  it('gives live keys their own budget, and a brand its own through the CLI\'s setting', async () => {
    const app = await limitedApp({ live: 3, test: 2 });
    const brand = await createBrand(t.db);
    const live = (await createKey(t.db, brand.id, { mode: 'live' })).key;
    assert.equal((await get(app, live)).headers['ratelimit-limit'], '3');
    const roomy = await createBrand(t.db);
    await setRateLimits(t.db, roomy.id, { test: 40 });
    assert.equal((await get(app, (await createKey(t.db, roomy.id)).key)).headers['ratelimit-limit'], '40');
  });

  it('gives payment links a smaller budget of their own', async () => {
    const app = await limitedApp({ test: 10 });
    const shop = await createBrandWithCatalog(t.db);
    const post = (key = shop.testKey) => app.inject({ method: 'POST', url: '/api/v1/payment-links', headers: { 'x-service-api': key }, payload: courseBody(shop.ids) });
    // The route's schemas compile on its first request: that one with another key of the brand.
    assert.equal((await post((await createKey(t.db, shop.brand.id)).key)).statusCode, 200);
    const answers = [await post(), await post(), await post()];
    assert.deepEqual(answers.map((a) => a.statusCode), [200, 200, 429]);
    assert.equal(answers[0].headers['ratelimit-limit'], '2');
    assert.match(answers[2].json().message, /payment-link requests/);
    assert.equal((await get(app, shop.testKey)).statusCode, 200, 'the key\'s other requests are not held up');
  });

  it('answers 429 to an address that keeps failing authentication, while a valid key still works', async () => {
    const app = await limitedApp({ authFailuresPerMinute: 5 });
    const brand = await createBrand(t.db);
    const key = (await createKey(t.db, brand.id)).key;
    const bad = [];
    for (let i = 0; i < 7; i++) bad.push((await get(app, `svc_test_${'x'.repeat(32)}`)).statusCode);
    assert.deepEqual(bad, [401, 401, 401, 401, 401, 429, 429]);
    assert.equal((await get(app, key)).statusCode, 200);
  });
});

// ----- Redis: shared budgets and failing open ------------------------------------------------

const redisServer = spawnSync('redis-server', ['--version']).status === 0;
const needRedis = redisServer ? false : (process.env.CI ? false : 'needs Redis: install redis-server (apt-get install -y redis-server)');


/** A throwaway Redis of this test's own, so it can be stopped and started. */
async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    const probe = new Redis({ port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => {});
    try { await probe.connect(); await probe.ping(); probe.disconnect(); return child; } catch { probe.disconnect(); }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('redis-server did not start');
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  child.kill('SIGKILL');
  await new Promise((r) => child.once('exit', r));
}

const ready = async (redis: Redis) => { for (let i = 0; i < 100 && redis.status !== 'ready'; i++) await new Promise((r) => setTimeout(r, 50)); };

describe('rate limits shared through Redis', { skip: needRedis }, () => {
  it('holds one budget across two API processes', async () => {
    const port = await freePort();
    const server = await startRedis(port);
    try {
      const a = await connectRateLimitRedis(`redis://127.0.0.1:${port}`, createLogger('silent'));
      const b = await connectRateLimitRedis(`redis://127.0.0.1:${port}`, createLogger('silent'));
      await ready(a);
      await ready(b);
      const one = await limitedApp({ test: 4 }, a);
      const two = await limitedApp({ test: 4 }, b);
      const brand = await createBrand(t.db);
      const key = (await createKey(t.db, brand.id)).key;
      const codes = [await get(one, key), await get(two, key), await get(one, key), await get(two, key), await get(one, key)].map((r) => r.statusCode);
      assert.deepEqual(codes, [200, 200, 200, 200, 429]);
      a.disconnect();
      b.disconnect();
    } finally {
      await stop(server);
    }
  });

  it('keeps serving when Redis goes away, says so once, and counts again when it is back', async () => {
    const port = await freePort();
    let server = await startRedis(port);
    const lines: string[] = [];
    const log = createLogger('info', new Writable({ write(chunk, _e, done) { lines.push(String(chunk)); done(); } }));
    const redis = await connectRateLimitRedis(`redis://127.0.0.1:${port}`, log);
    try {
      await ready(redis);
      const app = await limitedApp({ test: 2 }, redis, log);
      const brand = await createBrand(t.db);
      const key = (await createKey(t.db, brand.id)).key;
      await stop(server);
      await new Promise((r) => setTimeout(r, 300));
      const during = [];
      for (let i = 0; i < 6; i++) during.push((await get(app, key)).statusCode);
      assert.deepEqual(during, [200, 200, 200, 200, 200, 200], 'fails open');
      assert.equal(lines.filter((l) => l.includes('Redis is unreachable')).length, 1, 'one log line, not one per request');
      server = await startRedis(port);
      await ready(redis);
      const afterwards = [];
      for (let i = 0; i < 3; i++) afterwards.push((await get(app, key)).statusCode);
      assert.deepEqual(afterwards, [200, 200, 429], 'limits again');
      assert.ok(lines.some((l) => l.includes('Redis is back')));
    } finally {
      redis.disconnect();
      await stop(server);
    }
  });
});

describe('public pages', () => {
  it('are not counted, and carry no rate-limit headers', async () => {
    const app = await limitedApp({ test: 1, live: 1 });
    for (let i = 0; i < 3; i++) {
      const res = await app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['ratelimit-limit'], undefined);
    }
    assert.equal((await app.inject({ method: 'GET', url: '/checkout/brand_x/plink_y' })).statusCode, 404);
  });
});
