import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadCatalog } from '../catalog/load.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { runCommonRouteTests } from '../testing/auth-checks.ts';
import { createBrandWithCatalog } from '../testing/factories.ts';
import { cards, submitCard } from '../testing/checkout-fixtures.ts';

let t: TestApp;
let shop: Awaited<ReturnType<typeof createBrandWithCatalog>>;
before(async () => {
  t = await startTestApp({ publicUrl: 'https://shop.example.com' });
  shop = await createBrandWithCatalog(t.db);
});
after(async () => { await t.close(); });

const api = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, key = shop.testKey) =>
  t.request({ method, url: `/api/v1${url}`, key, ...(payload ? { payload } : {}) });

async function makeLink(body: object, key = shop.testKey) {
  const res = await api('POST', '/checkout-links', body, key);
  assert.equal(res.statusCode, 200, res.body);
  return res.json().data as { id: string; url: string; sales: number; mode: string };
}

/** Posts the web checkout form as a browser without JavaScript would. */
const submitForm = (path: string, fields: Record<string, string>) => t.app.inject({
  method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString(),
});

const buyer = (n: number | string) => ({ fullName: `Buyer ${n}`, email: `buyer${n}@example.com`, countryCode: 'PT' });

const course = () => ({ id: shop.ids['brush-course'], plan: shop.ids['brush-standard'] });

describe('POST /checkout-links', () => {
  runCommonRouteTests('POST /checkout-links', {
    method: 'POST', scope: 'checkout:write', foreign: 'none', modeScoped: false,
    async setup({ t, brandId }) {
      const refs = await loadCatalog(t.db, brandId, { products: [{ ref: 'p', type: 'digital', title: 'Guide', tiers: [{ ref: 't', name: 'Paid', price: { amount: 5, currency: 'USD' } }] }] });
      return { url: '/api/v1/checkout-links', body: { items: [{ id: refs.p, plan: refs.t }] }, marker: refs.t };
    },
  }, () => t);

  it('makes a link with a share URL that any number of buyers can use', async () => {
    const link = await makeLink({ items: [course()], name: 'Instagram bio', maxSales: 5 });
    assert.match(link.url, new RegExp(`^https://shop\\.example\\.com/buy/${shop.brand.id}/clink_[A-Za-z0-9_-]{20}$`));
    assert.equal(link.mode, 'test');
    assert.equal(link.sales, 0);
  });

  it('refuses tiers that are not the brand\'s, an archived tier, a past expiry, and unknown fields, naming the field', async () => {
    const other = await createBrandWithCatalog(t.db);
    for (const [body, field] of [
      [{ items: [{ id: other.ids['brush-course'], plan: other.ids['brush-standard'] }] }, 'items[0].id'],
      [{ items: [{ id: shop.ids['brush-course'], plan: shop.ids['sketch-monthly'] }] }, 'items[0].plan'],
      [{ items: [course()], expiresAt: '2001-01-01T00:00:00Z' }, 'expiresAt'],
      [{ items: [course()], redirectUrl: 'ftp://x.example' }, 'redirectUrl'],
      [{ items: [course()], price: 1 }, 'price'],
      [{ items: [] }, 'items'],
    ] as const) {
      const res = await api('POST', '/checkout-links', body);
      assert.equal(res.statusCode, 400, res.body);
      assert.ok(res.json().message.includes(`\`${field}\``), res.json().message);
    }
  });
});

describe('checkout links with several tiers, preselected add-ons and an amount range', () => {
  const pwyw = () => ({ id: shop.ids['brush-course'], plan: shop.ids['brush-pwyw'] });

  it('stores several tiers with their add-ons and range, and answers them back (the one-tier shape is unchanged)', async () => {
    const res = await api('POST', '/checkout-links', { items: [
      { ...course(), addons: [shop.ids['brush-kit']] },
      { ...pwyw(), customAmountRange: { min: 25, max: 100 } },
    ] });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json().data.items, [
      { ...course(), addons: [shop.ids['brush-kit']] },
      { ...pwyw(), customAmountRange: { min: 25, max: 100 } },
    ]);
    const plain = await makeLink({ items: [course()] }) as unknown as { items: unknown[] };
    assert.deepEqual(plain.items, [course()]);
  });

  it('refuses an add-on not on the product, a range on a fixed-price tier or below the tier\'s price, and a max below min, naming each field', async () => {
    const other = await createBrandWithCatalog(t.db);
    for (const [items, field, words] of [
      [[{ ...course(), addons: [shop.ids['lesson-1']] }], 'items[0].addons[0]', 'is not an add-on of product'],
      [[{ ...course(), addons: [other.ids['brush-kit']] }], 'items[0].addons[0]', 'is not an add-on of product'],
      [[{ id: shop.ids['studio-club'], plan: shop.ids['club-pro'], addons: [shop.ids['brush-kit']] }], 'items[0].addons[0]', 'has no add-ons'],
      [[{ ...course(), customAmountRange: { min: 40 } }], 'items[0].customAmountRange', 'applies only to pay-what-you-want tiers'],
      [[course(), { ...pwyw(), customAmountRange: { min: 10 } }], 'items[1].customAmountRange.min', 'may not be below the tier\'s price of 20.00 USD'],
      [[{ ...pwyw(), customAmountRange: { min: 50, max: 30 } }], 'items[0].customAmountRange.max', 'may not be below min (50.00 USD)'],
      [[{ ...pwyw(), customAmountRange: { min: 25.001 } }], 'items[0].customAmountRange.min', 'has more decimals'],
      [[{ ...pwyw(), customAmountRange: {} }], 'items[0].customAmountRange', ''],
    ] as const) {
      const res = await api('POST', '/checkout-links', { items });
      assert.equal(res.statusCode, 400, `${field}: ${res.body}`);
      const body = res.json();
      assert.ok(body.message.includes(`\`${field}\``), `${field}: ${body.message}`);
      assert.ok(JSON.stringify(body).includes(words), `${field}: says "${words}": ${res.body}`);
    }
    const link = await makeLink({ items: [course()] });
    const patched = await api('PATCH', `/checkout-links/${link.id}`, { items: [{ ...course(), customAmountRange: { max: 90 } }] });
    assert.equal(patched.statusCode, 400);
    assert.ok(patched.json().message.includes('`items[0].customAmountRange`'));
  });

  it('lets the buyer choose the tier, ticks the preselected add-ons, and holds the amount to the link\'s range', async () => {
    const link = await makeLink({ items: [
      { ...course(), addons: [shop.ids['brush-kit']] },
      { ...pwyw(), customAmountRange: { min: 25, max: 100 } },
    ] });
    const path = new URL(link.url).pathname;
    const page = (await t.app.inject({ method: 'GET', url: path })).body;
    assert.ok(page.includes('Choose an option') && page.includes(`value="${shop.ids['brush-pwyw']}"`), 'both tiers are offered');
    assert.match(page, new RegExp(`id="addon_${shop.ids['brush-kit']}" name="addon_${shop.ids['brush-kit']}" value="on" checked`), 'the add-on is ticked');
    assert.ok(page.includes('54.50 USD plus the add-ons you tick'), 'the button states the price with the ticked add-on');

    // The buyer picks the pay-what-you-want tier: its range is said, and the add-on is not ticked for it.
    const chosen = await submitForm(path, { tier: shop.ids['brush-pwyw'], shown_tier: shop.ids['brush-standard'], choose: '1', [`addon_${shop.ids['brush-kit']}`]: 'on' });
    assert.equal(chosen.statusCode, 200);
    assert.ok(chosen.body.includes('From 25.00 to 100.00 USD.'), 'the range is said beside the price');
    assert.doesNotMatch(chosen.body, new RegExp(`name="addon_${shop.ids['brush-kit']}" value="on" checked`));

    const form = { ...buyer('range'), tier: shop.ids['brush-pwyw'], field_experienceLevel: 'Beginner' };
    for (const [amount, words] of [['150', 'Your price may not be above 100.00 USD through this link'], ['22', 'Your price may not be below 25.00 USD through this link']]) {
      const refused = await submitForm(path, { ...form, customAmount: amount });
      assert.equal(refused.statusCode, 400, amount);
      assert.ok(refused.body.includes(`id="customAmount-error">${words}`), `${amount}: ${words}`);
    }
    const fine = await submitForm(path, { ...form, customAmount: '100' });
    assert.equal(fine.statusCode, 303, fine.body);
    assert.ok((await t.app.inject({ method: 'GET', url: String(fine.headers.location) })).body.includes('Pay 100.00 USD'));

    // The fixed tier with its preselected add-on, as the buyer leaves it ticked.
    const standard = await submitForm(path, { ...buyer('kit'), tier: shop.ids['brush-standard'], field_experienceLevel: 'Beginner', [`addon_${shop.ids['brush-kit']}`]: 'on' });
    assert.equal(standard.statusCode, 303, standard.body);
    const paid = await submitCard(t, String(standard.headers.location), cards.ok);
    const txref = /txref=([^&]+)/.exec(String(paid.headers.location))![1];
    assert.equal((await api('GET', `/transactions/${txref}`)).json().data.amount, 54.5);
  });
});

describe('GET and PATCH /checkout-links', () => {
  runCommonRouteTests('GET /checkout-links/{id}', {
    method: 'GET', scope: ['checkout:write', 'transactions:read'], foreign: 404, modeScoped: true,
    async setup({ t, brandId, mode }) {
      const refs = await loadCatalog(t.db, brandId, { products: [{ ref: 'p', type: 'digital', title: 'Guide', tiers: [{ ref: 't', name: 'Paid', price: { amount: 5, currency: 'USD' } }] }] });
      const [row] = await t.db.query<{ id: string }>(
        `INSERT INTO checkout_links (brand_id, id, mode, items, status) VALUES ($1, 'clink_' || md5(random()::text), $2, $3::text::jsonb, 'active') RETURNING id`,
        [brandId, mode, JSON.stringify([{ id: refs.p, plan: refs.t }])]);
      return { url: `/api/v1/checkout-links/${row.id}`, marker: row.id };
    },
  }, () => t);

  runCommonRouteTests('GET /checkout-links', {
    method: 'GET', scope: ['checkout:write', 'transactions:read'], foreign: 'hidden', modeScoped: true,
    async setup({ t, brandId, mode }) {
      const [row] = await t.db.query<{ id: string }>(
        `INSERT INTO checkout_links (brand_id, id, mode, items, status) VALUES ($1, 'clink_' || md5(random()::text), $2, '[]', 'active') RETURNING id`, [brandId, mode]);
      return { url: '/api/v1/checkout-links', marker: row.id };
    },
  }, () => t);

  runCommonRouteTests('PATCH /checkout-links/{id}', {
    method: 'PATCH', scope: 'checkout:write', foreign: 404, modeScoped: true,
    async setup({ t, brandId, mode }) {
      const [row] = await t.db.query<{ id: string }>(
        `INSERT INTO checkout_links (brand_id, id, mode, items, status) VALUES ($1, 'clink_' || md5(random()::text), $2, '[]', 'active') RETURNING id`, [brandId, mode]);
      return { url: `/api/v1/checkout-links/${row.id}`, body: { name: 'Renamed' }, marker: row.id };
    },
  }, () => t);

  it('lists links by tier, changes and clears fields, and refuses a cap below the sales made', async () => {
    const link = await makeLink({ items: [course()], name: 'Newsletter' });
    const listed = (await api('GET', `/checkout-links?tier=${shop.ids['brush-standard']}`)).json().data.items as { id: string }[];
    assert.ok(listed.some((l) => l.id === link.id));
    assert.ok(!((await api('GET', `/checkout-links?tier=${shop.ids['sketch-monthly']}`)).json().data.items as { id: string }[]).some((l) => l.id === link.id));
    const res = await api('PATCH', `/checkout-links/${link.id}`, { status: 'disabled', name: null, maxSales: 3 });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data.status, 'disabled');
    assert.equal(res.json().data.name, undefined);
    assert.equal(res.json().data.maxSales, 3);
    assert.equal((await api('GET', `/checkout-links/${link.id}`, undefined, shop.liveKey)).statusCode, 404, 'a live key does not see a test link');
  });
});

describe('the web checkout', () => {
  it('shows the form with the product, the price on the button, the test band, and attribution from the address', async () => {
    const link = await makeLink({ items: [course()] });
    const path = new URL(link.url).pathname;
    const res = await t.app.inject({ method: 'GET', url: `${path}?utm_source=ig&utm_campaign=spring&gclid=abc123`, headers: { 'accept-language': 'pt-PT,pt;q=0.9' } });
    assert.equal(res.statusCode, 200, res.body);
    const page = res.body;
    for (const text of ['Brushwork fundamentals', 'Standard', '39.50 USD', 'Test mode', 'Experience level', 'Company name', 'Brush kit (+15.00 USD)',
      '39.50 USD plus the add-ons you tick', 'Continue to payment', 'name="utmRef" value="utm_source=ig&amp;utm_campaign=spring"', 'name="adClickID" value="abc123"',
      'name="adType" value="google"', 'id="countryCode" name="countryCode" value="PT"', 'id="coupon" name="coupon" value=""']) {
      assert.ok(page.includes(text), `shows ${text}`);
    }
    assert.match(page, /<input type="checkbox" id="receive_emails" name="receive_emails" value="on">/, 'the opt-in is unticked');
    assert.doesNotMatch(page, /<script/);
  });

  it('shows each problem beside its field, in words, and makes nothing until the form is valid', async () => {
    const link = await makeLink({ items: [course()] });
    const path = new URL(link.url).pathname;
    const before = (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM payment_links WHERE brand_id = $1', [shop.brand.id]))[0].n;
    const res = await submitForm(path, { fullName: '', email: 'not-an-email', countryCode: 'Portugal', phone: 'abc' });
    assert.equal(res.statusCode, 400);
    for (const [id, text] of [['fullName', 'Full name is required'], ['countryCode', 'Country code must be two letters']]) {
      assert.ok(res.body.includes(`id="${id}-error">${text}`), `${id}: ${text}`);
      assert.ok(res.body.includes(`aria-describedby="${id === 'fullName' ? '' : `${id}-hint `}${id}-error"`), `${id} is described by its error`);
    }
    const second = await submitForm(path, { ...buyer('x'), email: 'not-an-email', phone: 'abc' });
    assert.equal(second.statusCode, 400);
    for (const [id, text] of [['email', 'Email is not a valid email address'], ['phone', 'Phone is not a phone number'], ['field_experienceLevel', 'Experience level is required']]) {
      assert.ok(second.body.includes(`id="${id}-error">${text}`), `${id}: ${text}\n`);
    }
    assert.ok(second.body.includes('value="Buyer x"'), 'what was typed is kept');
    const afterCount = (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM payment_links WHERE brand_id = $1', [shop.brand.id]))[0].n;
    assert.equal(afterCount, before);
  });

  it('makes the buyer\'s payment link by the API\'s rules; paying it records consent and attribution, visible through the API', async () => {
    const link = await makeLink({ items: [course()] });
    const path = new URL(link.url).pathname;
    const res = await submitForm(path, { ...buyer('paid'), tier: shop.ids['brush-standard'], field_experienceLevel: 'Advanced', field_companyName: 'Ink Co',
      [`addon_${shop.ids['brush-kit']}`]: 'on', receive_emails: 'on', utmRef: 'utm_source=ig', adClickID: 'fb1', adType: 'facebook' });
    assert.equal(res.statusCode, 303, res.body);
    const checkout = String(res.headers.location);
    assert.match(checkout, new RegExp(`^/checkout/${shop.brand.id}/plink_`));
    const hosted = (await t.app.inject({ method: 'GET', url: checkout })).body;
    assert.ok(hosted.includes('Pay 54.50 USD'), 'the pay button states the amount');
    const paid = await submitCard(t, checkout, cards.ok);
    assert.equal(paid.statusCode, 303);
    const result = (await t.app.inject({ method: 'GET', url: String(paid.headers.location) })).body;
    assert.ok(result.includes('What happens next') && result.includes('buyerpaid@example.com'));
    const txref = /txref=([^&]+)/.exec(String(paid.headers.location))![1];
    const tx = (await api('GET', `/transactions/${txref}`)).json().data;
    assert.equal(tx.status, 'succeeded');
    assert.equal(tx.amount, 54.5);
    assert.deepEqual(tx.attribution, { utmRef: 'utm_source=ig', adClickID: 'fb1', adType: 'facebook' });
    const customers = (await api('GET', `/products/${shop.ids['brush-course']}/customers?email=buyerpaid@example.com`)).json().data.items;
    assert.equal(customers.length, 1);
    assert.equal(customers[0].receiveEmails, true);
    assert.equal((await api('GET', `/checkout-links/${link.id}`)).json().data.sales, 1);
    // The same link again, for another buyer who does not tick the opt-in.
    const again = await submitForm(path, { ...buyer('second'), field_experienceLevel: 'Beginner' });
    assert.equal(again.statusCode, 303, again.body);
    await submitCard(t, String(again.headers.location), cards.ok);
    const second = (await api('GET', `/products/${shop.ids['brush-course']}/customers?email=buyersecond@example.com`)).json().data.items;
    assert.equal(second[0].receiveEmails, false);
    assert.equal((await api('GET', `/checkout-links/${link.id}`)).json().data.sales, 2);
  });

  it('asks for one guest per extra ticket and a price on a pay-what-you-want tier', async () => {
    const pair = await makeLink({ items: [{ id: shop.ids['live-workshop'], plan: shop.ids['workshop-pair'] }] });
    const path = new URL(pair.url).pathname;
    const page = (await t.app.inject({ method: 'GET', url: path })).body;
    assert.ok(page.includes('Guest 1 name') && !page.includes('Guest 2 name'));
    const missing = await submitForm(path, buyer('g'));
    assert.equal(missing.statusCode, 400);
    assert.ok(missing.body.includes('id="guest1_name-error">Guest 1 name is required'));
    const ok = await submitForm(path, { ...buyer('g'), guest1_name: 'Grace', guest1_email: 'grace@example.com' });
    assert.equal(ok.statusCode, 303, ok.body);

    const pwyw = await makeLink({ items: [{ id: shop.ids['brush-course'], plan: shop.ids['brush-pwyw'] }] });
    const pwywPath = new URL(pwyw.url).pathname;
    assert.ok((await t.app.inject({ method: 'GET', url: pwywPath })).body.includes('At least 20.00 USD'));
    const low = await submitForm(pwywPath, { ...buyer('p'), field_experienceLevel: 'Beginner', customAmount: '5' });
    assert.equal(low.statusCode, 400);
    assert.ok(low.body.includes('id="customAmount-error">Your price may not be below the tier price of 20.00 USD'));
    const fine = await submitForm(pwywPath, { ...buyer('p'), field_experienceLevel: 'Beginner', customAmount: '25.50' });
    assert.equal(fine.statusCode, 303, fine.body);
    assert.ok((await t.app.inject({ method: 'GET', url: String(fine.headers.location) })).body.includes('Pay 25.50 USD'));
  });

  it('says when sales have ended, when the link is closed or capped, and when a tier is sold out', async () => {
    const refs = await loadCatalog(t.db, shop.brand.id, { products: [{ ref: 'tiny', type: 'event', title: 'Tiny class',
      event: { eventType: 'in_person', venue: 'Room 1', dateTime: '2030-01-01T10:00:00Z' },
      tiers: [{ ref: 'seat', name: 'Seat', price: { amount: 10, currency: 'USD' }, slots: 1 },
        { ref: 'late', name: 'Late', price: { amount: 10, currency: 'USD' }, timeBound: '2030-01-01T00:00:00Z' }] }] });
    const tiny = await makeLink({ items: [{ id: refs.tiny, plan: refs.seat }] });
    const path = new URL(tiny.url).pathname;
    assert.ok((await t.app.inject({ method: 'GET', url: path })).body.includes('1 left'));
    const first = await submitForm(path, buyer('s1'));
    const second = await submitForm(path, buyer('s2'));
    assert.equal(first.statusCode, 303);
    assert.equal(second.statusCode, 303, 'both may fill in the form while one place is left');
    assert.equal((await submitCard(t, String(first.headers.location), cards.ok)).statusCode, 303);
    const late = await submitCard(t, String(second.headers.location), cards.ok);
    assert.equal(late.statusCode, 409);
    assert.ok(late.body.includes('Sold out') && late.body.includes('Nothing was charged'));
    const page = (await t.app.inject({ method: 'GET', url: path }));
    assert.equal(page.statusCode, 200);
    assert.ok(page.body.includes('0 left'));
    const refused = await submitForm(path, buyer('s3'));
    assert.equal(refused.statusCode, 409);
    assert.ok(refused.body.includes('Sold out'));

    const ending = await makeLink({ items: [{ id: refs.tiny, plan: refs.late }] });
    assert.ok((await t.app.inject({ method: 'GET', url: new URL(ending.url).pathname })).body.includes('Sales end'));
    await t.db.query('UPDATE tiers SET time_bound = $3 WHERE brand_id = $1 AND id = $2', [shop.brand.id, refs.late, new Date(Date.now() - 1000)]);
    const ended = await submitForm(new URL(ending.url).pathname, buyer('e'));
    assert.equal(ended.statusCode, 400);
    assert.match(ended.body, /ended at/);

    const capped = await makeLink({ items: [course()], maxSales: 1 });
    const cappedPath = new URL(capped.url).pathname;
    const c1 = await submitForm(cappedPath, { ...buyer('c1'), field_experienceLevel: 'Beginner' });
    await submitCard(t, String(c1.headers.location), cards.ok);
    assert.equal((await t.app.inject({ method: 'GET', url: cappedPath })).statusCode, 410);
    await api('PATCH', `/checkout-links/${capped.id}`, { maxSales: 5 });
    await api('PATCH', `/checkout-links/${capped.id}`, { status: 'disabled' });
    const closed = await t.app.inject({ method: 'GET', url: cappedPath });
    assert.equal(closed.statusCode, 410);
    assert.ok(closed.body.includes('closed this checkout link'));
    assert.equal((await t.app.inject({ method: 'GET', url: `/buy/${shop.brand.id}/clink_doesnotexist` })).statusCode, 404);
  });

  it('gives a place back when the card is declined', async () => {
    const refs = await loadCatalog(t.db, shop.brand.id, { products: [{ ref: 'one', type: 'event', title: 'One seat only',
      event: { eventType: 'online', venue: 'Online', dateTime: '2030-01-01T10:00:00Z' }, tiers: [{ ref: 'seat', name: 'Seat', price: { amount: 10, currency: 'USD' }, slots: 1 }] }] });
    const link = await makeLink({ items: [{ id: refs.one, plan: refs.seat }] });
    const path = new URL(link.url).pathname;
    const made = await submitForm(path, buyer('d'));
    const declined = await submitCard(t, String(made.headers.location), cards.declined);
    assert.equal(declined.statusCode, 303);
    assert.ok((await t.app.inject({ method: 'GET', url: path })).body.includes('1 left'), 'the declined payment held nothing');
    const retry = await submitCard(t, String(made.headers.location), cards.ok);
    assert.equal(retry.statusCode, 303);
    assert.ok((await t.app.inject({ method: 'GET', url: path })).body.includes('0 left'));
  });

  it('sells exactly the slots when many buyers pay at once', async () => {
    const refs = await loadCatalog(t.db, shop.brand.id, { products: [{ ref: 'race', type: 'event', title: 'Popular class',
      event: { eventType: 'online', venue: 'Online', dateTime: '2030-01-01T10:00:00Z' }, tiers: [{ ref: 'seat', name: 'Seat', price: { amount: 10, currency: 'USD' }, slots: 10 }] }] });
    const link = await makeLink({ items: [{ id: refs.race, plan: refs.seat }] });
    const path = new URL(link.url).pathname;
    const buyers = 100;
    const checkouts: string[] = [];
    for (let i = 0; i < buyers; i++) {
      const res = await submitForm(path, buyer(`race${i}`));
      assert.equal(res.statusCode, 303, res.body);
      checkouts.push(String(res.headers.location));
    }
    const answers = await Promise.all(checkouts.map((c) => submitCard(t, c, cards.ok)));
    const paid = answers.filter((a) => a.statusCode === 303).length;
    const soldOut = answers.filter((a) => a.statusCode === 409 && a.body.includes('Sold out')).length;
    assert.equal(paid, 10);
    assert.equal(soldOut, buyers - 10);
    const [{ n }] = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM transactions t JOIN payment_links p ON p.brand_id = t.brand_id AND p.id = t.payment_link_id
       WHERE p.brand_id = $1 AND p.checkout_link_id = $2 AND t.status = 'succeeded'`, [shop.brand.id, link.id]);
    assert.equal(n, 10);
  });
});
