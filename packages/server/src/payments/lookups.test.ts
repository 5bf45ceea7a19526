import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadCatalog } from '../catalog/load.ts';
import { cards, courseBody, createLink, submitCard } from '../testing/checkout-fixtures.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { createBrand, createBrandWithCatalog, createKey } from '../testing/factories.ts';

/**
 * Look-ups keyed by what a user typed (a card number, a catalog ref, a checkout field id) must
 * not find Object.prototype's members: "constructor", "__proto__", "toString".
 */
let t: TestApp;
before(async () => { t = await startTestApp(); });
after(async () => { await t.close(); });

const prototypeNames = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];

describe('look-ups keyed by user input', () => {
  it('refuses "constructor" or "__proto__" as a sandbox card, recording nothing', async () => {
    const { brand, ids, testKey } = await createBrandWithCatalog(t.db);
    const link = await createLink(t, testKey, courseBody(ids));
    for (const card of prototypeNames) {
      const res = await submitCard(t, link.path, card);
      assert.equal(res.statusCode, 400, card);
      assert.match(res.body, /not a sandbox test card/, card);
    }
    const rows = await t.db.query('SELECT status FROM transactions WHERE brand_id = $1', [brand.id]);
    assert.deepEqual(rows, [], 'no pending transaction was recorded');
    assert.equal((await submitCard(t, link.path, cards.ok)).statusCode, 303, 'a real test card still pays');
  });

  it('does not count Object.prototype as the answer to a required field named "constructor"', async () => {
    const brand = await createBrand(t.db);
    const key = await createKey(t.db, brand.id);
    const ids = await loadCatalog(t.db, brand.id, {
      products: [{
        ref: 'p', type: 'digital', title: 'Guide',
        tiers: [{ ref: 't', name: 'T', price: { amount: 5, currency: 'USD' } }],
        checkoutFields: [{ label: 'Constructor', type: 'text', required: true }],
      }],
    });
    const body = { items: [{ id: ids.p, plan: ids.t, type: 'digital' }], form: { formData: { fullName: 'Ada', email: 'ada@example.com' } } };
    const res = await t.request({ method: 'POST', url: '/api/v1/payment-links', key: key.key, payload: body });
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(res.json().data.details[0].field, 'form.formData.constructor');
  });
});
