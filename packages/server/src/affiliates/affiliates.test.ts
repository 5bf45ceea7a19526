import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadCatalog } from '../catalog/load.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { runCommonRouteTests } from '../testing/auth-checks.ts';
import { createLink, submitCard } from '../testing/checkout-fixtures.ts';
import { advance, recurringBrand } from '../testing/subscriptions.ts';

/**
 * Affiliates (docs/affiliates.md) on the real app and database: the routes and their checks,
 * attribution through items[].affiliate and a checkout link's ?ref=, commission on net, the hold
 * and its clawback by refunds, recurring commission on renewals.
 * Default settings: fee 5% + 0.30, AFFILIATE_HOLD 30 days.
 */
let t: TestApp;
before(async () => { t = await startTestApp(); });
after(async () => { await t.close(); });

type Brand = Awaited<ReturnType<typeof recurringBrand>>;

const api = (method: 'GET' | 'POST' | 'PATCH', url: string, key: string, payload?: object) =>
  t.request({ method, url: `/api/v1${url}`, key, ...(payload ? { payload } : {}) });

let n = 0;
async function makeAffiliate(key: string, body: object = {}) {
  const res = await api('POST', '/affiliates', key, { name: 'Rita Inks', email: 'rita@example.com', code: `RITA${++n}`, commissionPercent: 20, ...body });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().data;
}

async function affiliate(key: string, id: string) {
  const res = await api('GET', `/affiliates/${id}`, key);
  assert.equal(res.statusCode, 200, res.body);
  return res.json().data;
}

/** Buys a one-off product through the hosted page with the affiliate code on its item; returns the txref. */
async function buyWith(b: Brand, ref: string, code: string | undefined, email = 'grace@example.com') {
  const link = await createLink(t, b.key, {
    items: [{ id: b.ids[ref], plan: b.ids[`${ref}-t`], type: 'digital', ...(code ? { affiliate: code } : {}) }],
    form: { formData: { fullName: 'Grace Hopper', email } },
  });
  assert.equal((await submitCard(t, link.path, '4242 4242 4242 4242')).statusCode, 303);
  const [row] = await t.db.query<{ txref: string }>('SELECT txref FROM transactions WHERE brand_id = $1 AND payment_link_id = $2', [b.brandId, link.id]);
  return row.txref;
}

async function insertAffiliate(brandId: string, mode: string) {
  const [row] = await t.db.query<{ id: string }>(
    `INSERT INTO affiliates (brand_id, id, mode, name, email, code, commission_bps) VALUES ($1, 'aff_' || md5(random()::text), $2, 'Rita', 'rita@example.com', 'C' || md5(random()::text), 1000) RETURNING id`,
    [brandId, mode]);
  return row.id;
}

describe('affiliate routes', () => {
  runCommonRouteTests('POST /affiliates', {
    method: 'POST', scope: 'products:write', foreign: 'none', modeScoped: false,
    async setup() {
      const code = `AUTH${++n}x${Math.random().toString(36).slice(2, 8)}`;
      return { url: '/api/v1/affiliates', body: { name: 'Rita', email: 'rita@example.com', code, commissionPercent: 10 }, marker: code };
    },
  }, () => t);

  runCommonRouteTests('GET /affiliates/{id}', {
    method: 'GET', scope: ['products:read', 'transactions:read'], foreign: 404, modeScoped: true,
    async setup({ t: app, brandId, mode }) {
      const id = await insertAffiliate(brandId, mode);
      return { url: `/api/v1/affiliates/${id}`, marker: id };
    },
  }, () => t);

  runCommonRouteTests('GET /affiliates', {
    method: 'GET', scope: ['products:read', 'transactions:read'], foreign: 'hidden', modeScoped: true,
    async setup({ brandId, mode }) {
      const id = await insertAffiliate(brandId, mode);
      return { url: '/api/v1/affiliates', marker: id };
    },
  }, () => t);

  runCommonRouteTests('PATCH /affiliates/{id}', {
    method: 'PATCH', scope: 'products:write', foreign: 404, modeScoped: true,
    async setup({ brandId, mode }) {
      const id = await insertAffiliate(brandId, mode);
      return { url: `/api/v1/affiliates/${id}`, body: { commissionPercent: 12.5 }, marker: id };
    },
  }, () => t);

  it('creates, lists, changes and archives an affiliate; an archived one frees its code', async () => {
    const b = await recurringBrand(t);
    const made = await makeAffiliate(b.key, { code: 'Rita-Inks', commissionPercent: 12.5, productCommissions: [{ productID: b.ids.eur, commissionPercent: 30 }], recurring: true });
    assert.match(made.id, /^aff_/);
    assert.deepEqual({ ...made, id: undefined, createdAt: undefined, updatedAt: undefined }, {
      id: undefined, mode: 'test', name: 'Rita Inks', email: 'rita@example.com', code: 'Rita-Inks', commissionPercent: 12.5,
      productCommissions: [{ productID: b.ids.eur, commissionPercent: 30 }], recurring: true, status: 'active', stats: [],
      createdAt: undefined, version: 1, updatedAt: undefined,
    });
    const listed = (await api('GET', '/affiliates', b.key)).json().data;
    assert.deepEqual(listed.items.map((a: { id: string }) => a.id), [made.id]);

    const taken = await api('POST', '/affiliates', b.key, { name: 'Copy', email: 'c@example.com', code: 'RITA-INKS', commissionPercent: 5 });
    assert.equal(taken.statusCode, 400);
    assert.match(taken.json().message, /`code`/);

    const changed = await api('PATCH', `/affiliates/${made.id}`, b.key, { commissionPercent: 15, status: 'archived' });
    assert.equal(changed.statusCode, 200, changed.body);
    assert.equal(changed.json().data.commissionPercent, 15);
    assert.equal(changed.json().data.status, 'archived');
    assert.equal(changed.json().data.version, 2);
    const again = await makeAffiliate(b.key, { code: 'rita-inks' });
    assert.equal(again.code, 'rita-inks');
    const restore = await api('PATCH', `/affiliates/${made.id}`, b.key, { status: 'active' });
    assert.equal(restore.statusCode, 400, 'its code is someone else\'s now');
    assert.match(restore.json().message, /`status`/);
    assert.equal((await api('GET', '/affiliates?status=archived', b.key)).json().data.items.length, 1);
    assert.equal((await api('GET', `/affiliates/${made.id}`, b.liveKey)).statusCode, 404, 'a test affiliate is not live');
  });

  it('refuses bad fields, naming each', async () => {
    const b = await recurringBrand(t);
    const other = await recurringBrand(t);
    for (const [body, field] of [
      [{ commissionPercent: 101 }, 'commissionPercent'],
      [{ commissionPercent: 10.001 }, 'commissionPercent'],
      [{ email: 'not-an-email' }, 'email'],
      [{ code: 'has space' }, 'code'],
      [{ productCommissions: [{ productID: other.ids.usd, commissionPercent: 5 }] }, 'productCommissions[0].productID'],
      [{ payout: 'weekly' }, 'payout'],
    ] as const) {
      const valid: Record<string, unknown> = { name: 'R', email: 'r@example.com', code: `BAD${++n}`, commissionPercent: 10 };
      const res = await api('POST', '/affiliates', b.key, { ...valid, ...body });
      assert.equal(res.statusCode, 400, res.body);
      assert.ok(res.json().message.includes(`\`${field}\``), res.json().message);
    }
    const empty = await api('PATCH', `/affiliates/${(await makeAffiliate(b.key)).id}`, b.key, {});
    assert.equal(empty.statusCode, 400);
  });
});

describe('attribution and commission', () => {
  it('refuses a payment link naming an unknown, archived or other-mode code, naming items[0].affiliate', async () => {
    const b = await recurringBrand(t);
    const archived = await makeAffiliate(b.key);
    await api('PATCH', `/affiliates/${archived.id}`, b.key, { status: 'archived' });
    const live = await makeAffiliate(b.liveKey);
    for (const code of ['NOPE', archived.code, live.code]) {
      const res = await api('POST', '/payment-links', b.key, {
        items: [{ id: b.ids.usd, plan: b.ids['usd-t'], type: 'digital', affiliate: code }],
        form: { formData: { fullName: 'Grace Hopper', email: 'grace@example.com' } },
      });
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(res.json().data.details[0].field, 'items[0].affiliate');
      assert.match(res.json().message, /active affiliate/);
    }
  });

  it('attributes a sale, computes the commission on net, and shows it pending until the hold ends, then earned', async () => {
    const b = await recurringBrand(t);
    const rita = await makeAffiliate(b.key, { commissionPercent: 20, productCommissions: [{ productID: b.ids.usd2, commissionPercent: 50 }] });
    const txref = await buyWith(b, 'usd', rita.code.toLowerCase()); // 10.00 USD, fee 0.80, net 9.20: 20% is 1.84
    await buyWith(b, 'usd2', rita.code); // 19.99 USD, fee 1.30, net 18.69: 50% is 9.345, 9.35 half up
    await buyWith(b, 'eur', rita.code); // 7.35 EUR, fee 0.67, net 6.68: 20% is 1.336, 1.34
    await buyWith(b, 'usd', undefined); // not attributed

    const tx = (await api('GET', `/transactions/${txref}`, b.key)).json().data;
    assert.deepEqual(tx.affiliate, { id: rita.id, code: rita.code });
    const [event] = await t.db.query<{ data: any }>('SELECT data FROM events WHERE brand_id = $1 AND type = \'transaction.succeeded\' AND data->>\'txref\' = $2', [b.brandId, txref]);
    assert.deepEqual(event.data.affiliate, { id: rita.id, code: rita.code }, 'transaction.succeeded names the affiliate');

    assert.deepEqual((await affiliate(b.key, rita.id)).stats, [
      { currency: 'EUR', sales: 1, salesAmount: 7.35, pending: 1.34, earned: 0, paidOut: 0 },
      { currency: 'USD', sales: 2, salesAmount: 29.99, pending: 11.19, earned: 0, paidOut: 0 },
    ]);
    await advance(t, b.key, { by: '29d' });
    assert.equal((await affiliate(b.key, rita.id)).stats[1].pending, 11.19, 'still in the 30-day hold');
    await advance(t, b.key, { by: '2d' });
    const usd = (await affiliate(b.key, rita.id)).stats[1];
    assert.equal(usd.pending, 0);
    assert.equal(usd.earned, 11.19);
  });

  it('claws back a refund within the hold by the same percent of what it gave back; a full refund leaves nothing; a refund after the hold changes nothing', async () => {
    const b = await recurringBrand(t);
    const rita = await makeAffiliate(b.key, { commissionPercent: 20 });
    const partial = await buyWith(b, 'usd', rita.code);
    const full = await buyWith(b, 'usd', rita.code);
    const late = await buyWith(b, 'usd', rita.code);
    assert.equal((await affiliate(b.key, rita.id)).stats[0].pending, 5.52); // 3 × 1.84

    assert.equal((await api('POST', `/transactions/${partial}/refund`, b.key, { amount: 5 })).statusCode, 200);
    assert.equal((await affiliate(b.key, rita.id)).stats[0].pending, 4.52, 'net 4.20: 0.84 instead of 1.84');
    assert.equal((await api('POST', `/transactions/${full}/refund`, b.key, {})).statusCode, 200);
    assert.equal((await affiliate(b.key, rita.id)).stats[0].pending, 2.68, 'the fully refunded sale earns nothing');

    await advance(t, b.key, { by: '31d' });
    assert.equal((await api('POST', `/transactions/${late}/refund`, b.key, {})).statusCode, 200);
    const stats = (await affiliate(b.key, rita.id)).stats[0];
    assert.equal(stats.pending, 0);
    assert.equal(stats.earned, 2.68, 'a refund after the hold does not take back what was earned');
  });

  it('earns on renewals when recurring, and only on the first payment when not', async () => {
    const b = await recurringBrand(t);
    const recurring = await makeAffiliate(b.key, { commissionPercent: 10, recurring: true });
    const once = await makeAffiliate(b.key, { commissionPercent: 10 });
    for (const [a, email] of [[recurring, 'r@example.com'], [once, 'o@example.com']] as const) {
      const link = await createLink(t, b.key, {
        items: [{ id: b.ids.club, plan: b.ids.monthly, type: 'membership', affiliate: a.code }],
        form: { formData: { fullName: 'Ada Lovelace', email } },
      });
      assert.equal((await submitCard(t, link.path, '4242 4242 4242 4242')).statusCode, 303);
    }
    await advance(t, b.key, { by: '32d' }); // one renewal each
    const renewals = await t.db.query<{ affiliate: unknown; customer_email: string }>(
      'SELECT affiliate, customer_email FROM transactions WHERE brand_id = $1 AND type = \'renewal\' AND status = \'succeeded\' ORDER BY customer_email', [b.brandId]);
    assert.equal(renewals.length, 2);
    assert.equal(renewals[0].affiliate, null, 'not recurring: the renewal is not attributed');
    assert.deepEqual(renewals[1].affiliate, { id: recurring.id, code: recurring.code });
    // 5.00 USD, fee 0.55, net 4.45: 10% is 0.445, 0.45 half up, per payment
    assert.deepEqual((await affiliate(b.key, recurring.id)).stats[0], { currency: 'USD', sales: 2, salesAmount: 10, pending: 0.45, earned: 0.45, paidOut: 0.45 });
    assert.deepEqual((await affiliate(b.key, once.id)).stats[0], { currency: 'USD', sales: 1, salesAmount: 5, pending: 0, earned: 0.45, paidOut: 0.45 });
  });

  it('attributes a web checkout sale by ?ref=CODE, and answers an unknown code with a 400 page', async () => {
    const b = await recurringBrand(t);
    const rita = await makeAffiliate(b.key, { commissionPercent: 20 });
    const refs = await loadCatalog(t.db, b.brandId, { products: [{ ref: 'g', type: 'digital', title: 'Guide', tiers: [{ ref: 'gt', name: 'Std', price: { amount: 10, currency: 'USD' } }] }] });
    const made = await api('POST', '/checkout-links', b.key, { items: [{ id: refs.g, plan: refs.gt }] });
    const path = new URL(made.json().data.url).pathname;

    const unknown = await t.app.inject({ method: 'GET', url: `${path}?ref=NOPE` });
    assert.equal(unknown.statusCode, 400);
    assert.match(unknown.body, /referral code &quot;NOPE&quot; \(ref\)|referral code "NOPE" \(ref\)/);

    const page = await t.app.inject({ method: 'GET', url: `${path}?ref=${rita.code}` });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, new RegExp(`name="ref" value="${rita.code}"`));
    const posted = await t.app.inject({
      method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ fullName: 'Grace Hopper', email: 'grace@example.com', countryCode: 'PT', ref: rita.code }).toString(),
    });
    assert.equal(posted.statusCode, 303, posted.body);
    assert.equal((await submitCard(t, posted.headers.location as string, '4242 4242 4242 4242')).statusCode, 303);
    assert.deepEqual((await affiliate(b.key, rita.id)).stats, [{ currency: 'USD', sales: 1, salesAmount: 10, pending: 1.84, earned: 0, paidOut: 0 }]);
  });
});
