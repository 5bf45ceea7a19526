import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { runCommonRouteTests } from '../testing/auth-checks.ts';
import { createBrand, createKey, createTransaction } from '../testing/factories.ts';
import { advance, buyPlan, buyProduct, recurringBrand } from '../subscriptions/test-support.ts';
import { feeOf } from './service.ts';
import { insertPayout } from './repository.ts';
import { newId } from '../ids.ts';

let t: TestApp;
before(async () => { t = await startTestApp(); });
after(async () => { await t.close(); });

const settings = { feeBasisPoints: 500, feeFixed: 0.3, schedule: { everyMs: 86_400_000, offsetMs: 0 } };

async function payoutsOf(key: string) {
  const res = await t.request({ method: 'GET', url: '/api/v1/payouts?limit=100', key });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().data.items as any[];
}

describe('payouts', () => {
  it('computes the fee per transaction: 5% rounded half up plus 0.30 in the currency\'s units, never more than the amount', () => {
    assert.equal(feeOf(1000, 'USD', settings), 80); // 0.50 + 0.30
    assert.equal(feeOf(1999, 'USD', settings), 130); // 99.95 -> 100 cents + 30
    assert.equal(feeOf(735, 'EUR', settings), 67); // 36.75 -> 37 + 30
    assert.equal(feeOf(1000, 'JPY', settings), 50); // 50 yen + 0.30 yen -> 0
    assert.equal(feeOf(10, 'USD', settings), 10); // capped at the amount
    assert.equal(feeOf(0, 'USD', settings), 0);
    assert.equal(feeOf(1000, 'KWD', settings), 350); // 50 fils + 0.300 KWD
  });

  it('settles a mix of currencies to the cent at the next run, leaves out free items, and puts each transaction in exactly one payout', async () => {
    const b = await recurringBrand(t);
    await buyProduct(t, b, 'usd'); // 10.00 USD, fee 0.80
    await buyProduct(t, b, 'usd2'); // 19.99 USD, fee 1.30
    await buyProduct(t, b, 'eur'); // 7.35 EUR, fee 0.67
    await buyProduct(t, b, 'jpy'); // 1000 JPY, fee 50
    await buyProduct(t, b, 'free-p'); // free: no fee, no payout
    const { jobsRun } = await advance(t, b.key, { by: '1d' });
    assert.equal(jobsRun, 1);
    const first = await payoutsOf(b.key);
    const byCurrency = Object.fromEntries(first.map((p) => [p.currency, p]));
    assert.deepEqual(Object.keys(byCurrency).sort(), ['EUR', 'JPY', 'USD']);
    assert.equal(byCurrency.USD.amount, 27.89);
    assert.equal(byCurrency.USD.fee, 2.1);
    assert.equal(byCurrency.USD.transactionCount, 2);
    assert.equal(byCurrency.EUR.amount, 6.68);
    assert.equal(byCurrency.EUR.fee, 0.67);
    assert.equal(byCurrency.JPY.amount, 950);
    assert.equal(byCurrency.JPY.fee, 50);
    for (const p of first) {
      assert.equal(p.mode, 'test');
      assert.equal(p.settledAt, p.periodEnd);
      assert.ok(Date.parse(p.periodStart) < Date.parse(p.periodEnd));
      assert.equal(new Date(p.periodEnd).getUTCHours(), 0, 'daily at 00:00 UTC');
    }
    const events = await t.db.query<{ data: any }>('SELECT data FROM events WHERE brand_id = $1 AND type = \'payout.settled\'', [b.brandId]);
    assert.deepEqual(events.map((e) => e.data.id).sort(), first.map((p) => p.id).sort());

    // A later sale is in the next run only; a currency with nothing new gets no payout.
    await buyProduct(t, b, 'usd');
    await advance(t, b.key, { by: '1d' });
    const second = (await payoutsOf(b.key)).filter((p) => !first.some((f) => f.id === p.id));
    assert.equal(second.length, 1);
    assert.equal(second[0].currency, 'USD');
    assert.equal(second[0].amount, 9.2);
    assert.equal(second[0].periodStart, byCurrency.USD.periodEnd);

    const rows = await t.db.query<{ amount: number; payout_id: string | null; fee: number | null }>(
      'SELECT amount, payout_id, fee FROM transactions WHERE brand_id = $1 AND status = \'succeeded\'', [b.brandId]);
    for (const r of rows) {
      if (r.amount === 0) assert.equal(r.payout_id, null, 'free transactions are in no payout');
      else assert.ok(r.payout_id && [...first, ...second].some((p) => p.id === r.payout_id), 'each paid transaction is in one payout');
    }
    // Nothing left: further runs make nothing.
    await advance(t, b.key, { by: '3d' });
    assert.equal((await payoutsOf(b.key)).length, 4);
  });

  it('includes renewals: every transaction that succeeded before a run is in that run\'s payout', async () => {
    const b = await recurringBrand(t);
    await buyPlan(t, b, 'monthly');
    await advance(t, b.key, { by: '95d' }); // the purchase and 3 renewals
    const payouts = await payoutsOf(b.key);
    assert.equal(payouts.length, 4);
    for (const p of payouts) {
      assert.equal(p.amount, 4.45); // 5.00 - (0.25 + 0.30)
      assert.equal(p.transactionCount, 1);
    }
    const [unsettled] = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM transactions WHERE brand_id = $1 AND status = \'succeeded\' AND payout_id IS NULL', [b.brandId]);
    assert.equal(unsettled.n, 0);
  });
});

describe('GET /payouts', () => {
  runCommonRouteTests('GET /payouts', {
    method: 'GET',
    scope: 'transactions:read',
    foreign: 'hidden',
    modeScoped: true,
    async setup({ t, brandId, mode }) {
      const p = await insertPayout(t.db, {
        brand_id: brandId, id: newId('po'), mode, currency: 'USD', amount: 920, fee: 80, transaction_count: 1,
        period_start: new Date('2026-01-01T00:00:00Z'), period_end: new Date('2026-01-02T00:00:00Z'), settled_at: new Date('2026-01-02T00:00:00Z'),
      });
      return { url: '/api/v1/payouts', marker: p.id };
    },
  }, () => t);

  it('pages newest first with a cursor, and refuses a foreign cursor', async () => {
    const brand = await createBrand(t.db);
    const key = (await createKey(t.db, brand.id)).key;
    for (let i = 0; i < 3; i++) {
      await createTransaction(t.db, { brandId: brand.id, amount: 1000 + i });
      await t.db.query('INSERT INTO payout_schedules (brand_id, mode, period_start) VALUES ($1, \'test\', now()) ON CONFLICT DO NOTHING', [brand.id]);
      await advance(t, key, { by: '1d' });
    }
    const page1 = await t.request({ method: 'GET', url: '/api/v1/payouts?limit=2', key });
    assert.equal(page1.json().data.items.length, 2);
    assert.equal(page1.json().data.hasMore, true);
    const page2 = await t.request({ method: 'GET', url: `/api/v1/payouts?limit=2&cursor=${page1.json().data.nextCursor}`, key });
    assert.equal(page2.json().data.items.length, 1);
    assert.equal(page2.json().data.nextCursor, '');
    const bad = await t.request({ method: 'GET', url: '/api/v1/payouts?cursor=abc', key });
    assert.equal(bad.statusCode, 400);
  });
});

describe('GET /payouts/{id}', () => {
  runCommonRouteTests('GET /payouts/{id}', {
    method: 'GET',
    scope: 'transactions:read',
    foreign: 404,
    modeScoped: true,
    async setup({ t, brandId, mode }) {
      const p = await insertPayout(t.db, {
        brand_id: brandId, id: newId('po'), mode, currency: 'EUR', amount: 500, fee: 55, transaction_count: 2,
        period_start: new Date('2026-01-01T00:00:00Z'), period_end: new Date('2026-01-02T00:00:00Z'), settled_at: new Date('2026-01-02T00:00:00Z'),
      });
      return { url: `/api/v1/payouts/${p.id}`, marker: p.id };
    },
  }, () => t);
});
