import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../app.ts';
import { testDeps } from '../testing/app.ts';
import { openTestDb, type TestDb } from '../testing/db.ts';
import type { App } from '../http/app-type.ts';
import { guides, readGuide, type GuideName } from './page.ts';

let testDb: TestDb;
let app: App;
before(async () => {
  testDb = await openTestDb();
  app = await buildApp(testDeps(testDb.db, { config: { bodyLimitBytes: 4096 } }));
  await app.ready();
});
after(async () => { await app.close(); await testDb.close(); });

describe('OpenAPI and the reference page', () => {
  it('serves an OpenAPI 3.1 document without a key', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    assert.equal(res.statusCode, 200);
    const doc = res.json();
    assert.equal(doc.openapi, '3.1.0');
    assert.match(doc.servers[0].url, /\/api\/v1$/);
    for (const path of ['/ping', '/products', '/products/{id}', '/products/{id}/customers', '/hubs/{hubID}/members', '/hubs/{hubID}/members/{id}', '/transactions', '/transactions/{id}']) {
      assert.ok(doc.paths[path]?.get, `${path} is documented`);
    }
  });

  it('gives every /api/v1 operation a success response schema, its scope and its errors', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const operations = Object.entries(doc.paths as Record<string, Record<string, any>>)
      .flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })));
    assert.ok(operations.length >= 8);
    for (const { path, method, op } of operations) {
      const success = Object.keys(op.responses ?? {}).find((s) => s.startsWith('2'));
      assert.ok(success, `${method.toUpperCase()} ${path} has a 2xx response schema`);
      const content = op.responses[success].content ?? {};
      assert.ok((content['application/json'] ?? content['application/pdf'] ?? content['application/octet-stream'])?.schema, `${method.toUpperCase()} ${path} 2xx has a body schema`);
      assert.ok(op.responses['401'], `${method.toUpperCase()} ${path} documents 401`);
      assert.match(op.description ?? '', /Scope: `[a-z]+:[a-z]+`|Any valid key/, `${method.toUpperCase()} ${path} names its scope`);
    }
  });

  it('refuses to register an API route without a response schema', async () => {
    const probe = await buildApp(testDeps(testDb.db, { config: { bodyLimitBytes: 4096, publicUrl: 'http://x' } }));
    assert.throws(
      () => probe.get('/api/v1/undocumented', { config: { auth: { scope: null } } }, async () => ({ ok: true })),
      /no 2xx response schema/,
    );
    await probe.close();
  });

  it('serves the reference page at /docs without a key: our own script, a JSON data block and a strict CSP', async () => {
    const res = await app.inject({ method: 'GET', url: '/docs' });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /text\/html/);
    const csp = String(res.headers['content-security-policy']);
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.match(res.body, /<script src="\/docs\/assets\/js\/scalar\.js"><\/script>/);
    assert.match(res.body, /<script id="api-reference" type="application\/json" data-url="\/api\/v1\/openapi\.json"/);
    assert.doesNotMatch(res.body, /https?:\/\//, 'nothing from another origin');
    const script = await app.inject({ method: 'GET', url: '/docs/assets/js/scalar.js' });
    assert.equal(script.statusCode, 200);
    assert.match(String(script.headers['content-type']), /javascript/);
    assert.equal((await app.inject({ method: 'GET', url: '/docs/assets/openapi.yaml' })).statusCode, 404, 'only the script is served from the renderer\'s routes');
  });

  it('serves the guides in docs/*.md through the same renderer, and as markdown', async () => {
    for (const name of ['webhooks', 'keys', 'checkout', 'imports', 'idempotency', 'subscriptions', 'payouts', 'catalog']) {
      assert.equal((await app.inject({ method: 'GET', url: `/docs/guides/${name}` })).statusCode, 200);
      const doc = (await app.inject({ method: 'GET', url: `/docs/guides/${name}.json` })).json();
      assert.match(doc.info.description, /\[← API reference\]\(\/docs\)/);
      assert.match((await app.inject({ method: 'GET', url: `/docs/guides/${name}.md` })).body, /^# /);
    }
    assert.equal((await app.inject({ method: 'GET', url: '/docs/guides/secrets' })).statusCode, 404);
  });

  it('serves every picture a guide shows beside it, and nothing else from the repository', async () => {
    const pictures = new Set<string>();
    for (const name of Object.keys(guides) as GuideName[]) {
      for (const [, file] of (await readGuide(name)).matchAll(/\]\(screenshots\/([^)]+)\)/g)) pictures.add(file!);
    }
    assert.ok(pictures.size >= 20, `${pictures.size} pictures`);
    for (const file of pictures) {
      const res = await app.inject({ method: 'GET', url: `/docs/guides/screenshots/${file}` });
      assert.equal(res.statusCode, 200, file);
      assert.equal(res.headers['content-type'], 'image/png');
      assert.deepEqual([...res.rawPayload.subarray(1, 4)], [...Buffer.from('PNG')], file);
    }
    for (const url of ['/docs/guides/screenshots/none.png', '/docs/guides/screenshots/..%2Fcustomers.md', '/docs/guides/screenshots/%2E%2E%2F%2E%2E%2FREADME.md']) {
      assert.equal((await app.inject({ method: 'GET', url })).statusCode, 404, url);
    }
  });

  it('titles a guide in plain text (no Markdown backticks in the heading or the tab)', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/docs/guides/customers.json' })).json();
    assert.equal(doc.info.title, 'Customers: GET /customers and GET /customers/{id}');
  });
});
