import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { createBrand, createKey } from '../testing/factories.ts';

/** Common mistakes answered in words that say what to do (issue 27, item 5). */
let t: TestApp;
before(async () => { t = await startTestApp(); });
after(async () => { await t.close(); });

describe('answers to common mistakes', () => {
  it('tells an API key sent as a Bearer token to use x-service-api', async () => {
    const key = (await createKey(t.db, (await createBrand(t.db)).id)).key;
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/products', headers: { authorization: `Bearer ${key}` } });
    assert.equal(res.statusCode, 401);
    assert.match(res.json().message, /send it in the `x-service-api` header/);
    assert.ok(!res.body.includes(key), 'the key is not echoed');
    assert.match(String(res.headers['www-authenticate']), /error="invalid_token"/);
  });

  it('refuses unknown query parameters with 400 naming them', async () => {
    const key = (await createKey(t.db, (await createBrand(t.db)).id)).key;
    const paged = await t.request({ method: 'GET', url: '/api/v1/products?page=2', key });
    assert.equal(paged.statusCode, 400);
    assert.equal(paged.json().data.code, 'validation_failed');
    assert.match(paged.json().message, /`page`.*takes .*limit/);
    const two = await t.request({ method: 'GET', url: '/api/v1/transactions?offset=20&limit=5&sort=asc', key });
    assert.equal(two.statusCode, 400);
    assert.deepEqual(two.json().data.details.map((d: { field: string }) => d.field), ['offset', 'sort']);
    const none = await t.request({ method: 'GET', url: '/api/v1/ping?verbose=1', key });
    assert.equal(none.statusCode, 400);
    assert.match(none.json().message, /takes none/);
    assert.equal((await t.request({ method: 'GET', url: '/api/v1/products?limit=5', key })).statusCode, 200);
  });

  it('carries WWW-Authenticate on 401 and 403 (RFC 6750)', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/api/v1/products' });
    assert.equal(none.statusCode, 401);
    const challenge = String(none.headers['www-authenticate']);
    assert.match(challenge, /^Bearer resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource\/api\/v1"$/, 'no error code without a credential');
    const bad = await t.app.inject({ method: 'GET', url: '/api/v1/products', headers: { 'x-service-api': 'svc_test_nope' } });
    assert.match(String(bad.headers['www-authenticate']), /error="invalid_token"/);
    const key = (await createKey(t.db, (await createBrand(t.db)).id, { scopes: ['products:read'] })).key;
    const refused = await t.request({ method: 'GET', url: '/api/v1/transactions', key });
    assert.equal(refused.statusCode, 403);
    assert.match(String(refused.headers['www-authenticate']), /error="insufficient_scope", scope="transactions:read"/);
    // Dashboard routes (a session's) carry none.
    assert.equal((await t.app.inject({ method: 'GET', url: '/dashboard/api/keys' })).headers['www-authenticate'], undefined);
  });
});
