import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { runCommonRouteTests } from '../testing/auth-checks.ts';
import { createBrandWithCatalog } from '../testing/factories.ts';

/** Managing coupons: POST/GET/PATCH/DELETE /coupons (docs/coupons.md). Applying them: apply.test.ts. */

let t: TestApp;
let shop: Awaited<ReturnType<typeof createBrandWithCatalog>>;
before(async () => {
  t = await startTestApp();
  shop = await createBrandWithCatalog(t.db);
});
after(async () => { await t.close(); });

const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, key = shop.testKey) =>
  t.request({ method, url: `/api/v1${url}`, key, ...(payload ? { payload } : {}) });

let codes = 0;
const code = (prefix = 'SAVE') => `${prefix}${++codes}`;

async function makeCoupon(body: object, key = shop.testKey) {
  const res = await api('POST', '/coupons', { code: code(), ...body }, key);
  assert.equal(res.statusCode, 200, res.body);
  return res.json().data as { id: string; code: string; status: string; redemptions: number; mode: string };
}

const insertCoupon = async (brandId: string, mode: string) => {
  const [row] = await t.db.query<{ id: string }>(
    `INSERT INTO coupons (brand_id, id, mode, code, percent_off, duration, status) VALUES ($1, 'cpn_' || md5(random()::text), $2, md5(random()::text), 10, 'once', 'active') RETURNING id`,
    [brandId, mode]);
  return row.id;
};

describe('the shared auth checks', () => {
  runCommonRouteTests('POST /coupons', {
    method: 'POST', scope: 'products:write', foreign: 'none', modeScoped: false,
    async setup() {
      const c = code('AUTH');
      return { url: '/api/v1/coupons', body: { code: c, percentOff: 10 }, marker: c };
    },
  }, () => t);
  runCommonRouteTests('GET /coupons', {
    method: 'GET', scope: 'products:read', foreign: 'hidden', modeScoped: true,
    async setup({ brandId, mode }) {
      const id = await insertCoupon(brandId, mode);
      return { url: '/api/v1/coupons', marker: id };
    },
  }, () => t);
  runCommonRouteTests('GET /coupons/{id}', {
    method: 'GET', scope: 'products:read', foreign: 404, modeScoped: true,
    async setup({ brandId, mode }) {
      const id = await insertCoupon(brandId, mode);
      return { url: `/api/v1/coupons/${id}`, marker: id };
    },
  }, () => t);
  runCommonRouteTests('PATCH /coupons/{id}', {
    method: 'PATCH', scope: 'products:write', foreign: 404, modeScoped: true,
    async setup({ brandId, mode }) {
      const id = await insertCoupon(brandId, mode);
      return { url: `/api/v1/coupons/${id}`, body: { name: 'Renamed' }, marker: id };
    },
  }, () => t);
  runCommonRouteTests('DELETE /coupons/{id}', {
    method: 'DELETE', scope: 'products:write', foreign: 404, modeScoped: true,
    async setup({ brandId, mode }) {
      const id = await insertCoupon(brandId, mode);
      return { url: `/api/v1/coupons/${id}`, marker: id };
    },
  }, () => t);
});

describe('POST /coupons', () => {
  it('makes a percent coupon and a fixed one per currency, shown as sent', async () => {
    const pct = await api('POST', '/coupons', {
      code: 'Spring20', name: 'Spring sale', percentOff: 20, endsAt: '2030-06-01T00:00:00Z', maxRedemptions: 100, maxPerCustomer: 1,
      minimumAmounts: [{ amount: 10, currency: 'USD' }], appliesTo: { products: [shop.ids['brush-course']] },
    });
    assert.equal(pct.statusCode, 200, pct.body);
    const c = pct.json().data;
    assert.match(c.id, /^cpn_/);
    assert.deepEqual(
      { code: c.code, percentOff: c.percentOff, mode: c.mode, status: c.status, duration: c.duration, redemptions: c.redemptions, reserved: c.reserved },
      { code: 'Spring20', percentOff: 20, mode: 'test', status: 'active', duration: 'once', redemptions: 0, reserved: 0 });
    assert.deepEqual(c.minimumAmounts, [{ amount: 10, currency: 'USD' }]);
    assert.deepEqual(c.appliesTo.products, [shop.ids['brush-course']]);
    assert.equal(c.endsAt, '2030-06-01T00:00:00.000Z');

    const fixed = await makeCoupon({ amountsOff: [{ amount: 5, currency: 'USD' }, { amount: 4.5, currency: 'EUR' }], duration: 'repeating', durationPeriods: 3 });
    const got = (await api('GET', `/coupons/${fixed.id}`)).json().data;
    assert.deepEqual(got.amountsOff, [{ amount: 4.5, currency: 'EUR' }, { amount: 5, currency: 'USD' }]);
    assert.equal(got.durationPeriods, 3);
    assert.deepEqual(got.revenue, []);
    assert.deepEqual(got.recentRedemptions, []);
  });

  it('refuses what cannot be a coupon, naming the field', async () => {
    const other = await createBrandWithCatalog(t.db);
    for (const [body, field] of [
      [{ code: code() }, 'percentOff'],
      [{ code: code(), percentOff: 10, amountsOff: [{ amount: 1, currency: 'USD' }] }, 'percentOff'],
      [{ code: code(), percentOff: 120 }, 'percentOff'],
      [{ code: code(), percentOff: 12.345 }, 'percentOff'],
      [{ code: 'has space', percentOff: 10 }, 'code'],
      [{ code: code(), amountsOff: [{ amount: 0, currency: 'USD' }] }, 'amountsOff[0].amount'],
      [{ code: code(), amountsOff: [{ amount: 1.001, currency: 'USD' }] }, 'amountsOff[0].amount'],
      [{ code: code(), amountsOff: [{ amount: 1, currency: 'USD' }, { amount: 2, currency: 'USD' }] }, 'amountsOff[1].currency'],
      [{ code: code(), percentOff: 10, duration: 'repeating' }, 'durationPeriods'],
      [{ code: code(), percentOff: 10, durationPeriods: 2 }, 'durationPeriods'],
      [{ code: code(), percentOff: 10, startsAt: '2030-01-02T00:00:00Z', endsAt: '2030-01-01T00:00:00Z' }, 'endsAt'],
      [{ code: code(), percentOff: 10, appliesTo: { products: [other.ids['brush-course']] } }, 'appliesTo.products[0]'],
      [{ code: code(), percentOff: 10, appliesTo: { tiers: ['tier_nope'] } }, 'appliesTo.tiers[0]'],
      [{ code: code(), percentOff: 10, colour: 'red' }, 'colour'],
    ] as const) {
      const res = await api('POST', '/coupons', body);
      assert.equal(res.statusCode, 400, `${JSON.stringify(body)}: ${res.body}`);
      assert.equal(res.json().data.code, 'validation_failed');
      assert.ok(res.json().message.includes(`\`${field}\``), `${field}: ${res.json().message}`);
      assert.doesNotMatch(res.json().message, /must match pattern/, 'a pattern is explained in words');
    }
    const spaced = await api('POST', '/coupons', { code: 'has space', percentOff: 10 });
    assert.equal(spaced.json().message, 'Invalid body field `code`: may hold only letters, digits, - and _ (no spaces or other signs).');
    const currency = await api('POST', '/coupons', { code: code(), amountsOff: [{ amount: 1, currency: 'usd' }] });
    assert.equal(currency.json().message, 'Invalid body field `amountsOff[0].currency`: must be a three-letter currency code in capitals, such as USD.');
  });

  it('keeps codes unique among active coupons ignoring case, per mode, and frees the code when archived', async () => {
    const first = await api('POST', '/coupons', { code: 'WELCOME', percentOff: 10 });
    assert.equal(first.statusCode, 200);
    const clash = await api('POST', '/coupons', { code: 'welcome', percentOff: 15 });
    assert.equal(clash.statusCode, 409, clash.body);
    assert.match(clash.json().message, /already has the code "welcome"/);
    const live = await api('POST', '/coupons', { code: 'welcome', percentOff: 15 }, shop.liveKey);
    assert.equal(live.statusCode, 200, 'live and test coupons are separate');
    const archived = await api('DELETE', `/coupons/${first.json().data.id}`);
    assert.equal(archived.statusCode, 200);
    assert.equal(archived.json().data.status, 'archived');
    assert.equal((await api('DELETE', `/coupons/${first.json().data.id}`)).json().data.status, 'archived', 'archiving again answers the same');
    const again = await api('POST', '/coupons', { code: 'Welcome', percentOff: 15 });
    assert.equal(again.statusCode, 200, again.body);
    assert.equal((await api('GET', `/coupons/${first.json().data.id}`)).json().data.code, 'WELCOME', 'the archived coupon is kept');
  });

  it('lets only one of two racing creates of the same code win', async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => api('POST', '/coupons', { code: i % 2 ? 'RACE' : 'race', percentOff: 5 })));
    assert.deepEqual(answers.map((a) => a.statusCode).sort(), [200, 409, 409, 409, 409, 409]);
  });
});

describe('GET, PATCH and DELETE /coupons', () => {
  it('lists by status and code, changes and clears fields, and never changes the discount', async () => {
    const c = await makeCoupon({ percentOff: 10, name: 'Newsletter', maxRedemptions: 5 });
    const byCode = (await api('GET', `/coupons?code=${c.code.toLowerCase()}`)).json().data.items as { id: string }[];
    assert.deepEqual(byCode.map((x) => x.id), [c.id]);
    const res = await api('PATCH', `/coupons/${c.id}`, { name: null, maxRedemptions: 50, endsAt: '2031-01-01T00:00:00Z', appliesTo: { hubs: [shop.ids['studio-club']] } });
    assert.equal(res.statusCode, 200, res.body);
    const d = res.json().data;
    assert.equal(d.name, undefined);
    assert.equal(d.maxRedemptions, 50);
    assert.equal(d.endsAt, '2031-01-01T00:00:00.000Z');
    assert.deepEqual(d.appliesTo.hubs, [shop.ids['studio-club']]);
    const refused = await api('PATCH', `/coupons/${c.id}`, { percentOff: 50 });
    assert.equal(refused.statusCode, 400);
    assert.match(refused.json().message, /`percentOff`/);
    await api('DELETE', `/coupons/${c.id}`);
    const active = (await api('GET', '/coupons?status=active&limit=100')).json().data.items as { id: string }[];
    assert.ok(!active.some((x) => x.id === c.id));
    const archived = (await api('GET', '/coupons?status=archived&limit=100')).json().data.items as { id: string }[];
    assert.ok(archived.some((x) => x.id === c.id));
  });
});
