import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { createBrand, createKey } from '../testing/factories.ts';

/**
 * An id that cannot exist (a NUL, a control character, 101 or 3,000 characters) is 404
 * not_found in the envelope on every route with a path parameter, as any unknown id is.
 * The routes come from the OpenAPI document, so a new route is covered when it is added.
 */
let t: TestApp;
let key: string;
before(async () => {
  t = await startTestApp();
  const brand = await createBrand(t.db);
  key = (await createKey(t.db, brand.id)).key;
});
after(async () => { await t.close(); });

const impossible = {
  'a NUL byte': 'a%00b',
  'a control character': 'prod_%01x',
  'a space': 'prod_%20x',
  '101 characters': `prod_${'x'.repeat(96)}`,
  '3,000 characters': `prod_${'x'.repeat(2995)}`,
};

describe('path ids that cannot exist', () => {
  it('are 404 not_found in the envelope on every route with a path parameter', async () => {
    const doc = (await t.request({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const routes = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .filter(([path]) => path.includes('{'))
      .flatMap(([path, ops]) => Object.keys(ops).map((method) => ({ method: method.toUpperCase(), path })));
    assert.ok(routes.length >= 10, `found the routes with ids (${routes.length})`);
    for (const { method, path } of routes) {
      const params = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      for (const target of params) {
        for (const [label, bad] of Object.entries(impossible)) {
          const url = `/api/v1${path.replace(/\{(\w+)\}/g, (_, name) => (name === target ? bad : 'x_plausible'))}`;
          const withBody = method === 'POST' || method === 'PATCH' || method === 'PUT';
          const res = await t.request({ method: method as 'GET', url, key, ...(withBody ? { payload: {} } : {}) });
          const what = `${method} ${path} with ${target} = ${label}`;
          assert.equal(res.statusCode, 404, `${what}: ${res.body.slice(0, 300)}`);
          const body = res.json();
          assert.equal(body.status, 'error', what);
          assert.equal(body.data.code, 'not_found', what);
          assert.equal(body.data.requestId, res.headers['x-request-id'], what);
        }
      }
    }
  });

  it('still answers a missing key with 401 first', async () => {
    const res = await t.request({ method: 'GET', url: '/api/v1/products/a%00b' });
    assert.equal(res.statusCode, 401);
  });
});
