import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../app.ts';
import type { App } from '../http/app-type.ts';
import { testDeps } from '../testing/app.ts';
import { openTestDb, type TestDb } from '../testing/db.ts';
import { errorStatuses } from './openapi.ts';

/**
 * One route, one contract (issue 21): every /api/v1 operation declares its operationId, SDK
 * sample and MCP tool in its own `config.operation`, and nothing outside the route keys an
 * operation by its method and path. docs/architecture.md, "How to add an operation", says how.
 */
let testDb: TestDb;
let app: App;
before(async () => {
  testDb = await openTestDb();
  app = await buildApp(testDeps(testDb.db));
  await app.ready();
});
after(async () => { await app.close(); await testDb.close(); });

type Operations = Record<string, Record<string, { operationId?: string }>>;

describe('each route declares its contract', () => {
  it('gives every /api/v1 operation an operationId from its route, each used once', () => {
    // @fastify/swagger's own output, before docs/openapi.ts would make up an id for a route without one.
    const raw = app.swagger() as unknown as { paths: Operations };
    const missing: string[] = [];
    const seen = new Map<string, string>();
    for (const [path, methods] of Object.entries(raw.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const name = `${method.toUpperCase()} /api/v1${path}`;
        if (!op.operationId) missing.push(name);
        else {
          assert.equal(seen.get(op.operationId), undefined, `${name} reuses the operationId ${op.operationId} of ${seen.get(op.operationId)}`);
          seen.set(op.operationId, name);
        }
      }
    }
    assert.deepEqual(missing, [], `These routes declare no config.operation (see docs/architecture.md, "How to add an operation"): ${missing.join(', ')}`);
    assert.ok(seen.size >= 70, `only ${seen.size} operations`);
  });

  it('leaves no table of operations or tools keyed by path in docs/ or mcp/', () => {
    // What a central entry looked like: `'post /products': { id: … }` (docs/operations.ts),
    // `{ name: 'list_products', method: 'GET', path: '/products', … }` (mcp/tools.ts), or a patch
    // of one operation in the document (`if (path === '/webhooks/test') …`, `{ '/events': 'Events' }`).
    const pathKey = /['"`](get|post|put|patch|delete) \/[\w/{}:-]*['"`]\s*:|\bpath\s*(:|===|!==)\s*['"`]\/|\bpath\.(endsWith|startsWith|includes)\(\s*['"`]\/|\[['"`]\/[\w/{}-]*['"`]\]|(^|[{,])\s*['"`]\/[\w/{}:-]*['"`]\s*:/i;
    const leftovers: string[] = [];
    for (const folder of ['docs', 'mcp']) {
      const dir = join(import.meta.dirname, '..', folder);
      for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
        readFileSync(join(dir, file), 'utf8').split('\n').forEach((line, i) => {
          if (pathKey.test(line)) leftovers.push(`${folder}/${file}:${i + 1}: ${line.trim().slice(0, 80)}`);
        });
      }
    }
    assert.deepEqual(leftovers, [], 'Move these entries into the config.operation of the route they describe (its domain\'s contract.ts)');
  });

  it('lists the error statuses a route can answer, by rule', async () => {
    assert.deepEqual(errorStatuses({ method: 'get', path: '/products', secured: true, hasBody: false, extra: [] }), [400, 401, 403, 429, 503]);
    assert.deepEqual(errorStatuses({ method: 'get', path: '/products/{id}', secured: true, hasBody: false, extra: [] }), [400, 401, 403, 404, 429, 503]);
    assert.deepEqual(errorStatuses({ method: 'post', path: '/products', secured: true, hasBody: true, extra: [] }), [400, 401, 403, 409, 413, 415, 422, 429, 503]);
    assert.deepEqual(errorStatuses({ method: 'post', path: '/test-clock/advance', secured: true, hasBody: true, extra: [404] }),
      [400, 401, 403, 404, 409, 413, 415, 422, 429, 503]);

    const doc = (await app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const statuses = (path: string, method: string) => Object.keys(doc.paths[path][method].responses).filter((s) => !s.startsWith('2'));
    assert.deepEqual(statuses('/products', 'get'), ['400', '401', '403', '429', '503']);
    assert.deepEqual(statuses('/memberships/{id}/resume', 'post'), ['400', '401', '403', '404', '409', '422', '429', '503']);
    // The test clock's routes declare the 404 a brand without a test clock gets.
    assert.ok(statuses('/test-clock', 'get').includes('404'));
  });

  it('keeps the contract\'s carrier out of the served document', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    assert.equal(res.body.includes('x-operation'), false);
  });
});
