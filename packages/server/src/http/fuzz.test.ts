import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { createBrandWithCatalog } from '../testing/factories.ts';

/**
 * Hostile input, generated from the OpenAPI document so a new route is covered without new test
 * code: every operation gets arbitrary path ids, query values and JSON bodies (deep nesting,
 * prototype keys, lone surrogates, NUL). Never a 5xx, always the envelope with x-request-id, and
 * a refused request stores nothing.
 */
let t: TestApp;
let key: string;
let operations: { method: string; path: string; params: string[]; query: string[]; hasBody: boolean }[];
before(async () => {
  t = await startTestApp();
  key = (await createBrandWithCatalog(t.db)).testKey;
  const doc = (await t.request({ method: 'GET', url: '/api/v1/openapi.json' })).json();
  operations = [];
  for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
    for (const [method, op] of Object.entries(ops)) {
      const params = (op.parameters ?? []).filter((p: any) => p.in === 'path').map((p: any) => p.name);
      const query = (op.parameters ?? []).filter((p: any) => p.in === 'query').map((p: any) => p.name);
      operations.push({ method: method.toUpperCase(), path, params, query, hasBody: Boolean(op.requestBody) });
    }
  }
});
after(async () => { await t.close(); });

const nasty = fc.oneof(
  fc.string(),
  fc.constantFrom('__proto__', 'constructor', 'prototype', '\u0000', '\ud800', 'a\udc00b', '..', '%00', '%ZZ', ' ', 'x'.repeat(300), '-1', '1e309', 'null'),
  fc.string({ unit: 'binary', maxLength: 20 }),
);

/** JSON with the shapes that break parsers and serializers: prototype keys, deep nesting, odd strings. */
const hostileJson = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true },
    fc.constant(null), fc.boolean(), fc.double(), fc.integer(), nasty,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(nasty, fc.constantFrom('items', 'form', 'formData', 'records', 'url', 'events', 'txref', 'metadata', 'booking')), tie('value'), { maxKeys: 5 })),
})).value;

/** JSON text nested `levels` deep inside `booking` (JSON.stringify itself overflows its stack at this depth). */
const deepText = (levels: number) => '{"booking":'.repeat(levels) + '1' + '}'.repeat(levels);

/** Percent-encodes the UTF-8 bytes of any string, lone surrogates included (encodeURIComponent throws on those). */
const encodeBytes = (s: string) => [...Buffer.from(s)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');

const tables = ['payment_links', 'webhook_endpoints', 'imports', 'events', 'transactions', 'memberships', 'idempotency_keys'];
const counts = async () => Object.fromEntries(await Promise.all(tables.map(async (table) =>
  [table, (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0].n])));

function assertEnvelope(res: { statusCode: number; headers: Record<string, unknown>; body: string }, what: string) {
  assert.ok(res.statusCode < 500, `${what}: ${res.statusCode} ${res.body.slice(0, 300)}`);
  assert.ok(res.headers['x-request-id'], `${what}: x-request-id`);
  const body = JSON.parse(res.body);
  assert.ok(body.status === 'success' || (body.status === 'error' && typeof body.data.code === 'string' && body.data.requestId === res.headers['x-request-id']), `${what}: envelope`);
}

describe('every operation under hostile input', () => {
  it('never answers 5xx, always in the envelope, and stores nothing it refused', async () => {
    await fc.assert(fc.asyncProperty(
      fc.nat(),
      fc.array(nasty, { minLength: 3, maxLength: 3 }),
      fc.dictionary(fc.string({ maxLength: 8 }), nasty, { maxKeys: 3 }),
      fc.oneof(hostileJson, fc.constant(undefined)),
      async (pick, ids, query, body) => {
        const op = operations[pick % operations.length];
        let path = op.path;
        op.params.forEach((p, i) => { path = path.replace(`{${p}}`, encodeBytes(ids[i])); });
        const qs = new URLSearchParams([...op.query.map((q, i) => [q, String(ids[i % 3])] as [string, string]), ...Object.entries(query)]).toString();
        const before = await counts();
        const res = await t.request({
          method: op.method as never,
          url: `/api/v1${path}${qs ? `?${qs}` : ''}`,
          key,
          ...(op.hasBody && body !== undefined ? { payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}),
        });
        assertEnvelope(res, `${op.method} ${path}`);
        if (res.statusCode >= 400) assert.deepEqual(await counts(), before, `${op.method} ${path} refused with ${res.statusCode} but stored something`);
      },
    ), { numRuns: 300 });
  });

  it('refuses JSON nested thousands of levels deep, and prototype keys, in the envelope', async () => {
    const shop = await createBrandWithCatalog(t.db);
    const cases = [
      { url: '/api/v1/payment-links', payload: `{"items":[],"booking":${deepText(5000)}}` },
      { url: '/api/v1/payment-links', payload: '['.repeat(10_000) + ']'.repeat(10_000) },
      { url: '/api/v1/webhooks', payload: '{"__proto__": {"polluted": true}, "url": "https://x.example.com", "events": ["member.joined"]}' },
      { url: '/api/v1/payments/verify', payload: '{"constructor": {"prototype": {"polluted": true}}, "txref": "tx_x"}' },
    ];
    for (const c of cases) {
      const res = await t.request({ method: 'POST', url: c.url, key: shop.testKey, payload: c.payload, headers: { 'content-type': 'application/json' } });
      assertEnvelope(res, c.url);
      assert.ok(res.statusCode >= 400 && res.statusCode < 500, `${c.url}: ${res.statusCode}`);
      assert.equal(({} as Record<string, unknown>).polluted, undefined, 'Object.prototype is untouched');
    }
  });
});
