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
