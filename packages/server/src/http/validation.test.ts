import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../app.ts';
import type { App } from './app-type.ts';
import { courseBody } from '../testing/checkout-fixtures.ts';
import { createLogger } from '../logger.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { createBrand, createBrandWithCatalog, createKey, createTransaction } from '../testing/factories.ts';

/**
 * Request validation at the edge: bodies are checked as sent (no coercion), the query string is
 * coerced from text, one rule refuses text the database cannot store, and Ajv's errors are told
 * in sentences that name the field and the allowed values.
 */
let t: TestApp;
const dns: Record<string, string> = { 'hooks.example.com': '93.184.215.14' };
before(async () => {
  t = await startTestApp({ lookup: async (host) => (dns[host] ? [{ address: dns[host], family: 4 }] : Promise.reject(Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' }))) });
});
after(async () => { await t.close(); });

async function key(mode: 'test' | 'live' = 'test') {
  const brand = await createBrand(t.db);
  return { brandId: brand.id, key: (await createKey(t.db, brand.id, { mode })).key };
}

function expectInvalid(res: { statusCode: number; body: string; json: () => any }, field: string) {
  assert.equal(res.statusCode, 400, res.body);
  const body = res.json();
  assert.equal(body.data.code, 'validation_failed');
  assert.equal(body.data.details[0].field, field, res.body);
  return body as { message: string; data: { details: { field: string; message: string }[] } };
}

describe('request bodies are validated, not coerced', () => {
  it('refuses a string for an array and a number for a string in POST /webhooks', async () => {
    const k = await key();
    const res = await t.request({ method: 'POST', url: '/api/v1/webhooks', key: k.key, payload: { url: 'http://127.0.0.1:9/hook', events: 'member.joined', description: 5 } });
    const body = expectInvalid(res, 'events');
    assert.deepEqual(body.data.details.map((d) => d.field).sort(), ['description', 'events']);
    assert.match(body.message, /`events`: must be array/);
    const [row] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_endpoints WHERE brand_id = $1', [k.brandId]);
    assert.equal(row.n, 0, 'nothing stored');
  });

  it('refuses an array as the txref of POST /payments/verify', async () => {
    const k = await key();
    const tx = await createTransaction(t.db, { brandId: k.brandId });
    const res = await t.request({ method: 'POST', url: '/api/v1/payments/verify', key: k.key, payload: { txref: [tx.txref] } });
    expectInvalid(res, 'txref');
  });

  it('refuses true as formData.fullName of a payment link', async () => {
    const { ids, testKey } = await createBrandWithCatalog(t.db);
    const body = courseBody(ids, { form: { formData: { fullName: true, email: 'ada@example.com', experienceLevel: 'Beginner' } } });
    const res = await t.request({ method: 'POST', url: '/api/v1/payment-links', key: testKey, payload: body });
    expectInvalid(res, 'form.formData.fullName');
  });

  it('still reads numbers from the query string', async () => {
    const k = await key();
    const res = await t.request({ method: 'GET', url: '/api/v1/transactions?limit=5', key: k.key });
    assert.equal(res.statusCode, 200, res.body);
  });
});

describe('text the database cannot store', () => {
  it('refuses an unpaired surrogate in a webhook description, as in any other text field', async () => {
    const k = await key();
    const res = await t.request({
      method: 'POST', url: '/api/v1/webhooks', key: k.key, headers: { 'content-type': 'application/json' },
      payload: '{"url":"http://127.0.0.1:9/hook","events":["member.joined"],"description":"bad \\ud800 text"}',
    });
    const body = expectInvalid(res, 'description');
    assert.match(body.message, /cannot be stored/);
  });

  it('refuses NUL in a payment link\'s metadata and in a query parameter with 400 naming the field', async () => {
    const { ids, testKey } = await createBrandWithCatalog(t.db);
    const res = await t.request({ method: 'POST', url: '/api/v1/payment-links', key: testKey, payload: courseBody(ids, { metadata: { note: 'a\u0000b' } }) });
    expectInvalid(res, 'metadata.note');
    const query = await t.request({ method: 'GET', url: '/api/v1/events?type=a%00b', key: testKey });
    expectInvalid(query, 'type');
  });
});

describe('validation messages', () => {
  it('names the allowed values of a union once: PATCH /webhooks/{id} with status "paused"', async () => {
    const k = await key();
    const created = await t.request({ method: 'POST', url: '/api/v1/webhooks', key: k.key, payload: { url: 'http://127.0.0.1:9/hook', events: ['member.joined'] } });
    assert.equal(created.statusCode, 200, created.body);
    const res = await t.request({ method: 'PATCH', url: `/api/v1/webhooks/${created.json().data.id}`, key: k.key, payload: { status: 'paused' } });
    const body = expectInvalid(res, 'status');
    assert.equal(body.message, 'Invalid body field `status`: must be one of active, disabled.');
    assert.deepEqual(body.data.details, [{ field: 'status', message: 'must be one of active, disabled' }]);
  });

  it('says a missing body is missing: POST /payments/verify with no body', async () => {
    const k = await key();
    const res = await t.request({ method: 'POST', url: '/api/v1/payments/verify', key: k.key });
    const body = expectInvalid(res, 'body');
    assert.equal(body.message, 'The request needs a JSON body with `txref`.');
  });

  it('reads well when a live webhook URL points at a private address', async () => {
    const k = await key('live');
    const res = await t.request({ method: 'POST', url: '/api/v1/webhooks', key: k.key, payload: { url: 'https://10.0.0.5/x', events: ['member.joined'] } });
    const body = expectInvalid(res, 'url');
    assert.equal(body.message, 'Invalid body field `url`: "https://10.0.0.5/x" points at 10.0.0.5, a private, loopback, link-local or reserved address.');
  });
});

describe('expected refusals in the logs', () => {
  let app: App;
  const lines: string[] = [];
  before(async () => {
    const sink = new Writable({ write(chunk, _enc, done) { lines.push(chunk.toString()); done(); } });
    app = await buildApp({ ...t.deps, log: createLogger('info', sink), config: { ...t.config, logLevel: 'info' } });
  });
  after(async () => { await app.close(); });

  it('logs a live key\'s payment link (503 by design) as a warning without a stack', async () => {
    const { ids, liveKey } = await createBrandWithCatalog(t.db);
    for (let i = 0; i < 2; i++) {
      const res = await app.inject({ method: 'POST', url: '/api/v1/payment-links', headers: { 'x-service-api': liveKey }, payload: courseBody(ids) });
      assert.equal(res.statusCode, 503);
    }
    const logged = lines.map((l) => JSON.parse(l)).filter((l) => l.msg?.includes('Live payments are not configured'));
    assert.equal(logged.length, 2);
    for (const l of logged) {
      assert.equal(l.level, 40, 'warn, not error');
      assert.equal(l.err, undefined, 'no error object, so no stack');
    }
  });
});
