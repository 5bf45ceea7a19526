import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../app.ts';
import { openPostgres } from '../db/client.ts';
import { sandboxProvider } from '../payments/sandbox.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { KeyCache } from '../keys/cache.ts';
import { runCommonRouteTests } from '../testing/auth-checks.ts';
import { createBrandWithCatalog, createKey, createTransaction } from '../testing/factories.ts';
import { testDbKind } from '../testing/db.ts';
import { registerEndpoint, startReceiver } from '../testing/receiver.ts';
import { beginPayment } from './flows.ts';
import { cards, courseBody, createLink, eventsOf, submitCard } from '../testing/checkout-fixtures.ts';

let t: TestApp;
before(async () => { t = await startTestApp({ worker: true }); });
after(async () => { await t.close(); });

const verify = (key: string, txref: string) => t.request({ method: 'POST', url: '/api/v1/payments/verify', key, payload: { txref } });

/**
 * A payment the provider confirmed but whose outcome never reached us (the process died, or the
 * callback was lost): the attempt is recorded and pending, the sandbox says it is settled.
 */
async function lostCallback(card: string) {
  const shop = await createBrandWithCatalog(t.db);
  const link = await createLink(t, shop.testKey, courseBody(shop.ids));
  const { payment: attempt } = await t.db.transaction((tx) => beginPayment(tx, t.deps.payments, shop.brand.id, link.id));
  const state = await sandboxProvider.confirmPayment(t.db, { brandId: shop.brand.id, reference: attempt.provider_reference!, details: { card } });
  assert.notEqual(state.status, 'pending');
  return { ...shop, link, attempt };
}

describe('POST /payments/verify', () => {
  runCommonRouteTests('POST /payments/verify', {
    method: 'POST',
    scope: ['transactions:read', 'checkout:write'],
    foreign: 404,
    modeScoped: true,
    async setup({ t, brandId, mode }) {
      const txn = await createTransaction(t.db, { brandId, mode, status: 'succeeded' });
      return { url: '/api/v1/payments/verify', body: { txref: txn.txref }, marker: txn.txref };
    },
  }, () => t);

  it('accepts transactions:read or checkout:write, and refuses a key with neither', async () => {
    const { brand } = await createBrandWithCatalog(t.db);
    const txn = await createTransaction(t.db, { brandId: brand.id });
    for (const scopes of [['transactions:read'], ['checkout:write']] as const) {
      const k = await createKey(t.db, brand.id, { scopes: [...scopes] });
      assert.equal((await verify(k.key, txn.txref)).statusCode, 200, scopes[0]);
    }
    const none = await createKey(t.db, brand.id, { scopes: ['products:read', 'customers:read', 'customers:write', 'webhooks:write'] });
    const res = await verify(none.key, txn.txref);
    assert.equal(res.statusCode, 403);
    assert.equal(res.json().data.code, 'scope_missing');
    assert.match(res.json().message, /transactions:read or checkout:write/);
  });

  it('documents its scopes in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const description: string = doc.paths['/payments/verify'].post.description;
    assert.match(description, /transactions:read` or `checkout:write/);
    assert.doesNotMatch(description, /no scope needed/);
  });

  it('returns the transaction as it stands, with the link\'s metadata', async () => {
    const { brand, ids, testKey } = await createBrandWithCatalog(t.db);
    const link = await createLink(t, testKey, courseBody(ids, { metadata: { cart: 'c_9' } }));
    const paid = await submitCard(t, link.path, cards.ok);
    const txref = new URL(String(paid.headers.location), 'http://x').searchParams.get('txref')!;
    const res = await verify(testKey, txref);
    assert.equal(res.statusCode, 200);
    assert.deepEqual({ ...res.json().data, createdAt: 'x', updatedAt: 'x' }, {
      txref, type: 'purchase', status: 'succeeded', amount: 39.5, currency: 'USD', customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
      createdAt: 'x', resourceID: ids['brush-course'], metadata: { cart: 'c_9' }, refundedAmount: 0, refunds: [], version: 2, updatedAt: 'x',
    });
    await verify(testKey, txref);
    assert.equal((await eventsOf(t, brand.id)).length, 2, 'verifying a settled transaction records nothing');
  });

  it('settles a payment whose callback was lost exactly once, however many verifies race (20 at once)', async () => {
    const { brand, ids, testKey, attempt } = await lostCallback(cards.ok);
    const before = await t.request({ method: 'GET', url: `/api/v1/transactions/${attempt.txref}`, key: testKey });
    assert.equal(before.json().data.status, 'pending');
    assert.equal((await eventsOf(t, brand.id)).length, 0);

    const answers = await Promise.all(Array.from({ length: 20 }, () => verify(testKey, attempt.txref)));
    for (const res of answers) {
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().data.status, 'succeeded');
    }
    const events = await eventsOf(t, brand.id);
    assert.deepEqual(events.map((e) => e.type), ['transaction.succeeded', 'member.joined']);
    const customers = (await t.request({ method: 'GET', url: `/api/v1/products/${ids['brush-course']}/customers`, key: testKey })).json().data.items;
    assert.equal(customers.length, 1);

    // The buyer pressing Pay again afterwards lands on the same transaction, charged once.
    const again = await submitCard(t, `/checkout/${brand.id}/${attempt.payment_link_id}`, cards.ok);
    assert.match(String(again.headers.location), new RegExp(attempt.txref));
    assert.equal((await eventsOf(t, brand.id)).length, 2);
  });

  it('records a decline the callback missed as failed, with one transaction.failed', async () => {
    const { brand, testKey, attempt } = await lostCallback(cards.declined);
    await Promise.all(Array.from({ length: 5 }, () => verify(testKey, attempt.txref)));
    assert.equal((await verify(testKey, attempt.txref)).json().data.status, 'failed');
    assert.deepEqual((await eventsOf(t, brand.id)).map((e) => e.type), ['transaction.failed']);
  });

  it('settles from another server process: the sandbox keeps nothing in memory', {
    skip: testDbKind === 'pglite' ? 'needs PostgreSQL: an embedded database belongs to one process' : false,
  }, async () => {
    const { brand, testKey, attempt } = await lostCallback(cards.ok);
    // A second API server with its own connection pool on the same database, as a second process would be.
    const db = openPostgres(t.url!, { searchPath: t.searchPath });
    const other = await buildApp({ ...t.deps, db, keyCache: new KeyCache(0), config: { ...t.config, publicUrl: 'http://other.example' } });
    try {
      const res = await other.inject({ method: 'POST', url: '/api/v1/payments/verify', headers: { 'x-service-api': testKey }, payload: { txref: attempt.txref } });
      assert.equal(res.json().data.status, 'succeeded', res.body);
    } finally {
      await other.close();
      await db.close();
    }
    assert.deepEqual((await eventsOf(t, brand.id)).map((e) => e.type), ['transaction.succeeded', 'member.joined']);
  });

  it('leaves a payment the buyer never confirmed pending', async () => {
    const shop = await createBrandWithCatalog(t.db);
    const link = await createLink(t, shop.testKey, courseBody(shop.ids));
    const { payment: attempt } = await t.db.transaction((tx) => beginPayment(tx, t.deps.payments, shop.brand.id, link.id));
    assert.equal((await verify(shop.testKey, attempt.txref)).json().data.status, 'pending');
    assert.equal((await eventsOf(t, shop.brand.id)).length, 0);
  });

  it('answers 404 for an unknown txref, another brand\'s, and the other mode\'s', async () => {
    const { brand, testKey, liveKey, attempt } = await lostCallback(cards.ok);
    const other = await createBrandWithCatalog(t.db);
    for (const [key, txref] of [[testKey, 'tx_unknown'], [other.testKey, attempt.txref], [liveKey, attempt.txref]]) {
      const res = await verify(key, txref);
      assert.equal(res.statusCode, 404);
      assert.equal(res.json().data.code, 'not_found');
    }
    assert.equal((await eventsOf(t, brand.id)).length, 0, 'a refused verify changes nothing');
  });
});

describe('webhooks from a purchase', () => {
  it('delivers transaction.succeeded and member.joined, signed, to the brand\'s endpoint', async () => {
    const { ids, testKey } = await createBrandWithCatalog(t.db);
    const rx = await startReceiver();
    try {
      const endpoint = await registerEndpoint(t, testKey, rx.url, ['transaction.succeeded', 'member.joined']);
      rx.secret = endpoint.signingSecret;
      const link = await createLink(t, testKey, courseBody(ids));
      await submitCard(t, link.path, cards.ok);
      const got = await rx.waitFor(2);
      assert.ok(got.every((d) => d.verified), 'both signatures match the raw body');
      const byType = Object.fromEntries(got.map((d) => [d.json.type, d.json]));
      assert.deepEqual(Object.keys(byType).sort(), ['member.joined', 'transaction.succeeded']);
      assert.equal(byType['transaction.succeeded'].data.status, 'succeeded');
      assert.equal(byType['transaction.succeeded'].data.amount, 39.5);
      assert.equal(byType['member.joined'].data.email, 'ada@example.com');
      assert.equal(byType['member.joined'].data.plan, ids['brush-standard']);
    } finally {
      await rx.close();
    }
  });
});
