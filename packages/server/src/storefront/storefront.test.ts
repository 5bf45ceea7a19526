import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { createBrandWithCatalog } from '../testing/factories.ts';

let t: TestApp;
let shop: Awaited<ReturnType<typeof createBrandWithCatalog>>;
let slug: string;
before(async () => {
  t = await startTestApp({ publicUrl: 'https://shop.example.com' });
  shop = await createBrandWithCatalog(t.db);
  slug = `inkwell-${shop.brand.id.slice(-6).toLowerCase().replace(/[^a-z0-9]/g, 'x')}`;
  const res = await t.request({ method: 'PATCH', url: '/api/v1/brand', key: shop.testKey, payload: { slug, displayName: 'Inkwell Studio', accentColor: '#6b21a8', timeZone: 'Europe/Lisbon', supportEmail: 'help@inkwell.example', logoUrl: 'https://cdn.example.com/ink.png' } });
  assert.equal(res.statusCode, 200, res.body);
});
after(async () => { await t.close(); });

const get = (url: string) => t.app.inject({ method: 'GET', url });
const ids = () => shop.ids;

describe('storefront pages', () => {
  it('lists published public products and hubs with share tags and a canonical address, no scripts', async () => {
    const res = await get(`/s/${slug}`);
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /text\/html/);
    assert.match(String(res.headers['content-security-policy']), /default-src 'none'/);
    assert.doesNotMatch(res.body, /<script/);
    assert.doesNotMatch(res.body, /noindex/, 'the storefront is meant to be found');
    assert.ok(res.body.includes(`<link rel="canonical" href="https://shop.example.com/s/${slug}">`));
    assert.match(res.body, /<meta property="og:title" content="Inkwell Studio">/);
    assert.match(res.body, /<meta name="twitter:card" content="summary_large_image">/);
    for (const title of ['Brushwork fundamentals', 'Live landscape workshop', 'Weekly sketch prompts', 'Studio Club']) assert.ok(res.body.includes(title), title);
    assert.ok(res.body.includes('help@inkwell.example'));
    assert.ok(res.body.includes('background:#6b21a8'), 'the accent colour');
  });

  it('sends the brand id address of a brand with a slug to the slug (301) and answers an unknown brand 404', async () => {
    const res = await get(`/s/${shop.brand.id}/p/${ids()['brush-course']}`);
    assert.equal(res.statusCode, 301);
    assert.equal(res.headers.location, `/s/${slug}/p/${ids()['brush-course']}`);
    assert.equal((await get('/s/nobody-here')).statusCode, 404);
    assert.equal((await get(`/s/${slug}/p/prod_nothing`)).statusCode, 404);
  });

  it('shows a product: image, description, items with durations, tiers with price, discount, perks, keywords as tags', async () => {
    const res = await get(`/s/${slug}/p/${ids()['brush-course']}`);
    assert.equal(res.statusCode, 200);
    const page = res.body;
    for (const text of ['https://example.com/brush.jpg', 'Six lessons on brush control.', 'Holding the brush', '(10 min)', '(15 min)',
      'Standard', '39.50 USD', '49.50 USD', 'You save 10.00 USD', 'Lifetime access', 'Pay what you want, from 20.00 USD',
      '<li>brushwork</li>', 'Brush kit: 15.00 USD', '<meta property="og:type" content="product">',
      `<link rel="canonical" href="https://shop.example.com/s/${slug}/p/${ids()['brush-course']}">`]) {
      assert.ok(page.includes(text), `shows ${text}`);
    }
    assert.ok(page.includes('Not on sale online yet'), 'no checkout link yet: no button');
  });

  it('shows an event in the brand\'s time zone with places left, and recurrence in words', async () => {
    const event = (await get(`/s/${slug}/p/${ids()['live-workshop']}`)).body;
    // 15:00 UTC on 14 March 2027 is 15:00 in Lisbon (WET, UTC+0).
    assert.ok(event.includes('Sunday, 14 March 2027 at 15:00 WET'), 'the date and time');
    assert.ok(event.includes('The Studio, 12 Canal St'));
    assert.ok(event.includes('In person and online'));
    assert.ok(event.includes('40 left') && event.includes('10 left'), 'slots left');
    assert.ok(event.includes('2 tickets per purchase'));
    const club = (await get(`/s/${slug}/p/${ids()['sketch-club']}`)).body;
    assert.ok(club.includes('Billed every month, until cancelled'));
    assert.ok(club.includes('Billed every year, until cancelled'));
  });

  it('shows a hub with its plans; a draft, private or archived product is 404; an unlisted one is shown but not indexed or listed', async () => {
    const hub = (await get(`/s/${slug}/h/${ids()['studio-club']}`)).body;
    for (const text of ['Studio Club', 'Free member', 'Pro member', 'Live critiques', 'Billed every month, until cancelled', 'Brushwork fundamentals']) assert.ok(hub.includes(text), text);
    const setProduct = async (id: string, change: object) => {
      const res = await t.request({ method: 'PATCH', url: `/api/v1/products/${id}`, key: shop.testKey, payload: change });
      assert.equal(res.statusCode, 200, res.body);
    };
    const id = ids()['palette-guide'];
    for (const change of [{ status: 'draft' }, { status: 'archived' }, { status: 'published', visibility: 'private' }]) {
      await setProduct(id, change);
      assert.equal((await get(`/s/${slug}/p/${id}`)).statusCode, 404, JSON.stringify(change));
      assert.ok(!(await get(`/s/${slug}`)).body.includes('Watercolour palette guide'));
    }
    await setProduct(id, { visibility: 'unlisted' });
    const unlisted = await get(`/s/${slug}/p/${id}`);
    assert.equal(unlisted.statusCode, 200);
    assert.match(unlisted.body, /<meta name="robots" content="noindex">/);
    assert.ok(!(await get(`/s/${slug}`)).body.includes('Watercolour palette guide'));
    await setProduct(id, { visibility: 'public' });
  });

  it('escapes what the creator wrote', async () => {
    const res = await t.request({ method: 'PATCH', url: `/api/v1/products/${ids()['sketch-club']}`, key: shop.testKey, payload: { description: '<img src=x onerror=alert(1)> "quoted"' } });
    assert.equal(res.statusCode, 200, res.body);
    const page = (await get(`/s/${slug}/p/${ids()['sketch-club']}`)).body;
    assert.ok(!page.includes('<img src=x'));
    assert.ok(page.includes('&lt;img src=x onerror=alert(1)&gt; &quot;quoted&quot;'));
  });
});
