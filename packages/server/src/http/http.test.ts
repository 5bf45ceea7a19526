import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Writable } from 'node:stream';
import { buildApp } from '../app.ts';
import type { App } from './app-type.ts';
import { openTestDb, type TestDb } from '../testing/db.ts';
import { createBrand, createKey } from '../testing/factories.ts';
import { startTestApp, testDeps, type TestApp } from '../testing/app.ts';
import { createLogger } from '../logger.ts';
import { runCommonRouteTests } from '../testing/auth-checks.ts';

// The app with a real logger writing to memory, so tests can read what would be logged.
let testDb: TestDb;
let app: App;
before(async () => {
  testDb = await openTestDb();
  app = await buildApp(testDeps(testDb.db, { adminToken: 'test-admin-token', config: { bodyLimitBytes: 2048, logLevel: 'info' } }));
  await app.ready();
});
let t: TestApp;
before(async () => { t = await startTestApp(); });
after(async () => { await app.close(); await testDb.close(); await t.close(); });

function expectEnvelope(res: { statusCode: number; headers: Record<string, unknown>; json: () => any }, status: number, code: string) {
  assert.equal(res.statusCode, status);
  assert.match(String(res.headers['content-type']), /application\/json/);
  const body = res.json();
  assert.equal(body.status, 'error');
  assert.equal(body.data.code, code);
  assert.ok(body.message.length > 10);
  assert.equal(body.data.requestId, res.headers['x-request-id']);
}

describe('GET /ping', () => {
  runCommonRouteTests('GET /ping', {
    method: 'GET',
    scope: null,
    foreign: 'none',
    modeScoped: false,
    setup: async () => ({ url: '/api/v1/ping' }),
  }, () => t);
});

describe('the HTTP edge', () => {
  it('puts x-request-id on every response, success or error', async () => {
    const brand = await createBrand(testDb.db);
    const key = await createKey(testDb.db, brand.id);
    const ok = await app.inject({ method: 'GET', url: '/api/v1/ping', headers: { 'x-service-api': key.key } });
    assert.match(String(ok.headers['x-request-id']), /^req_/);
    const notFound = await app.inject({ method: 'GET', url: '/api/v1/nothing-here' });
    assert.match(String(notFound.headers['x-request-id']), /^req_/);
    assert.notEqual(ok.headers['x-request-id'], notFound.headers['x-request-id']);
  });

  it('answers /ping with the key\'s brand, mode and scopes', async () => {
    const brand = await createBrand(testDb.db);
    const key = await createKey(testDb.db, brand.id, { mode: 'live', scopes: ['products:read'] });
    const res = await app.inject({ method: 'GET', url: '/api/v1/ping', headers: { 'x-service-api': key.key } });
    assert.deepEqual(res.json(), { status: 'success', message: 'pong', data: { ok: true, brandID: brand.id, mode: 'live', scopes: ['products:read'] } });
  });

  it('answers unknown routes with the envelope', async () => {
    expectEnvelope(await app.inject({ method: 'GET', url: '/api/v1/widgets' }), 404, 'route_not_found');
    expectEnvelope(await app.inject({ method: 'DELETE', url: '/api/v1/products' }), 404, 'route_not_found');
  });

  it('answers a NUL character in a path id with 404 like any unknown id, not 500 (http/path-ids.ts)', async () => {
    const brand = await createBrand(testDb.db);
    const key = await createKey(testDb.db, brand.id);
    for (const url of ['/api/v1/hubs/%00/members', '/api/v1/products/a%00b', '/api/v1/transactions/%00']) {
      expectEnvelope(await app.inject({ method: 'GET', url, headers: { 'x-service-api': key.key } }), 404, 'not_found');
    }
  });

  it('answers malformed JSON with invalid_json', async () => {
    const res = await app.inject({ method: 'POST', url: '/internal/cli', headers: { 'content-type': 'application/json' }, payload: '{"a":' });
    expectEnvelope(res, 400, 'invalid_json');
  });

  it('answers a body that is not JSON with 415', async () => {
    const res = await app.inject({ method: 'POST', url: '/internal/cli', headers: { 'content-type': 'text/plain' }, payload: 'hello' });
    expectEnvelope(res, 415, 'unsupported_media_type');
  });

  it('answers an oversize body with 413', async () => {
    const res = await app.inject({ method: 'POST', url: '/internal/cli', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ x: 'y'.repeat(5000) }) });
    expectEnvelope(res, 413, 'payload_too_large');
  });

  it('never writes an API key to the logs, even at trace level', async () => {
    const lines: string[] = [];
    const sink = new Writable({ write(chunk, _enc, done) { lines.push(chunk.toString()); done(); } });
    const logged = await buildApp(testDeps(testDb.db, { log: createLogger('trace', sink), config: { bodyLimitBytes: 2048, logLevel: 'trace', publicUrl: 'http://x' } }));
    const brand = await createBrand(testDb.db);
    const key = await createKey(testDb.db, brand.id, { scopes: [] });
    await logged.inject({ method: 'GET', url: '/api/v1/ping', headers: { 'x-service-api': key.key } });
    await logged.inject({ method: 'GET', url: '/api/v1/products', headers: { 'x-service-api': key.key } });
    await logged.inject({ method: 'GET', url: '/api/v1/ping', headers: { 'x-service-api': `${key.key}x` } });
    await logged.close();
    assert.ok(lines.length >= 6, 'requests were logged');
    const text = lines.join('');
    assert.ok(!text.includes(key.key.slice(9)), 'no key material in the logs');
    for (const line of lines) JSON.parse(line); // structured JSON, one object a line
  });
});
