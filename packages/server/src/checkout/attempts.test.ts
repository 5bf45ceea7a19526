import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { createBrandWithCatalog } from '../testing/factories.ts';
import { cards, courseBody, createLink } from '../testing/checkout-fixtures.ts';

let t: TestApp;
let shop: Awaited<ReturnType<typeof createBrandWithCatalog>>;
before(async () => {
  t = await startTestApp();
  // Small limits, so each is reached in a few requests (the pages read the settings per request).
  Object.assign(t.config.checkoutFailures, { perAddress: 4, perEmail: 3, perCard: 2 });
  shop = await createBrandWithCatalog(t.db);
});
after(async () => { await t.close(); });

let n = 0;
/** A fresh payment link for `email`. */
const linkFor = async (email = `buyer${++n}@example.com`) =>
  (await createLink(t, shop.testKey, courseBody(shop.ids, { form: { formData: { fullName: 'Buyer', email, experienceLevel: 'Beginner' } } }))).path;

const pay = (path: string, card: string, address: string) => t.app.inject({
  method: 'POST', url: `${path}/pay`, remoteAddress: address,
  headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ card }).toString(),
});

describe('card-testing limits on the public checkout pages', () => {
  it('refuses one card after its failures, wherever it is tried, and lets other cards pay', async () => {
    const stolen = '4000 0000 0000 0002';
    assert.equal((await pay(await linkFor(), stolen, '10.0.1.1')).statusCode, 303);
    assert.equal((await pay(await linkFor(), stolen, '10.0.1.2')).statusCode, 303);
    const refused = await pay(await linkFor(), stolen, '10.0.1.3');
    assert.equal(refused.statusCode, 429);
    assert.match(refused.body, /Too many failed payment attempts with this card/);
    assert.ok(Number(refused.headers['retry-after']) > 0);
    const [{ n: pending }] = await t.db.query<{ n: number }>("SELECT count(*)::int AS n FROM transactions WHERE brand_id = $1 AND status = 'pending'", [shop.brand.id]);
    assert.equal(pending, 0, 'a refused attempt records nothing');
    assert.equal((await pay(await linkFor(), cards.ok, '10.0.1.3')).statusCode, 303, 'another card from the same place pays');
  });

  it('refuses an address that runs through many cards (invalid ones too), and not other buyers', async () => {
    const bot = '10.0.2.1';
    for (const card of ['4000 0000 0000 9995', '1111 2222 3333 4444', '4000 0000 0000 0069', '5555 5555 5555 4444']) {
      const res = await pay(await linkFor(), card, bot);
      assert.ok([303, 400].includes(res.statusCode), String(res.statusCode));
    }
    const refused = await pay(await linkFor(), cards.ok, bot);
    assert.equal(refused.statusCode, 429);
    assert.match(refused.body, /from your network/);
    assert.equal((await pay(await linkFor(), cards.ok, '10.0.2.2')).statusCode, 303, 'a buyer elsewhere is not affected');
  });

  it('refuses an email after its failures', async () => {
    const email = 'tester@example.com';
    const cardsTried = ['4000 0000 0000 9995', '4111 1111 1111 1111', '4000 0000 0000 0127'];
    for (const [i, card] of cardsTried.entries()) await pay(await linkFor(email), card, `10.0.3.${i + 1}`);
    const refused = await pay(await linkFor(email), cards.ok, '10.0.3.9');
    assert.equal(refused.statusCode, 429);
    assert.match(refused.body, /for this email address/);
  });

  it('answers a bot that keeps sending refused checkout forms with 429', async () => {
    const res = await t.request({ method: 'POST', url: '/api/v1/checkout-links', key: shop.testKey, payload: { items: [{ id: shop.ids['brush-course'], plan: shop.ids['brush-standard'] }] } });
    const path = new URL(res.json().data.url).pathname;
    const form = (address: string, fields: Record<string, string>) => t.app.inject({
      method: 'POST', url: path, remoteAddress: address, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString(),
    });
    for (let i = 0; i < 4; i++) assert.equal((await form('10.0.4.1', { fullName: '', email: 'x' })).statusCode, 400);
    const refused = await form('10.0.4.1', { fullName: 'Real', email: 'real@example.com', countryCode: 'US', field_experienceLevel: 'Beginner' });
    assert.equal(refused.statusCode, 429);
    assert.equal((await form('10.0.4.2', { fullName: 'Real', email: 'real@example.com', countryCode: 'US', field_experienceLevel: 'Beginner' })).statusCode, 303);
  });
});
