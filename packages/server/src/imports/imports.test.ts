import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadCatalog } from '../catalog/load.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { runCommonRouteTests } from '../testing/auth-checks.ts';
import { createBrand, createBrandWithCatalog, createKey } from '../testing/factories.ts';
import { drainImports, hubWithFreeTier, hubWithoutFreeTier, people, productWithEveryField, queueForTest } from './test-support.ts';

let t: TestApp;
before(async () => { t = await startTestApp(); });
after(async () => { await t.close(); });

const post = (key: string, url: string, payload: unknown) => t.request({ method: 'POST', url, key, payload: payload as object });

/** Asserts a 400 validation_failed answer in the envelope and returns its details. */
function expectInvalid(res: Awaited<ReturnType<typeof post>>) {
  assert.equal(res.statusCode, 400, res.body);
  const body = res.json();
  assert.equal(body.status, 'error');
  assert.equal(body.data.code, 'validation_failed');
  assert.equal(body.data.requestId, res.headers['x-request-id']);
  return { message: body.message as string, details: body.data.details as { index?: number; field?: string; message: string }[] };
}

async function importsOf(brandId: string) {
  const [row] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM imports WHERE brand_id = $1', [brandId]);
  return row.n;
}

async function hubBrand(catalog: object = hubWithFreeTier) {
  const brand = await createBrand(t.db);
  const ids = await loadCatalog(t.db, brand.id, catalog);
  const key = (await createKey(t.db, brand.id, { mode: 'test', scopes: ['customers:write', 'customers:read'] })).key;
  return { brandId: brand.id, ids, key, url: `/api/v1/hubs/${ids.h}/members/import` };
}

async function productBrand() {
  const brand = await createBrand(t.db);
  const ids = await loadCatalog(t.db, brand.id, { ...productWithEveryField, ...hubWithFreeTier });
  const key = (await createKey(t.db, brand.id, { mode: 'test', scopes: ['customers:write', 'customers:read'] })).key;
  return { brandId: brand.id, ids, key, url: `/api/v1/products/${ids.p}/customers/import` };
}

describe('POST /hubs/{hubID}/members/import', () => {
  runCommonRouteTests('POST /hubs/{hubID}/members/import', {
    method: 'POST',
    scope: 'customers:write',
    foreign: 404,
    modeScoped: false, // hubs are catalog, shared by both modes; the import itself is mode-scoped (GET /imports/{id})
    okStatus: 202,
    async setup({ t, brandId }) {
      const ids = await loadCatalog(t.db, brandId, hubWithFreeTier);
      return { url: `/api/v1/hubs/${ids.h}/members/import`, body: { records: people(1) } };
    },
  }, () => t);

  it('queues valid records at once and answers 202 with queued, count and importID', async () => {
    const { key, url, brandId } = await hubBrand();
    const res = await post(key, url, { records: people(3) });
    assert.equal(res.statusCode, 202, res.body);
    const body = res.json();
    assert.equal(body.status, 'success');
    assert.equal(typeof body.message, 'string');
    assert.equal(body.data.queued, true);
    assert.equal(body.data.count, 3);
    assert.equal(body.data.duplicates, 0);
    assert.match(body.data.importID, /^imp_[A-Za-z0-9_-]{20}$/);
    assert.equal(await importsOf(brandId), 1);
    const [{ n }] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM memberships WHERE brand_id = $1', [brandId]);
    assert.equal(n, 0, 'nothing is imported until the worker runs');
  });

  it('refuses records missing fullName or email, or with an empty name or invalid email, listing each as { index, field, message }', async () => {
    const { key, url, brandId } = await hubBrand();
    const res = await post(key, url, { records: [
      { fullName: 'Ada Lovelace', email: 'ada@example.com' },
      { email: 'no-name@example.com' },
      { fullName: '   ', email: 'blank@example.com' },
      { fullName: 'No Email' },
      { fullName: 'Bad Email', email: 'not-an-email' },
      { fullName: 42, email: ['x'] },
      'just a string',
      { fullName: 'Dots', email: 'a..b@example' },
    ] });
    const { message, details } = expectInvalid(res);
    assert.deepEqual(details, [
      { index: 1, field: 'fullName', message: 'is required' },
      { index: 2, field: 'fullName', message: 'must not be empty' },
      { index: 3, field: 'email', message: 'is required' },
      { index: 4, field: 'email', message: 'is not a valid email address' },
      { index: 5, field: 'fullName', message: 'must be a string' },
      { index: 5, field: 'email', message: 'must be a string' },
      { index: 6, message: 'must be an object keyed by checkout-field id, e.g. { "fullName": "Ada Lovelace", "email": "ada@example.com" }' },
      { index: 7, field: 'email', message: 'is not a valid email address' },
    ]);
    assert.equal(message, '7 of 8 records are invalid, so nothing was imported. First problem: records[1].fullName is required.');
    assert.equal(await importsOf(brandId), 0, 'nothing was queued');
  });

  it('refuses any key other than fullName and email, since hubs collect only those two', async () => {
    const { key, url } = await hubBrand();
    const { details } = expectInvalid(await post(key, url, { records: [
      { fullName: 'Ada', email: 'ada@example.com', phone: '+15550100' },
      { fullName: 'Bob', email: 'bob@example.com', companyName: 'Acme' },
    ] }));
    assert.deepEqual(details, [
      { index: 0, field: 'phone', message: 'is not a field hubs collect: hub member records take only fullName and email' },
      { index: 1, field: 'companyName', message: 'is not a field hubs collect: hub member records take only fullName and email' },
    ]);
  });

  it('refuses a plan that is not a tier of this hub', async () => {
    const { key, url, brandId, ids } = await hubBrand();
    const { ids: other } = await createBrandWithCatalog(t.db);
    const productTier = (await loadCatalog(t.db, brandId, { products: [{ ref: 'p', type: 'digital', title: 'P', tiers: [{ ref: 'pt', name: 'T', price: { amount: 0, currency: 'USD' } }] }] })).pt;
    for (const plan of [productTier, other['club-free'], 'tier_unknown']) {
      const { message, details } = expectInvalid(await post(key, url, { records: people(1), plan }));
      assert.deepEqual(details, [{ field: 'plan', message: `is not a tier of this hub (its tiers are ${ids.free}, ${ids.pro})` }]);
      assert.match(message, /^The import is invalid, so nothing was imported\. First problem: `plan` is not a tier of this hub/);
    }
    assert.equal(await importsOf(brandId), 0);
  });

  it('lists a plan problem and record problems together', async () => {
    const { key, url } = await hubBrand();
    const { details } = expectInvalid(await post(key, url, { records: [{ fullName: 'A', email: 'bad' }], plan: 'tier_nope' }));
    assert.deepEqual(details.map((d) => d.field), ['plan', 'email']);
  });

  it('puts members on the hub\'s free tier when no plan is given, even when a paid tier is the default', async () => {
    const { key, url, ids, brandId } = await hubBrand();
    const res = await post(key, url, { records: people(1) });
    assert.equal(res.statusCode, 202);
    await drainImports(t.db);
    const [m] = await t.db.query<{ plan: string }>('SELECT plan FROM memberships WHERE brand_id = $1', [brandId]);
    assert.equal(m.plan, ids.free);
  });

  it('answers a hub without a free tier with 400 saying so, and accepts an explicit plan there', async () => {
    const { key, url, ids, brandId } = await hubBrand(hubWithoutFreeTier);
    const { message, details } = expectInvalid(await post(key, url, { records: people(1) }));
    assert.deepEqual(details, [{ field: 'plan', message: 'is required: this hub has no free tier to put members on, so name one of its tiers' }]);
    assert.match(message, /no free tier/);
    assert.equal(await importsOf(brandId), 0);
    assert.equal((await post(key, url, { records: people(1), plan: ids.paid })).statusCode, 202);
  });

  it('refuses an empty, missing or malformed records array and unknown body fields', async () => {
    const { key, url } = await hubBrand();
    for (const [payload, field] of [
      [{ records: [] }, 'records'],
      [{}, 'records'],
      [{ records: { fullName: 'A', email: 'a@example.com' } }, 'records'],
      [{ records: people(1), extra: true }, 'extra'],
      [{ records: people(1), plan: '' }, 'plan'],
    ] as const) {
      const { details } = expectInvalid(await post(key, url, payload));
      assert.equal(details[0].field, field, JSON.stringify(payload));
    }
  });

  it('accepts 10,000 records and refuses 10,001', async () => {
    const { key, url, brandId } = await hubBrand();
    const over = await post(key, url, { records: people(10_001) });
    const { details, message } = expectInvalid(over);
    assert.deepEqual(details, [{ field: 'records', message: 'must NOT have more than 10000 items' }]);
    assert.match(message, /records/);
    const res = await post(key, url, { records: people(10_000) });
    assert.equal(res.statusCode, 202, res.body);
    assert.equal(res.json().data.count, 10_000);
    assert.equal(await importsOf(brandId), 1);
    const [{ n }] = await t.db.query<{ n: number }>('SELECT coalesce(sum(size), 0)::int AS n FROM import_chunks WHERE brand_id = $1', [brandId]);
    assert.equal(n, 10_000, 'every record is stored for the worker');
    // Processing 10,000 is proven in processing.test.ts; do not leave it to slow this file's later drains.
    await t.db.query('DELETE FROM imports WHERE brand_id = $1', [brandId]);
  });

  it('lists the first 100 problems and says how many there are', async () => {
    const { key, url } = await hubBrand();
    const records = Array.from({ length: 150 }, (_, i) => ({ fullName: `P${i}`, email: `bad-${i}` }));
    const { details, message } = expectInvalid(await post(key, url, { records: [...people(1), ...records] }));
    assert.equal(details.length, 100);
    assert.deepEqual(details[0], { index: 1, field: 'email', message: 'is not a valid email address' });
    assert.deepEqual(details[99], { index: 100, field: 'email', message: 'is not a valid email address' });
    assert.match(message, /^150 of 151 records are invalid, .* The first 100 of 150 problems are listed in data\.details\.$/);
  });

  it('counts duplicate emails inside one request once, whatever their case', async () => {
    const { key, url } = await hubBrand();
    const res = await post(key, url, { records: [
      { fullName: 'Ada', email: 'Ada@Example.com' },
      { fullName: 'Ada again', email: 'ada@example.COM' },
      { fullName: 'Bob', email: 'bob@example.com' },
      { fullName: 'Ada thrice', email: ' ADA@EXAMPLE.COM ' },
    ] });
    assert.equal(res.statusCode, 202);
    assert.equal(res.json().data.count, 2);
    assert.equal(res.json().data.duplicates, 2);
  });

  it('answers an unknown hub with 404, also when its id could not be stored', async () => {
    const { key } = await hubBrand();
    for (const id of ['hub_nope', '%00', 'hub%F0%9F%98%80']) {
      const res = await post(key, `/api/v1/hubs/${id}/members/import`, { records: people(1) });
      assert.equal(res.statusCode, 404, id);
      assert.equal(res.json().data.code, 'not_found');
    }
  });

  it('refuses text the database cannot store (NUL, unpaired surrogates) with 400, not 500', async () => {
    const { key, url, brandId } = await hubBrand();
    const res = await t.request({
      method: 'POST', url, key, headers: { 'content-type': 'application/json' },
      payload: '{"records":[{"fullName":"Ada\\u0000","email":"a@example.com"},{"fullName":"Bob\\ud800","email":"b@example.com"}]}',
    });
    const { details } = expectInvalid(res);
    const message = 'contains a character that cannot be stored (NUL or an unpaired surrogate)';
    assert.deepEqual(details, [{ index: 0, field: 'fullName', message }, { index: 1, field: 'fullName', message }]);
    assert.equal(await importsOf(brandId), 0);
  });
});

describe('POST /products/{id}/customers/import', () => {
  runCommonRouteTests('POST /products/{id}/customers/import', {
    method: 'POST',
    scope: 'customers:write',
    foreign: 404,
    modeScoped: false,
    okStatus: 202,
    async setup({ t, brandId }) {
      const ids = await loadCatalog(t.db, brandId, productWithEveryField);
      return { url: `/api/v1/products/${ids.p}/customers/import`, body: { records: people(1) } };
    },
  }, () => t);

  it('accepts phone and the product\'s checkout fields with values of their type', async () => {
    const { key, url, brandId, ids } = await productBrand();
    const res = await post(key, url, { records: [{
      fullName: 'Ada Lovelace', email: 'ada@example.com', phone: '+1 555 0100',
      companyName: 'Analytical Engines', workEmail: 'ada@engines.example', mobile: '+44 20 7946 0000', seatsWanted: 2,
      experienceLevel: 'Advanced', newsletter: true, birthday: '1815-12-10',
    }, { fullName: 'Only Required', email: 'only@example.com', companyName: null }] });
    assert.equal(res.statusCode, 202, res.body);
    await drainImports(t.db);
    const rows = await t.db.query<{ email: string; phone: string | null; fields: Record<string, unknown>; plan: string }>(
      'SELECT email, phone, fields, plan FROM memberships WHERE brand_id = $1 ORDER BY email', [brandId]);
    assert.deepEqual(rows, [
      { email: 'ada@example.com', phone: '+1 555 0100', plan: ids.vip, fields: {
        companyName: 'Analytical Engines', workEmail: 'ada@engines.example', mobile: '+44 20 7946 0000', seatsWanted: 2,
        experienceLevel: 'Advanced', newsletter: true, birthday: '1815-12-10' } },
      { email: 'only@example.com', phone: null, plan: ids.vip, fields: {} },
    ], 'the default tier is used without a plan; a checkout field required at checkout is optional in an import');
  });

  it('refuses unknown keys and values of the wrong type for the field', async () => {
    const { key, url, brandId } = await productBrand();
    const { details } = expectInvalid(await post(key, url, { records: [
      { fullName: 'A', email: 'a@example.com', favouriteColour: 'blue' },
      { fullName: 'B', email: 'b@example.com', companyName: 12, workEmail: 'nope', mobile: 'call me', seatsWanted: '2' },
      { fullName: 'C', email: 'c@example.com', experienceLevel: 'Expert', newsletter: 'yes', birthday: '2024-02-30' },
      { fullName: 'D', email: 'd@example.com', phone: 5550100, birthday: 'yesterday' },
    ] }));
    const known = 'fullName, email, phone, companyName, workEmail, mobile, seatsWanted, experienceLevel, newsletter, birthday';
    assert.deepEqual(details, [
      { index: 0, field: 'favouriteColour', message: `is not a checkout field of this product (its fields are ${known})` },
      { index: 1, field: 'companyName', message: 'must be a string (a text field)' },
      { index: 1, field: 'workEmail', message: 'must be a valid email address (an email field)' },
      { index: 1, field: 'mobile', message: 'must be a phone number such as +15550100 (a phone field)' },
      { index: 1, field: 'seatsWanted', message: 'must be a number (a number field)' },
      { index: 2, field: 'experienceLevel', message: 'must be one of "Beginner", "Advanced" (a select field)' },
      { index: 2, field: 'newsletter', message: 'must be true or false (a checkbox field)' },
      { index: 2, field: 'birthday', message: 'must be a date as YYYY-MM-DD or an ISO 8601 timestamp (a date field)' },
      { index: 3, field: 'phone', message: 'must be a phone number such as +15550100' },
      { index: 3, field: 'birthday', message: 'must be a date as YYYY-MM-DD or an ISO 8601 timestamp (a date field)' },
    ]);
    assert.equal(await importsOf(brandId), 0);
  });

  it('refuses a plan that is not a tier of this product, and uses a named one', async () => {
    const { key, url, ids, brandId } = await productBrand();
    const { details } = expectInvalid(await post(key, url, { records: people(1), plan: ids.free }));
    assert.deepEqual(details, [{ field: 'plan', message: `is not a tier of this product (its tiers are ${ids.seat}, ${ids.vip})` }]);
    assert.equal((await post(key, url, { records: people(1), plan: ids.seat })).statusCode, 202);
    await drainImports(t.db);
    const [m] = await t.db.query<{ plan: string }>('SELECT plan FROM memberships WHERE brand_id = $1', [brandId]);
    assert.equal(m.plan, ids.seat);
  });

  it('accepts bodies above the app-wide 4 MiB limit, up to 16 MiB', async () => {
    const { key, url, brandId } = await productBrand();
    const long = 'x'.repeat(2000);
    const records = Array.from({ length: 2500 }, (_, i) => ({ fullName: `P${i}`, email: `p${i}@example.com`, companyName: long }));
    const payload = JSON.stringify({ records });
    assert.ok(payload.length > 4 * 1024 * 1024);
    const res = await t.request({ method: 'POST', url, key, payload, headers: { 'content-type': 'application/json' } });
    assert.equal(res.statusCode, 202, res.body.slice(0, 300));
    await t.db.query('DELETE FROM imports WHERE brand_id = $1', [brandId]);
    const tooBig = await t.request({ method: 'POST', url, key, payload: `{"records":["${'y'.repeat(16 * 1024 * 1024)}"]}`, headers: { 'content-type': 'application/json' } });
    assert.equal(tooBig.statusCode, 413);
    assert.equal(tooBig.json().data.code, 'payload_too_large');
  });

  it('answers another brand\'s product with 404', async () => {
    const { key } = await productBrand();
    const other = await productBrand();
    const res = await post(key, other.url, { records: people(1) });
    assert.equal(res.statusCode, 404);
  });
});

describe('GET /imports/{id}', () => {
  runCommonRouteTests('GET /imports/{id}', {
    method: 'GET',
    scope: 'customers:write',
    foreign: 404,
    modeScoped: true,
    async setup({ t, brandId, mode }) {
      const ids = await loadCatalog(t.db, brandId, hubWithFreeTier);
      const { importID } = await queueForTest(t.db, brandId, mode, ids.h);
      return { url: `/api/v1/imports/${importID}`, marker: importID };
    },
  }, () => t);

  it('shows a queued import, then its counts and timestamps once processed', async () => {
    const { key, url, ids } = await hubBrand();
    const { importID } = (await post(key, url, { records: [...people(3), { fullName: 'Dup', email: 'PERSON0@example.com' }] })).json().data;
    const queued = (await t.request({ method: 'GET', url: `/api/v1/imports/${importID}`, key })).json().data;
    assert.deepEqual(queued, {
      id: importID, status: 'queued', mode: 'test', hubID: ids.h, plan: ids.free,
      count: 3, duplicates: 1, created: 0, alreadyPresent: 0, reactivated: 0, unchanged: 0, refused: 0, failed: 0, pending: 3,
      createdAt: queued.createdAt, updatedAt: queued.updatedAt,
    });
    assert.match(queued.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    await drainImports(t.db);
    const done = (await t.request({ method: 'GET', url: `/api/v1/imports/${importID}`, key })).json().data;
    assert.equal(done.status, 'completed');
    assert.deepEqual([done.count, done.created, done.alreadyPresent, done.failed, done.pending], [3, 3, 0, 0, 0]);
    assert.ok(done.startedAt >= done.createdAt && done.finishedAt >= done.startedAt);
  });

  it('answers an unknown id with 404', async () => {
    const { key } = await hubBrand();
    for (const id of ['imp_nope', '%00']) {
      const res = await t.request({ method: 'GET', url: `/api/v1/imports/${id}`, key });
      assert.equal(res.statusCode, 404);
      assert.equal(res.json().data.code, 'not_found');
    }
  });
});

describe('IMPORT_BATCH_SIZE', () => {
  it('defaults to 1000 and refuses values outside 1 to 10,000 naming the variable', () => {
    assert.equal(loadConfig({}).importBatchSize, 1000);
    assert.equal(loadConfig({ IMPORT_BATCH_SIZE: '250' }).importBatchSize, 250);
    for (const bad of ['0', '10001', 'lots', '-5']) {
      assert.throws(() => loadConfig({ IMPORT_BATCH_SIZE: bad }), (err: Error) =>
        err instanceof ConfigError && err.message === `IMPORT_BATCH_SIZE must be a whole number from 1 to 10000; got "${bad}".`);
    }
  });
});
