import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Queryable } from '../db/client.ts';
import type { Mode } from '../auth/principal.ts';
import { cards, courseBody, createLink, eventsOf, submitCard } from '../testing/checkout-fixtures.ts';
import { newId } from '../ids.ts';
import { sandboxProvider } from '../payments/sandbox.ts';
import { advance, buyPlan, buyProduct, member, recurringBrand } from '../testing/subscriptions.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { runCommonRouteTests } from '../testing/auth-checks.ts';
import { createBrandWithCatalog, createKey, createTransaction } from '../testing/factories.ts';
import { insertTransaction } from '../transactions/repository.ts';

/**
 * Refunds through the built-in sandbox (docs/refunds.md), on the real app and database: full,
 * partial and several partials, the refusals, idempotency (the key, and by design), access ended
 * or kept, and payouts deducting refunds. Stripe's side is in refunds-stripe.test.ts, delivery of
 * transaction.refunded to a real receiver in refunds-webhook.test.ts.
 */
let t: TestApp;
before(async () => { t = await startTestApp(); });
after(async () => { await t.close(); });

/** A sandbox payment that succeeded, and its transaction, as checkout leaves them (without a link). */
async function paidTransaction(db: Queryable, brandId: string, mode: Mode = 'test', amount = 2550) {
  const reference = `sbx_${newId('txn').slice(4)}`;
  await db.query(
    'INSERT INTO sandbox_payments (brand_id, reference, amount, currency, description, status, card) VALUES ($1, $2, $3, \'USD\', \'test\', \'succeeded\', \'4242424242424242\')',
    [brandId, reference, amount],
  );
  return insertTransaction(db, {
    brand_id: brandId, id: newId('txn'), txref: `tx_${newId('txn').slice(4)}`, mode, type: 'purchase', status: 'succeeded', amount, currency: 'USD',
    customer_name: 'Ada Lovelace', customer_email: 'ada@example.com', resource_id: null, metadata: {}, payment_link_id: null,
    provider: 'sandbox', provider_reference: reference,
  });
}

const refund = (key: string, txref: string, body: object = {}, headers: Record<string, string> = {}) =>
  t.request({ method: 'POST', url: `/api/v1/transactions/${txref}/refund`, key, payload: body, headers });

async function txOf(key: string, txref: string) {
  const res = await t.request({ method: 'GET', url: `/api/v1/transactions/${txref}`, key });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().data;
}

/** The one paid transaction of a link bought through the hosted page. */
async function paidTxref(brandId: string, linkId: string) {
  const [row] = await t.db.query<{ txref: string }>('SELECT txref FROM transactions WHERE brand_id = $1 AND payment_link_id = $2 AND status = \'succeeded\'', [brandId, linkId]);
  return row.txref;
}

describe('POST /transactions/{id}/refund', () => {
  runCommonRouteTests('POST /transactions/{id}/refund', {
    method: 'POST',
    scope: 'transactions:write',
    foreign: 404,
    modeScoped: true,
    async setup({ t, brandId, mode }) {
      const tx = await paidTransaction(t.db, brandId, mode);
      return { url: `/api/v1/transactions/${tx.txref}/refund`, body: {}, marker: tx.txref };
    },
  }, () => t);

  it('refunds a purchase in full: status refunded, the refund listed, transaction.refunded, and the access it bought removed', async () => {
    const { brand, ids, testKey } = await createBrandWithCatalog(t.db);
    const link = await createLink(t, testKey, courseBody(ids));
    assert.equal((await submitCard(t, link.path, cards.ok)).statusCode, 303);
    const txref = await paidTxref(brand.id, link.id);

    const res = await refund(testKey, txref, { reason: 'Changed their mind' });
    assert.equal(res.statusCode, 200, res.body);
    const data = res.json().data;
    assert.equal(data.status, 'refunded');
    assert.equal(data.amount, 39.5);
    assert.equal(data.refundedAmount, 39.5);
    assert.equal(data.refunds.length, 1);
    assert.deepEqual({ ...data.refunds[0], id: undefined, createdAt: undefined }, { id: undefined, amount: 39.5, reason: 'Changed their mind', status: 'succeeded', createdAt: undefined });
    assert.match(data.refunds[0].id, /^rfd_/);
    assert.deepEqual(await txOf(testKey, txref), data, 'GET shows what the refund answered');

    const [refunded] = await eventsOf(t, brand.id, 'transaction.refunded');
    assert.equal(refunded.data.txref, txref);
    assert.equal(refunded.data.refund.id, data.refunds[0].id);
    assert.equal(refunded.data.refund.amount, 39.5);
    assert.equal(refunded.data.version, data.version);
    const removed = await eventsOf(t, brand.id, 'member.removed');
    assert.equal(removed.length, 1);
    assert.equal(removed[0].data.status, 'removed');
    assert.equal(removed[0].data.productID, ids['brush-course']);
    const order = (await eventsOf(t, brand.id)).map((e) => e.type);
    assert.ok(order.indexOf('transaction.refunded') < order.indexOf('member.removed'), 'the refund is announced before the access it ends');
    const [sbx] = await t.db.query<{ status: string; refunded_amount: number }>('SELECT status, refunded_amount FROM sandbox_payments WHERE brand_id = $1', [brand.id]);
    assert.deepEqual({ ...sbx }, { status: 'refunded', refunded_amount: 3950 }, 'the sandbox gave the money back once');

    const again = await refund(testKey, txref);
    assert.equal(again.statusCode, 409);
    assert.equal(again.json().data.code, 'conflict');
    assert.match(again.json().message, /already fully refunded/);
  });

  it('takes several partial refunds up to the amount paid, keeps access by default, and refuses more than is left naming amount', async () => {
    const { brand, ids, testKey } = await createBrandWithCatalog(t.db);
    const link = await createLink(t, testKey, courseBody(ids));
    await submitCard(t, link.path, cards.ok);
    const txref = await paidTxref(brand.id, link.id);

    const first = await refund(testKey, txref, { amount: 10 });
    assert.equal(first.statusCode, 200, first.body);
    assert.equal(first.json().data.status, 'succeeded');
    assert.equal(first.json().data.refundedAmount, 10);
    const second = await refund(testKey, txref, { amount: 9.25 });
    assert.equal(second.json().data.refundedAmount, 19.25);

    const over = await refund(testKey, txref, { amount: 20.26 });
    assert.equal(over.statusCode, 400);
    assert.equal(over.json().data.code, 'validation_failed');
    assert.deepEqual(over.json().data.details.map((d: any) => d.field), ['amount']);
    assert.match(over.json().message, /more than the 20\.25 USD left/);
    const decimals = await refund(testKey, txref, { amount: 1.005 });
    assert.equal(decimals.statusCode, 400);
    assert.match(decimals.json().message, /decimals/);
    for (const bad of [{ amount: 0 }, { amount: -1 }, { amount: '5' }, { revokeAccess: 'yes' }, { surprise: 1 }]) {
      assert.equal((await refund(testKey, txref, bad)).statusCode, 400, JSON.stringify(bad));
    }

    const customers = await t.request({ method: 'GET', url: `/api/v1/products/${ids['brush-course']}/customers`, key: testKey });
    assert.equal(customers.json().data.items.length, 1, 'partial refunds keep the access');

    // The rest, with access kept on purpose.
    const rest = await refund(testKey, txref, { revokeAccess: false });
    assert.equal(rest.statusCode, 200, rest.body);
    const data = rest.json().data;
    assert.equal(data.status, 'refunded');
    assert.equal(data.refundedAmount, 39.5);
    assert.deepEqual(data.refunds.map((r: any) => r.amount), [10, 9.25, 20.25]);
    assert.equal((await eventsOf(t, brand.id, 'transaction.refunded')).length, 3);
    assert.equal((await eventsOf(t, brand.id, 'member.removed')).length, 0);
    const [sbx] = await t.db.query<{ refunded_amount: number }>('SELECT refunded_amount FROM sandbox_payments WHERE brand_id = $1', [brand.id]);
    assert.equal(sbx.refunded_amount, 3950);
  });

  it('ends the access on a partial refund when revokeAccess is true', async () => {
    const { brand, ids, testKey } = await createBrandWithCatalog(t.db);
    const link = await createLink(t, testKey, courseBody(ids));
    await submitCard(t, link.path, cards.ok);
    const res = await refund(testKey, await paidTxref(brand.id, link.id), { amount: 5, revokeAccess: true });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data.status, 'succeeded');
    assert.equal((await eventsOf(t, brand.id, 'member.removed')).length, 1);
  });

  it('refuses a payment that did not succeed, a free one, one no provider took (409) and one whose provider is not configured (503), writing nothing', async () => {
    const { brand, ids, testKey } = await createBrandWithCatalog(t.db);
    const link = await createLink(t, testKey, courseBody(ids));
    await submitCard(t, link.path, cards.declined);
    const [failed] = await t.db.query<{ txref: string }>('SELECT txref FROM transactions WHERE brand_id = $1 AND status = \'failed\'', [brand.id]);
    const declined = await refund(testKey, failed.txref);
    assert.equal(declined.statusCode, 409);
    assert.match(declined.json().message, /is failed: only a succeeded payment can be refunded/);

    const free = await createTransaction(t.db, { brandId: brand.id, amount: 0 });
    assert.match((await refund(testKey, free.txref)).json().message, /was free/);
    const imported = await createTransaction(t.db, { brandId: brand.id, amount: 1200 });
    const byHand = await refund(testKey, imported.txref);
    assert.equal(byHand.statusCode, 409);
    assert.match(byHand.json().message, /not paid through a payment provider/);
    // Paid through Stripe, on a server without the Stripe settings: 503, and nothing held.
    const viaStripe = await insertTransaction(t.db, {
      brand_id: brand.id, id: newId('txn'), txref: `tx_${newId('txn').slice(4)}`, mode: 'test', type: 'purchase', status: 'succeeded', amount: 1000,
      currency: 'USD', customer_name: 'Ada', customer_email: 'ada@example.com', resource_id: null, metadata: {}, payment_link_id: null,
      provider: 'stripe', provider_reference: 'cs_test_elsewhere',
    });
    const unconfigured = await refund(testKey, viaStripe.txref);
    assert.equal(unconfigured.statusCode, 503);
    assert.match(unconfigured.json().message, /paid through stripe, which is not configured on this server/);
    const [n] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM refunds WHERE brand_id = $1', [brand.id]);
    assert.equal(n.n, 0);
    assert.equal((await refund(testKey, 'tx_nosuchthing')).statusCode, 404);
  });

  it('answers a retry with the same Idempotency-Key with the first refund, and refunds once', async () => {
    const { brand, ids, testKey } = await createBrandWithCatalog(t.db);
    const link = await createLink(t, testKey, courseBody(ids));
    await submitCard(t, link.path, cards.ok);
    const txref = await paidTxref(brand.id, link.id);
    const first = await refund(testKey, txref, { amount: 5 }, { 'idempotency-key': 'refund-once' });
    const retry = await refund(testKey, txref, { amount: 5 }, { 'idempotency-key': 'refund-once' });
    assert.equal(retry.statusCode, 200);
    assert.equal(retry.headers['idempotent-replayed'], 'true');
    assert.equal(retry.body, first.body);
    assert.equal((await txOf(testKey, txref)).refundedAmount, 5);
    const other = await refund(testKey, txref, { amount: 6 }, { 'idempotency-key': 'refund-once' });
    assert.equal(other.statusCode, 422);
  });

  it('never gives back more than was paid when refunds race, and the sandbox pays one refund id once', async () => {
    const brand = (await createBrandWithCatalog(t.db)).brand;
    const key = (await createKey(t.db, brand.id)).key;
    const tx = await paidTransaction(t.db, brand.id, 'test', 1000);
    const answers = await Promise.all(Array.from({ length: 6 }, () => refund(key, tx.txref, { amount: 4 })));
    const ok = answers.filter((a) => a.statusCode === 200);
    assert.equal(ok.length, 2, answers.map((a) => a.statusCode).join(','));
    assert.ok(answers.every((a) => a.statusCode === 200 || a.statusCode === 400 || a.statusCode === 409));
    const now = await txOf(key, tx.txref);
    assert.equal(now.refundedAmount, 8);
    assert.equal(now.refunds.length, 2);

    // Step 2 asked twice for the same refund (a retry after a timeout) moves the money once.
    const ask = { brandId: brand.id, reference: tx.provider_reference!, refundId: 'rfd_same', amount: 100, currency: 'USD', txref: tx.txref, reason: null };
    const [a, b] = await Promise.all([sandboxProvider.refundPayment(t.db, ask), sandboxProvider.refundPayment(t.db, ask)]);
    assert.equal(a.status, 'succeeded');
    assert.deepEqual(b, a);
    const [sbx] = await t.db.query<{ refunded_amount: number }>('SELECT refunded_amount FROM sandbox_payments WHERE brand_id = $1', [brand.id]);
    assert.equal(sbx.refunded_amount, 900);
    const tooMuch = await sandboxProvider.refundPayment(t.db, { ...ask, refundId: 'rfd_other', amount: 101 });
    assert.equal(tooMuch.status, 'failed');
  });

  it('finishes a refund left pending by a request that died before the provider answered, paying it once', async () => {
    const brand = (await createBrandWithCatalog(t.db)).brand;
    const key = (await createKey(t.db, brand.id)).key;
    const tx = await paidTransaction(t.db, brand.id, 'test', 1000);
    // Step 1 committed, then the process died: a pending refund of 3.00 holds its amount.
    await t.db.query(
      `INSERT INTO refunds (brand_id, id, mode, transaction_id, amount, currency, status, revoke_access, provider, created_at, updated_at)
       VALUES ($1, 'rfd_orphan', 'test', $2, 300, 'USD', 'pending', false, 'sandbox', now() - interval '5 minutes', now() - interval '5 minutes')`,
      [brand.id, tx.id],
    );
    const over = await refund(key, tx.txref, { amount: 7.01 });
    assert.equal(over.statusCode, 400, 'the pending refund holds its amount');
    const next = await refund(key, tx.txref, { amount: 2 });
    assert.equal(next.statusCode, 200, next.body);
    const data = next.json().data;
    assert.deepEqual(data.refunds.map((r: any) => [r.id === 'rfd_orphan', r.amount, r.status]), [[true, 3, 'succeeded'], [false, 2, 'succeeded']]);
    assert.equal(data.refundedAmount, 5);
    const [sbx] = await t.db.query<{ refunded_amount: number }>('SELECT refunded_amount FROM sandbox_payments WHERE brand_id = $1', [brand.id]);
    assert.equal(sbx.refunded_amount, 500);
    assert.equal((await eventsOf(t, brand.id, 'transaction.refunded')).length, 2);
  });
});

describe('refunds and subscriptions', () => {
  it('a full refund of a recurring purchase cancels its subscription and removes the member', async () => {
    const b = await recurringBrand(t);
    const { membershipId, link } = await buyPlan(t, b, 'monthly');
    const res = await refund(b.key, await paidTxref(b.brandId, link.id));
    assert.equal(res.statusCode, 200, res.body);
    const m = await member(t, b, membershipId);
    assert.equal(m.status, 'removed');
    assert.equal(m.subscription.status, 'cancelled');
    const removed = await eventsOf(t, b.brandId, 'member.removed');
    assert.deepEqual(removed.map((e) => e.data.membershipId), [membershipId]);
    // Nothing renews any more.
    await advance(t, b.key, { by: '40d' });
    const [renewals] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM transactions WHERE brand_id = $1 AND type = \'renewal\'', [b.brandId]);
    assert.equal(renewals.n, 0);
  });

  it('a full refund of a renewal ends the subscription it paid; a partial one keeps it', async () => {
    const b = await recurringBrand(t);
    const { membershipId } = await buyPlan(t, b, 'monthly');
    await advance(t, b.key, { by: '31d' });
    const renewals = await t.db.query<{ txref: string }>('SELECT txref FROM transactions WHERE brand_id = $1 AND type = \'renewal\' AND status = \'succeeded\'', [b.brandId]);
    assert.equal(renewals.length, 1);
    assert.equal((await refund(b.key, renewals[0].txref, { amount: 1 })).statusCode, 200);
    assert.equal((await member(t, b, membershipId)).subscription.status, 'active');
    const rest = await refund(b.key, renewals[0].txref);
    assert.equal(rest.statusCode, 200, rest.body);
    assert.equal(rest.json().data.status, 'refunded');
    const m = await member(t, b, membershipId);
    assert.equal(m.status, 'removed');
    assert.equal(m.subscription.status, 'cancelled');
  });
});

describe('refunds in payouts', () => {
  async function payouts(key: string) {
    const res = await t.request({ method: 'GET', url: '/api/v1/payouts?limit=100', key });
    return (res.json().data.items as any[]).reverse();
  }

  it('deducts a refund from the next payout to the cent, and carries a balance that would go negative forward', async () => {
    const b = await recurringBrand(t);
    const sold = await buyProduct(t, b, 'usd'); // 10.00, fee 0.80
    await buyProduct(t, b, 'usd2'); // 19.99, fee 1.30
    const txref = await paidTxref(b.brandId, sold.id);
    const before = await txOf(b.key, txref);
    assert.deepEqual([before.fee, before.net], [0.8, 9.2], 'fee and net before the payout: what it will charge');
    const partly = (await refund(b.key, txref, { amount: 4 })).json().data;
    assert.deepEqual([partly.fee, partly.net], [0.8, 5.2], 'net less what was given back');
    await advance(t, b.key, { by: '1d' });
    const [first] = await payouts(b.key);
    assert.equal(first.amount, 23.89); // 29.99 - 2.10 - 4.00
    assert.equal(first.fee, 2.1);
    assert.equal(first.refunded, 4);
    assert.equal(first.refundCount, 1);
    assert.equal(first.transactionCount, 2);
    const listed = (await t.request({ method: 'GET', url: '/api/v1/transactions', key: b.key })).json().data.items as any[];
    const fees = listed.map((x) => x.fee).reduce((a, c) => a + c, 0);
    assert.equal(Math.round(fees * 100) / 100, first.fee, 'the transactions\' fees add up to the payout\'s');

    // The rest of the 10.00 sale, already paid out: 6.00 owed back with nothing sold since.
    const whole = (await refund(b.key, txref)).json().data;
    assert.deepEqual([whole.status, whole.fee, whole.net], ['refunded', 0.8, -0.8], 'a refunded payment keeps its fee');
    await advance(t, b.key, { by: '1d' });
    assert.equal((await payouts(b.key)).length, 1, 'no negative payout');
    const [owed] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM refunds WHERE brand_id = $1 AND status = \'succeeded\' AND payout_id IS NULL', [b.brandId]);
    assert.equal(owed.n, 1, 'the refund is carried forward');

    await buyProduct(t, b, 'usd'); // 10.00 - 0.80 - 6.00 carried = 3.20
    await advance(t, b.key, { by: '1d' });
    const all = await payouts(b.key);
    assert.equal(all.length, 2);
    assert.equal(all[1].amount, 3.2);
    assert.equal(all[1].refunded, 6);
    assert.equal(all[1].transactionCount, 1);
    const rows = await t.db.query<{ payout_id: string | null }>('SELECT payout_id FROM refunds WHERE brand_id = $1', [b.brandId]);
    assert.ok(rows.every((r) => r.payout_id), 'every refund is in exactly one payout');
  });
});
