import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { runCommonRouteTests } from '../testing/auth-checks.ts';
import { createBrand, createKey, createTransaction } from '../testing/factories.ts';
import { advance, buyPlan, buyProduct, recurringBrand } from '../testing/subscriptions.ts';
import { feeOf } from '../transactions/service.ts';
import { insertPayout } from './repository.ts';
import { newId } from '../ids.ts';
import { createLink, submitCard } from '../testing/checkout-fixtures.ts';

let t: TestApp;
before(async () => { t = await startTestApp(); });
after(async () => { await t.close(); });

const settings = { feeBasisPoints: 500, feeFixed: 0.3, schedule: { everyMs: 86_400_000, offsetMs: 0 }, affiliateHoldMs: 30 * 86_400_000 };

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

describe('payout lines', () => {
  /** A payout's lines in minor units: they must add up to its amount exactly. */
  async function checkLines(key: string, p: any) {
    const res = await t.request({ method: 'GET', url: `/api/v1/payouts/${p.id}`, key });
    assert.equal(res.statusCode, 200, res.body);
    const detail = res.json().data;
    const unit = p.currency === 'JPY' ? 1 : 100;
    const minor = (x: number) => Math.round(x * unit);
    assert.equal(detail.lines.reduce((sum: number, l: any) => sum + minor(l.amount), 0), minor(p.amount), `${p.currency} lines add up to the amount`);
    assert.equal(minor(p.gross) - minor(p.fee) - minor(p.refunded) - minor(p.affiliateCommission), minor(p.amount));
    const sumOf = (type: string) => detail.lines.filter((l: any) => l.type === type).reduce((sum: number, l: any) => sum + minor(l.amount), 0);
    assert.equal(sumOf('payment'), minor(p.gross));
    assert.equal(sumOf('fee'), 0 - minor(p.fee));
    assert.equal(sumOf('refund'), 0 - minor(p.refunded));
    assert.equal(sumOf('affiliate_commission'), 0 - minor(p.affiliateCommission));
    assert.equal(detail.lines.filter((l: any) => l.type === 'affiliate_commission').length, p.commissionCount);
    return detail;
  }

  it('lists payments, fees, refunds and affiliate commissions, adding up to the cent in every currency', async () => {
    const b = await recurringBrand(t);
    const made = await t.request({ method: 'POST', url: '/api/v1/affiliates', key: b.key, payload: { name: 'Rita', email: 'rita@example.com', code: 'RITA', commissionPercent: 20 } });
    assert.equal(made.statusCode, 200, made.body);
    const rita = made.json().data;
    const attributed = async (ref: string) => {
      const link = await createLink(t, b.key, {
        items: [{ id: b.ids[ref], plan: b.ids[`${ref}-t`], type: 'digital', affiliate: 'rita' }],
        form: { formData: { fullName: 'Grace Hopper', email: 'grace@example.com' } },
      });
      assert.equal((await submitCard(t, link.path, '4242 4242 4242 4242')).statusCode, 303);
      const [row] = await t.db.query<{ txref: string }>('SELECT txref FROM transactions WHERE payment_link_id = $1', [link.id]);
      return row.txref;
    };
    const usd = await attributed('usd'); // 10.00, fee 0.80
    await attributed('usd2'); // 19.99, fee 1.30
    await attributed('eur'); // 7.35, fee 0.67
    await attributed('jpy'); // 1000, fee 50
    const refund = await t.request({ method: 'POST', url: `/api/v1/transactions/${usd}/refund`, key: b.key, payload: { amount: 5 } });
    assert.equal(refund.statusCode, 200, refund.body);

    await advance(t, b.key, { by: '1d' }); // commissions are still in their 30-day hold
    const first = await payoutsOf(b.key);
    assert.deepEqual(first.map((p) => [p.currency, p.gross, p.fee, p.refunded, p.affiliateCommission, p.amount]).sort(), [
      ['EUR', 7.35, 0.67, 0, 0, 6.68], ['JPY', 1000, 50, 0, 0, 950], ['USD', 29.99, 2.1, 5, 0, 22.89],
    ]);
    for (const p of first) await checkLines(b.key, p);

    // Day 31: commissions earned. A new USD sale pays for the USD ones; EUR and JPY have no sale, so theirs are carried forward.
    await advance(t, b.key, { by: '29d' });
    await buyProduct(t, b, 'usd');
    await advance(t, b.key, { by: '2d' });
    const second = (await payoutsOf(b.key)).filter((p) => !first.some((f) => f.id === p.id));
    assert.equal(second.length, 1);
    // 20% of net: 10.00 − 0.80 − 5.00 refunded in the hold = 4.20 → 0.84; 19.99 − 1.30 = 18.69 → 3.738 → 3.74
    assert.deepEqual([second[0].currency, second[0].gross, second[0].fee, second[0].affiliateCommission, second[0].commissionCount, second[0].amount],
      ['USD', 10, 0.8, 4.58, 2, 4.62]);
    const detail = await checkLines(b.key, second[0]);
    assert.ok(detail.lines.every((l: any) => l.type !== 'affiliate_commission' || l.affiliateID === rita.id));

    await buyProduct(t, b, 'eur');
    await buyProduct(t, b, 'jpy');
    await advance(t, b.key, { by: '1d' });
    const third = (await payoutsOf(b.key)).filter((p) => ![...first, ...second].some((f) => f.id === p.id));
    assert.deepEqual(third.map((p) => [p.currency, p.gross, p.fee, p.affiliateCommission, p.amount]).sort(), [
      ['EUR', 7.35, 0.67, 1.34, 5.34], ['JPY', 1000, 50, 190, 760],
    ]);
    for (const p of third) await checkLines(b.key, p);
    const stats = (await t.request({ method: 'GET', url: `/api/v1/affiliates/${rita.id}`, key: b.key })).json().data.stats;
    assert.deepEqual(stats.map((s: any) => [s.currency, s.pending, s.earned, s.paidOut]), [['EUR', 0, 1.34, 1.34], ['JPY', 0, 190, 190], ['USD', 0, 4.58, 4.58]]);
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
