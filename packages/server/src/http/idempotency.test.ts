import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../app.ts';
import { openPostgres } from '../db/client.ts';
import { cards, courseBody, submitCard } from '../testing/checkout-fixtures.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { testDbKind } from '../testing/db.ts';
import { createBrandWithCatalog } from '../testing/factories.ts';

let t: TestApp;
before(async () => { t = await startTestApp(); });
after(async () => { await t.close(); });

const linkCount = async (brandId: string) =>
  (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM payment_links WHERE brand_id = $1', [brandId]))[0].n;

const post = (key: string, idempotencyKey: string | undefined, payload: object, url = '/api/v1/payment-links') =>
  t.request({ method: 'POST', url, key, payload, headers: idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey } });

describe('Idempotency-Key', () => {
  it('answers a retry with the first answer, marked replayed, and makes one payment link', async () => {
    const shop = await createBrandWithCatalog(t.db);
    const first = await post(shop.testKey, 'order-1001', courseBody(shop.ids));
    assert.equal(first.statusCode, 200, first.body);
    assert.equal(first.headers['idempotent-replayed'], undefined);
    const again = await post(shop.testKey, 'order-1001', courseBody(shop.ids));
    assert.equal(again.statusCode, 200);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(again.body, first.body, 'the same bytes');
    assert.equal(await linkCount(shop.brand.id), 1);
    // Without a key every POST is a new link, as before.
    await post(shop.testKey, undefined, courseBody(shop.ids));
    await post(shop.testKey, undefined, courseBody(shop.ids));
    assert.equal(await linkCount(shop.brand.id), 3);
  });

  it('keeps a stored answer sealed: a new endpoint\'s signing secret is replayed but never stored in clear', async () => {
    const shop = await createBrandWithCatalog(t.db);
    const body = { url: 'https://hooks.example.com/in', events: ['member.joined'] };
    const first = await post(shop.testKey, 'endpoint-1', body, '/api/v1/webhooks');
    assert.equal(first.statusCode, 200, first.body);
    const secret = first.json().data.signingSecret as string;
    assert.match(secret, /^whsec_/);
    const [row] = await t.db.query<{ response_body: string }>('SELECT response_body FROM idempotency_keys WHERE brand_id = $1 AND key = $2', [shop.brand.id, 'endpoint-1']);
    assert.ok(!row.response_body.includes(secret) && !row.response_body.includes(secret.slice(6)), 'the secret is not in the stored row');
    const again = await post(shop.testKey, 'endpoint-1', body, '/api/v1/webhooks');
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(again.body, first.body, 'the same bytes, secret included');
    // Moved onto another key, the sealed answer does not open: it is refused (422), not replayed.
    await post(shop.testKey, 'endpoint-2', body, '/api/v1/webhooks');
    await t.db.query(`UPDATE idempotency_keys SET response_body = $1 WHERE brand_id = $2 AND key = 'endpoint-2'`, [row.response_body, shop.brand.id]);
    const moved = await post(shop.testKey, 'endpoint-2', body, '/api/v1/webhooks');
    assert.equal(moved.statusCode, 422, moved.body);
    assert.equal(moved.json().data.code, 'idempotency_key_reused');
    assert.ok(!moved.body.includes(secret));
  });

  it('refuses the same key with a different body with 422 idempotency_key_reused', async () => {
    const shop = await createBrandWithCatalog(t.db);
    assert.equal((await post(shop.testKey, 'k-reused', courseBody(shop.ids))).statusCode, 200);
    const other = await post(shop.testKey, 'k-reused', courseBody(shop.ids, { metadata: { order: '2' } }));
    assert.equal(other.statusCode, 422);
    assert.equal(other.json().data.code, 'idempotency_key_reused');
    assert.equal(await linkCount(shop.brand.id), 1);
  });

  it('runs one of many simultaneous twins; the others get the first answer or 409 idempotency_in_progress', async () => {
    const shop = await createBrandWithCatalog(t.db);
    const answers = await Promise.all(Array.from({ length: 8 }, () => post(shop.testKey, 'twins', courseBody(shop.ids))));
    const ok = answers.filter((a) => a.statusCode === 200);
    const busy = answers.filter((a) => a.statusCode === 409);
    assert.equal(ok.length + busy.length, answers.length, answers.map((a) => a.statusCode).join(','));
    for (const b of busy) assert.equal(b.json().data.code, 'idempotency_in_progress');
    assert.equal(new Set(ok.map((a) => a.json().data.id)).size, 1, 'every success names the same link');
    assert.equal(await linkCount(shop.brand.id), 1);
  });

  it('does not remember a 400: the key can be used again once the request is fixed', async () => {
    const shop = await createBrandWithCatalog(t.db);
    const refused = await post(shop.testKey, 'fix-me', courseBody(shop.ids, { items: [{ id: 'prod_nope', plan: shop.ids['brush-standard'], type: 'course' }] }));
    assert.equal(refused.statusCode, 400);
    const fixed = await post(shop.testKey, 'fix-me', courseBody(shop.ids));
    assert.equal(fixed.statusCode, 200, fixed.body);
  });

  it('remembers a 404, as Stripe does, and replays it', async () => {
    const shop = await createBrandWithCatalog(t.db);
    const patch = () => t.request({ method: 'PATCH', url: '/api/v1/webhooks/we_missing', key: shop.testKey, payload: { description: 'x' }, headers: { 'idempotency-key': 'p-404' } });
    const first = await patch();
    assert.equal(first.statusCode, 404);
    const again = await patch();
    assert.equal(again.statusCode, 404);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(again.json().data.requestId, first.json().data.requestId);
  });

  it('keeps keys apart per brand and mode', async () => {
    const a = await createBrandWithCatalog(t.db);
    const b = await createBrandWithCatalog(t.db);
    assert.equal((await post(a.testKey, 'shared', courseBody(a.ids))).headers['idempotent-replayed'], undefined);
    assert.equal((await post(b.testKey, 'shared', courseBody(b.ids))).headers['idempotent-replayed'], undefined);
    const live = await t.request({ method: 'POST', url: '/api/v1/webhooks', key: a.liveKey, payload: { url: 'https://hooks.example.com/x', events: ['member.joined'] }, headers: { 'idempotency-key': 'shared' } });
    assert.notEqual(live.headers['idempotent-replayed'], 'true');
  });

  it('refuses a key longer than 255 characters, naming the header', async () => {
    const shop = await createBrandWithCatalog(t.db);
    const res = await post(shop.testKey, 'k'.repeat(256), courseBody(shop.ids));
    assert.equal(res.statusCode, 400);
    assert.match(res.json().message, /idempotency-key/i);
    assert.equal(await linkCount(shop.brand.id), 0);
  });

  it('works for 202 imports and flows (verify) alike', async () => {
    const shop = await createBrandWithCatalog(t.db);
    const body = { records: [{ fullName: 'Ada Lovelace', email: 'ada@example.com' }] };
    const url = `/api/v1/hubs/${shop.ids['sketch-hub'] ?? Object.values(shop.ids).find((id) => id.startsWith('hub_'))}/members/import`;
    const first = await post(shop.testKey, 'imp-1', body, url);
    assert.equal(first.statusCode, 202, first.body);
    const again = await post(shop.testKey, 'imp-1', body, url);
    assert.equal(again.statusCode, 202);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(again.json().data.importID, first.json().data.importID);
    const imports = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM imports WHERE brand_id = $1', [shop.brand.id]);
    assert.equal(imports[0].n, 1);

    const link = (await post(shop.testKey, undefined, courseBody(shop.ids))).json().data;
    await submitCard(t, new URL(link.link).pathname, cards.ok);
    const [{ txref }] = await t.db.query<{ txref: string }>('SELECT txref FROM transactions WHERE brand_id = $1 AND payment_link_id = $2', [shop.brand.id, link.id]);
    const verified = await post(shop.testKey, 'verify-1', { txref }, '/api/v1/payments/verify');
    assert.equal(verified.statusCode, 200, verified.body);
    const replayed = await post(shop.testKey, 'verify-1', { txref }, '/api/v1/payments/verify');
    assert.equal(replayed.headers['idempotent-replayed'], 'true');
    assert.equal(replayed.body, verified.body);
  });

  it('documents the header on every write of the OpenAPI document', async () => {
    const doc = (await t.request({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    let writes = 0;
    const resolve = (p: { $ref?: string; name?: string; in?: string }) => (p.$ref ? doc.components.parameters[p.$ref.split('/').at(-1)!] : p);
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, { parameters?: { $ref?: string; name?: string; in?: string }[]; responses: Record<string, unknown> }>>)) {
      for (const [method, op] of Object.entries(ops)) {
        if (!['post', 'patch', 'delete'].includes(method)) continue;
        writes++;
        assert.ok(op.parameters?.map(resolve).some((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key'), `${method} ${path}`);
        assert.ok(op.responses['409'] && op.responses['422'], `${method} ${path} documents 409 and 422`);
      }
    }
    assert.ok(writes >= 9);
  });

  it('holds across processes sharing one PostgreSQL', {
    skip: testDbKind === 'pglite' ? 'needs PostgreSQL: an embedded database belongs to one process' : false,
  }, async () => {
    const shop = await createBrandWithCatalog(t.db);
    const db = openPostgres(t.url!, { searchPath: t.searchPath });
    const other = await buildApp({ ...t.deps, db });
    try {
      const first = await post(shop.testKey, 'two-processes', courseBody(shop.ids));
      const again = await other.inject({ method: 'POST', url: '/api/v1/payment-links', headers: { 'x-service-api': shop.testKey, 'idempotency-key': 'two-processes' }, payload: courseBody(shop.ids) });
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.equal(again.body, first.body);
      assert.equal(await linkCount(shop.brand.id), 1);
    } finally {
      await other.close();
      await db.close();
    }
  });
});

describe('idempotency key retention', () => {
  it('purges keys older than 24 hours and keeps the rest', async () => {
    const { purgeExpired } = await import('../idempotency/store.ts');
    const shop = await createBrandWithCatalog(t.db);
    await post(shop.testKey, 'old', courseBody(shop.ids));
    await post(shop.testKey, 'new', courseBody(shop.ids, { metadata: { n: '2' } }));
    await t.db.query(`UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE brand_id = $1 AND key = 'old'`, [shop.brand.id]);
    assert.equal(await purgeExpired(t.db, [shop.brand.id]), 1);
    const left = await t.db.query<{ key: string }>('SELECT key FROM idempotency_keys WHERE brand_id = $1', [shop.brand.id]);
    assert.deepEqual(left.map((r) => r.key), ['new']);
  });
});
