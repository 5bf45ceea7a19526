import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadCatalog } from '../catalog/load.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { runCommonRouteTests } from '../testing/auth-checks.ts';
import { createBrandWithCatalog, createKey } from '../testing/factories.ts';
import { courseBody, createLink, type Ids } from '../testing/checkout-fixtures.ts';

let t: TestApp;
let brand: Awaited<ReturnType<typeof createBrandWithCatalog>>;
let ids: Ids;
let key: string;
before(async () => {
  t = await startTestApp({ publicUrl: 'https://shop.example.com' });
  brand = await createBrandWithCatalog(t.db);
  ids = brand.ids;
  key = brand.testKey;
});
after(async () => { await t.close(); });

const post = (key: string, payload: unknown) => t.request({ method: 'POST', url: '/api/v1/payment-links', key, payload: payload as object });

/** Asserts a 400 validation_failed whose message names `field` (e.g. `items[1].id`). */
async function refused(key: string, payload: unknown, field: string, pattern?: RegExp) {
  const res = await post(key, payload);
  assert.equal(res.statusCode, 400, res.body);
  const body = res.json();
  assert.equal(body.status, 'error');
  assert.equal(body.data.code, 'validation_failed');
  assert.ok(body.message.includes(`\`${field}\``), `message names ${field}: ${body.message}`);
  if (pattern) assert.match(body.message, pattern);
  return body;
}

const linkCount = async (brandId: string) =>
  (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM payment_links WHERE brand_id = $1', [brandId]))[0].n;

describe('POST /payment-links', () => {
  runCommonRouteTests('POST /payment-links', {
    method: 'POST',
    scope: 'checkout:write',
    // Items are named in the body, not the path: another brand's key is refused with the same
    // 400 as an unknown product (tested below), not a 404.
    foreign: 'none',
    modeScoped: false,
    async setup({ t, brandId }) {
      const refs = await loadCatalog(t.db, brandId, { products: [{ ref: 'p', type: 'digital', title: 'Guide', tiers: [{ ref: 't', name: 'Paid', price: { amount: 5, currency: 'USD' } }] }] });
      return { url: '/api/v1/payment-links', body: { items: [{ id: refs.p, plan: refs.t, type: 'digital' }], form: { formData: { fullName: 'A', email: 'a@example.com' } } }, marker: brandId };
    },
  }, () => t);

  it('returns an absolute link under PUBLIC_URL to the hosted checkout page, priced from the catalog', async () => {
    const res = await post(key, courseBody(ids));
    assert.equal(res.statusCode, 200, res.body);
    const { link, id, amount, currency } = res.json().data;
    assert.match(link, new RegExp(`^https://shop\\.example\\.com/checkout/${brand.brand.id}/plink_[A-Za-z0-9_-]{20}$`));
    assert.ok(link.endsWith(id));
    // 49.50 less the tier's 10.00 discount.
    assert.equal(amount, 39.5);
    assert.equal(currency, 'USD');
    const [row] = await t.db.query<{ amount: number; mode: string; status: string }>('SELECT amount, mode, status FROM payment_links WHERE brand_id = $1 AND id = $2', [brand.brand.id, id]);
    assert.deepEqual({ ...row, amount: Number(row.amount) }, { amount: 3950, mode: 'test', status: 'open' });
  });

  it('ignores any amount the client tries to send and refuses unknown fields', async () => {
    await refused(key, courseBody(ids, { amount: 1 }), 'amount', /not a known field/);
    await refused(key, { ...courseBody(ids), items: [{ id: ids['brush-course'], plan: ids['brush-standard'], type: 'course', price: 1 }] }, 'items[0].price');
  });

  it('multiplies by count and adds add-ons once', async () => {
    const twice = await createLink(t, key, courseBody(ids, { items: [{ id: ids['brush-course'], plan: ids['brush-standard'], type: 'course', count: 2 }] }));
    assert.equal(twice.amount, 79);
    const withKit = await createLink(t, key, courseBody(ids, { addons: [ids['brush-kit']] }));
    assert.equal(withKit.amount, 54.5);
  });

  it('applies customAmount to pay-what-you-want tiers, never below the tier price', async () => {
    const item = (customAmount?: number) => ({ id: ids['brush-course'], plan: ids['brush-pwyw'], type: 'course', ...(customAmount !== undefined ? { customAmount } : {}) });
    assert.equal((await createLink(t, key, courseBody(ids, { items: [item(25.25)] }))).amount, 25.25);
    assert.equal((await createLink(t, key, courseBody(ids, { items: [item()] }))).amount, 20, 'the tier price when none is given');
    await refused(key, courseBody(ids, { items: [item(19.99)] }), 'items[0].customAmount', /below the tier price of 20\.00 USD/);
    await refused(key, courseBody(ids, { items: [item(20.001)] }), 'items[0].customAmount', /decimals/);
    await refused(key, courseBody(ids, { items: [{ id: ids['brush-course'], plan: ids['brush-standard'], type: 'course', customAmount: 100 }] }), 'items[0].customAmount', /pay-what-you-want/);
  });

  it('names the item by index when its product is unknown, and answers another brand\'s product the same way', async () => {
    const other = await createBrandWithCatalog(t.db);
    const second = (id: string, plan: string) => courseBody(ids, { items: [courseBody(ids).items[0], { id, plan, type: 'course' }] });
    const unknown = await refused(key, second('prod_doesnotexist', ids['brush-standard']), 'items[1].id');
    const foreign = await refused(key, second(other.ids['brush-course'], other.ids['brush-standard']), 'items[1].id');
    assert.equal(foreign.message.replace(other.ids['brush-course'], 'X'), unknown.message.replace('prod_doesnotexist', 'X'));
    assert.equal(foreign.data.details[0].index, 1);
  });

  it('refuses a plan that is not a tier of the product, and a type that is not the product\'s', async () => {
    await refused(key, courseBody(ids, { items: [{ id: ids['brush-course'], plan: ids['sketch-monthly'], type: 'course' }] }), 'items[0].plan', /not a tier of product "Brushwork fundamentals"/);
    await refused(key, courseBody(ids, { items: [{ id: ids['brush-course'], plan: ids['brush-standard'], type: 'event' }] }), 'items[0].type', /must be "course"/);
  });

  it('refuses the same product twice in one link', async () => {
    const item = courseBody(ids).items[0];
    await refused(key, courseBody(ids, { items: [item, item] }), 'items[1].id', /count/);
  });

  it('checks hubID against the product\'s hub', async () => {
    const inHub = { id: ids['brush-course'], plan: ids['brush-standard'], type: 'course' };
    await createLink(t, key, courseBody(ids, { items: [{ ...inHub, hubID: ids['studio-club'] }] }));
    await refused(key, courseBody(ids, { items: [{ ...inHub, hubID: 'hub_other' }] }), 'items[0].hubID', /belongs to hub/);
    await refused(key, { items: [{ id: ids['sketch-club'], plan: ids['sketch-monthly'], type: 'membership', hubID: ids['studio-club'] }], form: courseBody(ids).form }, 'items[0].hubID', /does not belong to a hub/);
  });

  it('sells a hub plan when the item names a hub', async () => {
    const link = await createLink(t, key, { items: [{ id: ids['studio-club'], plan: ids['club-pro'], type: 'membership' }], form: { formData: { fullName: 'Ada', email: 'ada@example.com' } } });
    assert.equal(link.amount, 12);
    await refused(key, { items: [{ id: ids['studio-club'], plan: ids['brush-standard'], type: 'membership' }], form: { formData: { fullName: 'Ada', email: 'ada@example.com' } } }, 'items[0].plan', /not a tier of hub "Studio Club"/);
  });

  it('refuses count above 1 on a recurring plan', async () => {
    await refused(key, { items: [{ id: ids['sketch-club'], plan: ids['sketch-monthly'], type: 'membership', count: 2 }], form: courseBody(ids).form }, 'items[0].count', /recurring/);
  });

  it('accepts selected items of the tier and refuses others', async () => {
    const item = { id: ids['brush-course'], plan: ids['brush-standard'], type: 'course' };
    await createLink(t, key, courseBody(ids, { items: [{ ...item, selected: [ids['lesson-1']] }] }));
    await refused(key, courseBody(ids, { items: [{ ...item, selected: [ids['brush-kit']] }] }), 'items[0].selected[0]', /not an item included/);
  });

  it('refuses add-ons that are not add-on items of the products bought', async () => {
    await refused(key, courseBody(ids, { addons: [ids['lesson-1']] }), 'addons[0]', /not an add-on/);
    await refused(key, courseBody(ids, { addons: ['item_unknown'] }), 'addons[0]', /not an item of the products/);
    await refused(key, courseBody(ids, { addons: [ids['brush-kit'], ids['brush-kit']] }), 'addons[1]', /twice/);
  });

  describe('guests', () => {
    const workshop = (tier: string, count = 1) => ({ items: [{ id: ids['live-workshop'], plan: ids[tier], type: 'event', count }] });
    const form = (guests?: unknown[]) => ({ form: { formData: { fullName: 'Ada', email: 'ada@example.com' }, ...(guests ? { guests } : {}) } });
    const guest = { id: 'g1', fullName: 'Grace Hopper', email: 'grace@example.com' };

    it('are required when an event tier sells several tickets', async () => {
      await refused(key, { ...workshop('workshop-pair'), ...form() }, 'form.guests', /2 tickets: name 1 guest/);
      const link = await createLink(t, key, { ...workshop('workshop-pair'), ...form([guest]) });
      assert.equal(link.amount, 60);
    });

    it('count one per ticket beyond the buyer\'s', async () => {
      await refused(key, { ...workshop('workshop-single', 2), ...form() }, 'form.guests');
      await createLink(t, key, { ...workshop('workshop-single', 2), ...form([guest]) });
      await refused(key, { ...workshop('workshop-single', 2), ...form([guest, { ...guest, id: 'g2' }]) }, 'form.guests', /got 2/);
    });

    it('are refused where there is only the buyer\'s ticket', async () => {
      await refused(key, { ...workshop('workshop-single'), ...form([guest]) }, 'form.guests', /only applies/);
      await refused(key, courseBody(ids, { form: { ...courseBody(ids).form, guests: [guest] } }), 'form.guests', /only applies/);
    });

    it('need an id, a name and a valid email each', async () => {
      await refused(key, { ...workshop('workshop-pair'), ...form([{ id: 'g1', fullName: 'Grace' }]) }, 'form.guests[0].email');
      await refused(key, { ...workshop('workshop-pair'), ...form([{ ...guest, email: 'nope' }]) }, 'form.guests[0].email');
    });
  });

  it('refuses a coupon the brand does not have, in words (coupons/apply.test.ts has the rest)', async () => {
    await refused(key, courseBody(ids, { coupon: 'SPRING10' }), 'coupon', /coupon "SPRING10" does not exist/);
  });

  it('accepts the catalog currency and refuses any other', async () => {
    await createLink(t, key, courseBody(ids, { currency: 'USD' }));
    await refused(key, courseBody(ids, { currency: 'EUR' }), 'currency', /priced in USD/);
  });

  describe('form.formData', () => {
    const withData = (formData: Record<string, unknown>) => courseBody(ids, { form: { formData } });
    const base = { fullName: 'Ada Lovelace', email: 'ada@example.com', experienceLevel: 'Beginner' };

    it('needs fullName and a valid email', async () => {
      await refused(key, withData({ email: 'ada@example.com', experienceLevel: 'Beginner' }), 'form.formData.fullName');
      await refused(key, withData({ ...base, email: 'not-an-email' }), 'form.formData.email');
      await refused(key, withData({ ...base, fullName: '   ' }), 'form.formData.fullName', /blank/);
    });

    it('needs every checkout field the product marks required, by its id', async () => {
      const { experienceLevel: _, ...missing } = base;
      await refused(key, withData(missing), 'form.formData.experienceLevel', /required by "Brushwork fundamentals"/);
      await refused(key, withData({ ...base, experienceLevel: 'Expert' }), 'form.formData.experienceLevel', /one of "Beginner"/);
      await createLink(t, key, withData({ ...base, companyName: 'Analytical Engines Ltd', phone: '+44 20 7946 0000' }));
    });

    it('refuses keys that are not checkout fields of the product', async () => {
      await refused(key, withData({ ...base, shoeSize: '42' }), 'form.formData.shoeSize', /not a checkout field/);
      await refused(key, withData({ ...base, phone: 'call me' }), 'form.formData.phone');
    });
  });

  it('accepts only http(s) redirect URLs', async () => {
    await createLink(t, key, courseBody(ids, { redirectUrl: 'https://brand.example.com/thanks?x=1' }));
    await refused(key, courseBody(ids, { redirectUrl: 'javascript:alert(1)' }), 'redirectUrl', /http/);
    await refused(key, courseBody(ids, { redirectUrl: 'ftp://example.com/file' }), 'redirectUrl', /http/);
  });

  it('takes metadata as a flat object of at most 50 string keys', async () => {
    const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, `v${i}`]));
    await createLink(t, key, courseBody(ids, { metadata: fifty }));
    await refused(key, courseBody(ids, { metadata: { ...fifty, k50: 'one too many' } }), 'metadata', /50/);
    await refused(key, courseBody(ids, { metadata: { nested: { a: 'b' } } }), 'metadata.nested');
    await refused(key, courseBody(ids, { metadata: { ['k'.repeat(41)]: 'long key' } }), 'metadata', /40 characters/);
  });

  it('records the fields nothing acts on yet rather than dropping them', async () => {
    const extras = { countryCode: 'GB', utmRef: 'newsletter', adClickID: 'abc', adType: 'search', receive_emails: true,
      checkoutOtpVerificationSkipped: false };
    // `booking` is acted on now (issue 25, docs/bookings.md): on a product that is not bookable it is a 400 naming it.
    await refused(key, courseBody(ids, { booking: { startsAt: '2030-01-01T09:00:00Z' } }), 'booking', /only for a bookable/);
    // So are `address`, `deliveryLocation` and `pickupLocation` (docs/shipping.md): only for a physical product with shipping settings.
    await refused(key, courseBody(ids, { deliveryLocation: 'Door' }), 'deliveryLocation', /only for a physical product/);
    await refused(key, courseBody(ids, { pickupLocation: 'Shop' }), 'pickupLocation', /only for a physical product/);
    // items[].affiliate is acted on now (affiliates/): an active affiliate's code, kept on the link with its id.
    const affiliate = await t.request({ method: 'POST', url: '/api/v1/affiliates', key, payload: { name: 'Rita', email: 'rita@example.com', code: 'aff_1', commissionPercent: 10 } });
    assert.equal(affiliate.statusCode, 200, affiliate.body);
    const item = { ...courseBody(ids).items[0], affiliate: 'aff_1' };
    const link = await createLink(t, key, courseBody(ids, { ...extras, items: [item] }));
    const [row] = await t.db.query<{ extras: Record<string, unknown> }>('SELECT extras FROM payment_links WHERE brand_id = $1 AND id = $2', [brand.brand.id, link.id]);
    assert.deepEqual(row.extras, { ...extras, affiliates: ['aff_1'], affiliateId: affiliate.json().data.id });
  });

  it('refuses a product that is not on sale', async () => {
    await t.db.query('UPDATE tiers SET archived = true WHERE brand_id = $1 AND id = $2', [brand.brand.id, ids['workshop-single']]);
    await refused(key, { items: [{ id: ids['live-workshop'], plan: ids['workshop-single'], type: 'event' }], form: { formData: { fullName: 'A', email: 'a@example.com' } } }, 'items[0].plan', /archived/);
  });

  it('writes nothing when a request is refused', async () => {
    const fresh = await createBrandWithCatalog(t.db);
    await refused(fresh.testKey, courseBody(fresh.ids, { coupon: 'X' }), 'coupon');
    await refused(fresh.testKey, courseBody(fresh.ids, { items: [{ id: 'prod_x', plan: 'tier_x', type: 'course' }] }), 'items[0].id');
    assert.equal(await linkCount(fresh.brand.id), 0);
  });

  it('answers a live key with 503: live payments are not configured', async () => {
    const res = await post(brand.liveKey, courseBody(ids));
    assert.equal(res.statusCode, 503);
    assert.equal(res.json().data.code, 'not_configured');
    assert.match(res.json().message, /[Ll]ive payments are not configured/);
    assert.match(res.json().message, /STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET/, 'the message names the settings');
  });

  it('answers Stripe\'s webhook with 503 naming the settings when Stripe is not configured', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/providers/stripe/webhook', headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=x' }, payload: '{}' });
    assert.equal(res.statusCode, 503);
    assert.equal(res.json().data.code, 'not_configured');
    assert.match(res.json().message, /STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET/);
  });

  it('is refused to a key without checkout:write even with every other scope', async () => {
    const k = await createKey(t.db, brand.brand.id, { scopes: ['transactions:read', 'products:read'] });
    const res = await post(k.key, courseBody(ids));
    assert.equal(res.statusCode, 403);
  });
});
