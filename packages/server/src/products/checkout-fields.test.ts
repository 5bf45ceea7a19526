import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadCatalog } from '../catalog/load.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { createBrand, createKey } from '../testing/factories.ts';

let t: TestApp;
before(async () => { t = await startTestApp(); });
after(async () => { await t.close(); });

/** A product asking for a number, and the two ways answers arrive: a checkout and an import. */
async function shop() {
  const brand = await createBrand(t.db);
  const key = (await createKey(t.db, brand.id)).key;
  const ids = await t.db.transaction((tx) => loadCatalog(tx, brand.id, {
    products: [{
      ref: 'class', title: 'Pottery class', type: 'service',
      tiers: [{ ref: 'seat', name: 'Seat', price: { amount: 10, currency: 'USD' } }],
      checkoutFields: [{ label: 'Seats wanted', type: 'number' }, { label: 'Start date', type: 'date' }],
    }],
  }));
  const checkout = (answers: Record<string, unknown>) => t.request({
    method: 'POST', url: '/api/v1/payment-links', key,
    payload: { items: [{ id: ids.class, plan: ids.seat, type: 'service' }], form: { formData: { fullName: 'Ada Lovelace', email: 'ada@example.com', ...answers } } },
  });
  const importing = (answers: Record<string, unknown>) => t.request({
    method: 'POST', url: `/api/v1/products/${ids.class}/customers/import`, key,
    payload: { records: [{ fullName: 'Ada Lovelace', email: `ada${Math.random()}@example.com`, ...answers }] },
  });
  return { checkout, importing };
}

describe('checkout fields: one rule for checkout and imports', () => {
  it('refuses a numeric string for a number field in both, and takes a number in both', async () => {
    const { checkout, importing } = await shop();
    for (const send of [checkout, importing]) {
      const refused = await send({ seatsWanted: '42' });
      assert.equal(refused.statusCode, 400, refused.body);
      assert.match(refused.json().message, /seatsWanted.*must be a number/);
      const taken = await send({ seatsWanted: 42 });
      assert.ok([200, 202].includes(taken.statusCode), taken.body);
    }
  });

  it('takes the same date forms in both and refuses an impossible date in both', async () => {
    const { checkout, importing } = await shop();
    for (const send of [checkout, importing]) {
      for (const ok of ['2027-02-28', '2027-02-28T10:00:00Z']) assert.ok([200, 202].includes((await send({ startDate: ok })).statusCode), ok);
      const refused = await send({ startDate: '2027-02-30' });
      assert.equal(refused.statusCode, 400);
      assert.match(refused.json().message, /startDate/);
    }
  });
});
