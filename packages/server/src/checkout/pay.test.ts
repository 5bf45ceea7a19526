import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { createBrandWithCatalog } from '../testing/factories.ts';
import { cards, courseBody, createLink, eventsOf, submitCard } from '../testing/checkout-fixtures.ts';

let t: TestApp;
before(async () => { t = await startTestApp(); });
after(async () => { await t.close(); });

const get = (url: string) => t.app.inject({ method: 'GET', url });
const txrefOf = (location: string) => new URL(location, 'http://x').searchParams.get('txref')!;

async function transactions(brandId: string) {
  return t.db.query<{ txref: string; status: string; amount: number; failure_code: string | null }>(
    'SELECT txref, status, amount, failure_code FROM transactions WHERE brand_id = $1 ORDER BY created_at, id', [brandId]);
}

async function memberships(brandId: string) {
  return t.db.query<{ product_id: string | null; hub_id: string | null; email: string; plan: string; status: string; phone: string | null }>(
    'SELECT product_id, hub_id, email, plan, status, phone FROM memberships WHERE brand_id = $1 ORDER BY created_at, id', [brandId]);
}

describe('the hosted checkout page', () => {
  it('shows the brand, product, tier, line items and total, with a card number input and a Pay button', async () => {
    const { ids, testKey } = await createBrandWithCatalog(t.db);
    await t.db.query('UPDATE brands SET name = $1 WHERE id = (SELECT brand_id FROM tiers WHERE id = $2)', ['Inkwell Studio', ids['brush-standard']]);
    const link = await createLink(t, testKey, courseBody(ids, { addons: [ids['brush-kit']] }));
    const res = await get(link.path);
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /text\/html/);
    assert.match(String(res.headers['content-security-policy']), /default-src 'none'/);
    const page = res.body;
    assert.match(page, /<meta name="viewport" content="width=device-width, initial-scale=1">/);
    for (const text of ['Inkwell Studio', 'Brushwork fundamentals', 'Standard', 'Brush kit (add-on)', '15.00 USD', '39.50 USD', '54.50 USD', 'Test mode']) {
      assert.ok(page.includes(text), `page shows ${text}`);
    }
    assert.match(page, /<label for="card">Card number<\/label>/);
    assert.match(page, /<button type="submit">Pay 54.50 USD<\/button>/);
    assert.doesNotMatch(page, /expiry|cvc/i);
    assert.doesNotMatch(page, /<script/i, 'works without JavaScript');
  });

  it('escapes what the brand and buyer typed', async () => {
    const { ids, testKey } = await createBrandWithCatalog(t.db);
    const link = await createLink(t, testKey, courseBody(ids, { form: { formData: { fullName: '<script>alert(1)</script>', email: 'a@example.com', experienceLevel: 'Beginner' } } }));
    const page = (await get(link.path)).body;
    assert.ok(!page.includes('<script>alert(1)'));
    assert.ok(page.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
  });

  it('answers an unknown link, or a link under another brand, with a 404 page', async () => {
    const { ids, testKey } = await createBrandWithCatalog(t.db);
    const other = await createBrandWithCatalog(t.db);
    const link = await createLink(t, testKey, courseBody(ids));
    const linkId = link.path.split('/').at(-1)!;
    for (const url of [`/checkout/${other.brand.id}/${linkId}`, `/checkout/${other.brand.id}/plink_nope`, '/checkout/nonsense/x']) {
      const res = await get(url);
      assert.equal(res.statusCode, 404, url);
      assert.match(res.body, /does not exist/);
    }
    assert.equal((await submitCard(t, `/checkout/${other.brand.id}/${linkId}`, cards.ok)).statusCode, 404);
  });
});

describe('paying a link', () => {
  it('succeeds with 4242 4242 4242 4242: the transaction, the membership and the events, and a result page', async () => {
    const { brand, ids, testKey } = await createBrandWithCatalog(t.db);
    const link = await createLink(t, testKey, courseBody(ids, {
      form: { formData: { fullName: 'Ada Lovelace', email: 'ada@example.com', phone: '+44 20 7946 0000', experienceLevel: 'Beginner' } },
      metadata: { orderId: '1042' },
    }));
    const res = await submitCard(t, link.path, cards.ok);
    assert.equal(res.statusCode, 303);
    const location = String(res.headers.location);
    assert.ok(location.startsWith(`${link.path}/result?txref=`));
    const result = await get(location);
    assert.equal(result.statusCode, 200);
    assert.match(result.body, /Payment successful/);
    assert.ok(result.body.includes(txrefOf(location)));

    const txn = (await t.request({ method: 'GET', url: `/api/v1/transactions/${txrefOf(location)}`, key: testKey })).json().data;
    assert.deepEqual(txn, {
      txref: txrefOf(location), type: 'purchase', status: 'succeeded', amount: 39.5, currency: 'USD',
      customer: { name: 'Ada Lovelace', email: 'ada@example.com' }, createdAt: txn.createdAt, resourceID: ids['brush-course'], metadata: { orderId: '1042' },
      refundedAmount: 0, refunds: [], fee: 2.28, net: 37.22,
      version: 2, updatedAt: txn.updatedAt,
    });
    const customers = (await t.request({ method: 'GET', url: `/api/v1/products/${ids['brush-course']}/customers`, key: testKey })).json().data.items;
    assert.equal(customers.length, 1);
    assert.deepEqual({ ...customers[0], membershipId: 'x', joinedAt: 'x', updatedAt: 'x' }, {
      membershipId: 'x', name: 'Ada Lovelace', email: 'ada@example.com', phone: '+44 20 7946 0000', status: 'active', plan: ids['brush-standard'], joinedAt: 'x',
      version: 1, updatedAt: 'x',
    });
    const events = await eventsOf(t, brand.id);
    assert.deepEqual(events.map((e) => e.type), ['transaction.succeeded', 'member.joined']);
    // The event is the transaction as the API renders it, less fee and net (docs/payouts.md: an
    // event records the payment, not its settlement).
    const { fee: _fee, net: _net, ...recorded } = txn;
    assert.deepEqual(events[0].data, recorded);
    assert.equal(events[1].data.membershipId, customers[0].membershipId);
    assert.equal(events[1].data.productID, ids['brush-course']);
    assert.ok(events.every((e) => e.mode === 'test'));

    // The link is spent: its page now shows the result, and no form.
    const again = await get(link.path);
    assert.match(again.body, /Payment successful/);
    assert.doesNotMatch(again.body, /<form/);
  });

  it('makes the buyer a hub member with plan = the tier when the item names the hub', async () => {
    const { brand, ids, testKey } = await createBrandWithCatalog(t.db);
    const item = { ...courseBody(ids).items[0], hubID: ids['studio-club'] };
    const link = await createLink(t, testKey, courseBody(ids, { items: [item] }));
    await submitCard(t, link.path, cards.ok);
    const members = (await t.request({ method: 'GET', url: `/api/v1/hubs/${ids['studio-club']}/members`, key: testKey })).json().data.items;
    assert.equal(members.length, 1);
    assert.equal(members[0].hubID, ids['studio-club']);
    assert.equal(members[0].plan, ids['brush-standard']);
    const one = await t.request({ method: 'GET', url: `/api/v1/hubs/${ids['studio-club']}/members/${members[0].membershipId}`, key: testKey });
    assert.equal(one.statusCode, 200);
    assert.equal((await eventsOf(t, brand.id, 'member.joined')).length, 2, 'one for the product, one for the hub');
  });

  it('sells a hub plan: the buyer joins the hub on that plan', async () => {
    const { brand, ids, testKey } = await createBrandWithCatalog(t.db);
    const link = await createLink(t, testKey, { items: [{ id: ids['studio-club'], plan: ids['club-pro'], type: 'membership' }], form: { formData: { fullName: 'Ada', email: 'ada@example.com' } } });
    await submitCard(t, link.path, cards.ok);
    assert.deepEqual((await memberships(brand.id)).map((m) => [m.hub_id, m.product_id, m.plan]), [[ids['studio-club'], null, ids['club-pro']]]);
  });

  it('records a decline as a failed transaction with transaction.failed, grants nothing, and lets the buyer try again', async () => {
    const { brand, ids, testKey } = await createBrandWithCatalog(t.db);
    const link = await createLink(t, testKey, courseBody(ids));
    const declined = await submitCard(t, link.path, cards.declined);
    assert.equal(declined.statusCode, 303);
    const page = await get(String(declined.headers.location));
    assert.match(page.body, /Payment failed: The card was declined/);
    assert.match(page.body, /<button type="submit">Pay [0-9.]+ USD<\/button>/, 'the form is there to try again');
    assert.deepEqual((await transactions(brand.id)).map((x) => [x.status, x.failure_code]), [['failed', 'card_declined']]);
    assert.equal((await memberships(brand.id)).length, 0);
    const failed = await eventsOf(t, brand.id);
    assert.deepEqual(failed.map((e) => e.type), ['transaction.failed']);
    assert.equal(failed[0].data.status, 'failed');

    const ok = await submitCard(t, link.path, cards.ok);
    assert.notEqual(txrefOf(String(ok.headers.location)), txrefOf(String(declined.headers.location)), 'each attempt is its own transaction');
    assert.deepEqual((await transactions(brand.id)).map((x) => x.status), ['failed', 'succeeded']);
    assert.equal((await memberships(brand.id)).length, 1);
  });

  it('fails 4000 0000 0000 9995 for insufficient funds', async () => {
    const { brand, ids, testKey } = await createBrandWithCatalog(t.db);
    const link = await createLink(t, testKey, courseBody(ids));
    const res = await submitCard(t, link.path, cards.insufficient);
    assert.match((await get(String(res.headers.location))).body, /insufficient funds/);
    assert.deepEqual((await transactions(brand.id)).map((x) => [x.status, x.failure_code]), [['failed', 'insufficient_funds']]);
  });

  it('refuses any other card as an invalid test card, recording nothing', async () => {
    const { brand, ids, testKey } = await createBrandWithCatalog(t.db);
    const link = await createLink(t, testKey, courseBody(ids));
    for (const card of ['4111 1111 1111 1111', 'abcd', '']) {
      const res = await submitCard(t, link.path, card);
      assert.equal(res.statusCode, 400, card);
      assert.match(res.body, /not a sandbox test card|Enter a card number/);
      assert.match(res.body, /<label for="card">Card number<\/label>/);
    }
    assert.equal((await transactions(brand.id)).length, 0);
  });

  it('completes a free tier without a card', async () => {
    const { brand, ids, testKey } = await createBrandWithCatalog(t.db);
    const link = await createLink(t, testKey, { items: [{ id: ids['palette-guide'], plan: ids['palette-free'], type: 'digital' }], form: { formData: { fullName: 'Ada', email: 'ada@example.com' } } });
    assert.equal(link.amount, 0);
    const page = (await get(link.path)).body;
    assert.doesNotMatch(page, /Card number/);
    assert.match(page, /<button type="submit">Complete<\/button>/);
    const res = await submitCard(t, link.path);
    assert.equal(res.statusCode, 303);
    assert.match((await get(String(res.headers.location))).body, /all set/);
    assert.deepEqual((await transactions(brand.id)).map((x) => [x.status, Number(x.amount)]), [['succeeded', 0]]);
    assert.deepEqual((await eventsOf(t, brand.id)).map((e) => e.type), ['transaction.succeeded', 'member.joined']);
  });

  it('redirects to redirectUrl with txref and status added to its query, on success and on decline', async () => {
    const { ids, testKey } = await createBrandWithCatalog(t.db);
    const link = await createLink(t, testKey, courseBody(ids, { redirectUrl: 'https://brand.example.com/thanks?order=7' }));
    assert.match(String((await get(link.path)).headers['content-security-policy']), /form-action 'self' https:\/\/brand\.example\.com/);
    const declined = new URL(String((await submitCard(t, link.path, cards.declined)).headers.location));
    assert.equal(declined.origin + declined.pathname, 'https://brand.example.com/thanks');
    assert.equal(declined.searchParams.get('order'), '7');
    assert.equal(declined.searchParams.get('status'), 'failed');
    const paid = new URL(String((await submitCard(t, link.path, cards.ok)).headers.location));
    assert.equal(paid.searchParams.get('status'), 'succeeded');
    assert.match(paid.searchParams.get('txref')!, /^tx_/);
    assert.notEqual(paid.searchParams.get('txref'), declined.searchParams.get('txref'));
  });

  it('charges once and grants once when the same link is submitted several times at once', async () => {
    const { brand, ids, testKey } = await createBrandWithCatalog(t.db);
    const link = await createLink(t, testKey, courseBody(ids));
    const both = await Promise.all([1, 2, 3].map(() => submitCard(t, link.path, cards.ok)));
    assert.ok(both.every((r) => r.statusCode === 303));
    const txrefs = new Set(both.map((r) => txrefOf(String(r.headers.location))));
    assert.equal(txrefs.size, 1, 'every submission lands on the one attempt');
    assert.deepEqual((await transactions(brand.id)).map((x) => x.status), ['succeeded']);
    const charges = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM sandbox_payments WHERE brand_id = $1 AND status = \'succeeded\'', [brand.id]);
    assert.equal(charges[0].n, 1);
    assert.equal((await memberships(brand.id)).length, 1);
    assert.deepEqual((await eventsOf(t, brand.id)).map((e) => e.type), ['transaction.succeeded', 'member.joined']);

    // Paying the spent link again shows the same result and charges nothing.
    const later = await submitCard(t, link.path, cards.ok);
    assert.equal(txrefOf(String(later.headers.location)), [...txrefs][0]);
    assert.equal((await transactions(brand.id)).filter((x) => x.status === 'succeeded').length, 1);
    assert.equal((await eventsOf(t, brand.id, 'transaction.succeeded')).length, 1);
  });

  it('does not duplicate a membership the buyer already holds; buying again moves it to the new tier', async () => {
    const { brand, ids, testKey } = await createBrandWithCatalog(t.db);
    const first = await createLink(t, testKey, courseBody(ids));
    await submitCard(t, first.path, cards.ok);
    const second = await createLink(t, testKey, courseBody(ids, {
      items: [{ id: ids['brush-course'], plan: ids['brush-pwyw'], type: 'course', customAmount: 30 }],
      form: { formData: { fullName: 'Ada', email: 'ADA@example.com', experienceLevel: 'Advanced' } },
    }));
    await submitCard(t, second.path, cards.ok);
    const rows = await memberships(brand.id);
    assert.equal(rows.length, 1);
    assert.equal(rows[0].plan, ids['brush-pwyw']);
    assert.equal((await eventsOf(t, brand.id, 'transaction.succeeded')).length, 2);
    assert.equal((await eventsOf(t, brand.id, 'member.joined')).length, 1, 'already a member: no second member.joined');
  });
});
