import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { runCommonRouteTests } from '../testing/auth-checks.ts';
import { createBrandWithCatalog, createTransaction } from '../testing/factories.ts';

let t: TestApp;
before(async () => { t = await startTestApp(); });
after(async () => { await t.close(); });

describe('GET /transactions', () => {
  runCommonRouteTests('GET /transactions', {
    method: 'GET',
    scope: 'transactions:read',
    foreign: 'hidden',
    modeScoped: true,
    async setup({ t, brandId, mode }) {
      const tx = await createTransaction(t.db, { brandId, mode });
      return { url: '/api/v1/transactions', marker: tx.txref };
    },
  }, () => t);

  it('renders amounts in major units with the reference\'s fields', async () => {
    const { brand, ids, testKey } = await createBrandWithCatalog(t.db);
    const tx = await createTransaction(t.db, { brandId: brand.id, amount: 2550, resourceId: ids['brush-course'], metadata: { orderRef: 'A-1' } });
    const jpy = await createTransaction(t.db, { brandId: brand.id, amount: 500, currency: 'JPY' });
    const res = await t.request({ method: 'GET', url: '/api/v1/transactions', key: testKey });
    // Both rows may share a millisecond, and then their order is up to their random ids: pick them
    // out by txref (newest-first ordering has its own tests in db/paging.test.ts).
    const items = res.json().data.items as any[];
    assert.equal(items.length, 2);
    const yen = items.find((i) => i.txref === jpy.txref);
    const dollars = items.find((i) => i.txref === tx.txref);
    assert.equal(yen.amount, 500);
    assert.equal(yen.currency, 'JPY');
    assert.deepEqual(dollars, {
      txref: tx.txref,
      type: 'purchase',
      status: 'succeeded',
      amount: 25.5,
      currency: 'USD',
      customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
      createdAt: tx.created_at.toISOString(),
      resourceID: ids['brush-course'],
      metadata: { orderRef: 'A-1' },
      refundedAmount: 0,
      refunds: [],
      // 5% of 25.50 rounded half up (1.28) plus 0.30: the fee its payout will charge.
      fee: 1.58,
      net: 23.92,
      version: 1,
      updatedAt: tx.updated_at.toISOString(),
    });
  });
});

describe('GET /transactions/{id}', () => {
  runCommonRouteTests('GET /transactions/{id}', {
    method: 'GET',
    scope: 'transactions:read',
    foreign: 404,
    modeScoped: true,
    async setup({ t, brandId, mode }) {
      const tx = await createTransaction(t.db, { brandId, mode });
      return { url: `/api/v1/transactions/${tx.txref}`, marker: tx.txref };
    },
  }, () => t);

  it('addresses a transaction by its txref, not its internal id', async () => {
    const { brand, testKey } = await createBrandWithCatalog(t.db);
    const tx = await createTransaction(t.db, { brandId: brand.id });
    assert.equal((await t.request({ method: 'GET', url: `/api/v1/transactions/${tx.txref}`, key: testKey })).statusCode, 200);
    assert.equal((await t.request({ method: 'GET', url: `/api/v1/transactions/${tx.id}`, key: testKey })).statusCode, 404);
  });
});

describe('GET /transactions filters and GET /transactions/totals', () => {
  runCommonRouteTests('GET /transactions/totals', {
    method: 'GET',
    scope: 'transactions:read',
    foreign: 'hidden',
    modeScoped: true,
    async setup({ t, brandId, mode }) {
      await createTransaction(t.db, { brandId, mode, currency: 'SEK' });
      return { url: '/api/v1/transactions/totals', marker: 'SEK' };
    },
  }, () => t);

  it('filters by status, product, dates and a search of txref or email, and adds them up per currency', async () => {
    const { brand, ids, testKey } = await createBrandWithCatalog(t.db);
    const course = ids['brush-course'];
    const a = await createTransaction(t.db, { brandId: brand.id, amount: 1000, resourceId: course, email: 'Grace.Hopper@example.com' });
    const b = await createTransaction(t.db, { brandId: brand.id, amount: 2000, resourceId: course, status: 'failed' });
    const c = await createTransaction(t.db, { brandId: brand.id, amount: 500, currency: 'JPY', email: 'ada_100%@example.com' });
    await t.db.query('UPDATE transactions SET created_at = $2 WHERE id = $1', [c.id, '2026-01-15T12:00:00Z']);
    await t.db.query('UPDATE transactions SET refunded_amount = 250 WHERE id = $1', [a.id]);
    const list = async (query: string) => (await t.request({ method: 'GET', url: `/api/v1/transactions?${query}`, key: testKey })).json().data.items.map((i: any) => i.txref).sort();
    assert.deepEqual(await list('status=failed'), [b.txref]);
    assert.deepEqual(await list(`resourceID=${course}`), [a.txref, b.txref].sort());
    assert.deepEqual(await list('q=grace.hopper'), [a.txref], 'part of the email, ignoring case');
    assert.deepEqual(await list(`q=${b.txref}`), [b.txref], 'the txref');
    assert.deepEqual(await list('q=_100%25'), [c.txref], '% and _ are plain characters');
    assert.deepEqual(await list('q=%25'), [c.txref]);
    assert.deepEqual(await list('createdBefore=2026-02-01T00:00:00Z'), [c.txref]);
    assert.deepEqual(await list('createdFrom=2026-02-01T00:00:00Z'), [a.txref, b.txref].sort());
    assert.deepEqual(await list(`createdFrom=2026-02-01T00:00:00Z&status=succeeded&resourceID=${course}`), [a.txref]);

    const page1 = (await t.request({ method: 'GET', url: `/api/v1/transactions?resourceID=${course}&limit=1`, key: testKey })).json().data;
    const page2 = (await t.request({ method: 'GET', url: `/api/v1/transactions?resourceID=${course}&limit=1&cursor=${page1.nextCursor}`, key: testKey })).json().data;
    assert.deepEqual([...page1.items, ...page2.items].map((i: any) => i.txref).sort(), [a.txref, b.txref].sort(), 'pages keep the filter');
    assert.equal(page2.hasMore, false);

    const totals = (await t.request({ method: 'GET', url: '/api/v1/transactions/totals', key: testKey })).json().data;
    assert.deepEqual(totals.items, [
      { currency: 'JPY', count: 1, paidCount: 1, paid: 500, refunded: 0 },
      { currency: 'USD', count: 2, paidCount: 1, paid: 10, refunded: 2.5 },
    ]);
    const failed = (await t.request({ method: 'GET', url: '/api/v1/transactions/totals?status=failed', key: testKey })).json().data;
    assert.deepEqual(failed.items, [{ currency: 'USD', count: 1, paidCount: 0, paid: 0, refunded: 0 }]);
  });

  it('names the parameter when a filter is not one', async () => {
    const { testKey } = await createBrandWithCatalog(t.db);
    for (const [query, field] of [['status=lost', 'status'], ['createdFrom=yesterday', 'createdFrom'], ['q=', 'q']]) {
      const res = await t.request({ method: 'GET', url: `/api/v1/transactions/totals?${query}`, key: testKey });
      assert.equal(res.statusCode, 400, query);
      assert.match(res.json().message, new RegExp(field), query);
      const listed = await t.request({ method: 'GET', url: `/api/v1/transactions?${query}`, key: testKey });
      assert.equal(listed.statusCode, 400, query);
    }
  });
});
