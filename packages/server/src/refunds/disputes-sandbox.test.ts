import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { cards, courseBody, createLink, eventsOf, submitCard } from '../testing/checkout-fixtures.ts';
import { newId } from '../ids.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { runCommonRouteTests } from '../testing/auth-checks.ts';
import { createBrandWithCatalog } from '../testing/factories.ts';
import { insertTransaction, setDispute } from '../transactions/repository.ts';

/**
 * Disputes offline (docs/refunds.md, Disputes): the sandbox's test card 4000 0000 0000 0259 pays,
 * then the buyer disputes the payment, through the same path as Stripe's charge.dispute.created;
 * POST /test/transactions/{txref}/dispute/close decides it as the bank would, a lost one being a refund.
 * Stripe's side is in disputes-stripe.test.ts.
 */
let t: TestApp;
before(async () => { t = await startTestApp(); });
after(async () => { await t.close(); });

const close = (key: string, txref: string, body: object) => t.request({ method: 'POST', url: `/api/v1/test/transactions/${txref}/dispute/close`, key, payload: body });

async function disputedPurchase() {
  const shop = await createBrandWithCatalog(t.db);
  const link = await createLink(t, shop.testKey, courseBody(shop.ids));
  assert.equal((await submitCard(t, link.path, cards.disputed)).statusCode, 303);
  const [row] = await t.db.query<{ txref: string }>('SELECT txref FROM transactions WHERE brand_id = $1 AND payment_link_id = $2', [shop.brand.id, link.id]);
  return { ...shop, txref: row.txref };
}

const transaction = async (key: string, txref: string) => (await t.request({ method: 'GET', url: `/api/v1/transactions/${txref}`, key })).json().data;
const memberships = async (brandId: string) => (await t.db.query<{ status: string }>('SELECT status FROM memberships WHERE brand_id = $1', [brandId])).map((m) => m.status);

describe('the sandbox\'s disputed test card', () => {
  it('pays, then opens a dispute: the transaction is marked and transaction.disputed follows transaction.succeeded; access stays', async () => {
    const { brand, testKey, txref } = await disputedPurchase();
    const tx = await transaction(testKey, txref);
    assert.equal(tx.status, 'succeeded');
    assert.deepEqual([tx.dispute.status, tx.dispute.reason, tx.dispute.amount], ['needs_response', 'fraudulent', 39.5]);
    assert.match(tx.dispute.id, /^sbx_du_/);
    const types = (await eventsOf(t, brand.id)).map((e) => e.type).filter((type) => type.startsWith('transaction.'));
    assert.deepEqual(types, ['transaction.succeeded', 'transaction.disputed']);
    const [disputed] = await eventsOf(t, brand.id, 'transaction.disputed');
    assert.equal(disputed.data.dispute.status, 'needs_response');
    assert.deepEqual(await memberships(brand.id), ['active'], 'access is left alone while the dispute is open');
  });

  it('closes lost: a refund of the disputed amount, transaction.refunded, and the access it bought ended', async () => {
    const { brand, testKey, txref } = await disputedPurchase();
    const res = await close(testKey, txref, { outcome: 'lost' });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().message, 'Sandbox dispute closed');
    const tx = res.json().data;
    assert.equal(tx.dispute.status, 'lost');
    assert.ok(tx.dispute.closedAt);
    assert.deepEqual([tx.status, tx.refundedAmount, tx.refunds.length, tx.refunds[0].reason], ['refunded', 39.5, 1, 'dispute lost (fraudulent)']);
    const disputed = await eventsOf(t, brand.id, 'transaction.disputed');
    assert.deepEqual(disputed.map((e) => e.data.dispute.status), ['needs_response', 'lost']);
    assert.equal((await eventsOf(t, brand.id, 'transaction.refunded')).length, 1);
    assert.deepEqual(await memberships(brand.id), ['removed']);

    const again = await close(testKey, txref, { outcome: 'won' });
    assert.equal(again.statusCode, 409, again.body);
    assert.match(again.json().message, /already closed \(lost\)/);
  });

  it('closes won: the payment stands, nothing refunded', async () => {
    const { brand, testKey, txref } = await disputedPurchase();
    const tx = (await close(testKey, txref, { outcome: 'won' })).json().data;
    assert.deepEqual([tx.dispute.status, tx.status, tx.refundedAmount], ['won', 'succeeded', 0]);
    assert.equal((await eventsOf(t, brand.id, 'transaction.refunded')).length, 0);
    assert.deepEqual(await memberships(brand.id), ['active']);
  });

  it('refuses a payment that is not disputed (409), a bad outcome (400 naming it), and a live key (404)', async () => {
    const shop = await createBrandWithCatalog(t.db);
    const link = await createLink(t, shop.testKey, courseBody(shop.ids));
    await submitCard(t, link.path, cards.ok);
    const [row] = await t.db.query<{ txref: string }>('SELECT txref FROM transactions WHERE brand_id = $1', [shop.brand.id]);
    const plain = await close(shop.testKey, row.txref, { outcome: 'lost' });
    assert.equal(plain.statusCode, 409);
    assert.match(plain.json().message, /not disputed.*4000 0000 0000 0259/);
    const bad = await close(shop.testKey, row.txref, { outcome: 'maybe' });
    assert.equal(bad.statusCode, 400);
    assert.match(bad.json().message, /outcome/);
    const live = await close(shop.liveKey, row.txref, { outcome: 'lost' });
    assert.equal(live.statusCode, 404);
    assert.match(live.json().message, /test mode only/);
  });

  runCommonRouteTests('POST /test/transactions/{id}/dispute/close', {
    method: 'POST',
    scope: 'transactions:write',
    foreign: 404,
    modeScoped: true,
    async setup({ t, brandId, mode }) {
      const row = await insertTransaction(t.db, {
        brand_id: brandId, id: newId('txn'), txref: `tx_${newId('txn').slice(4)}`, mode, type: 'purchase', status: 'succeeded', amount: 1000, currency: 'USD',
        customer_name: 'Ada Lovelace', customer_email: 'ada@example.com', resource_id: null, metadata: {}, payment_link_id: null,
        provider: 'sandbox', provider_reference: null,
      });
      await setDispute(t.db, brandId, row.id, { id: `sbx_du_${row.id}`, status: 'needs_response', amount: 1000, reason: 'fraudulent', createdAt: new Date().toISOString() });
      return { url: `/api/v1/test/transactions/${row.txref}/dispute/close`, body: { outcome: 'won' }, marker: row.txref };
    },
  }, () => t);
});
