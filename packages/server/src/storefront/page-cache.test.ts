import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadCatalog } from '../catalog/load.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { cards, submitCard } from '../testing/checkout-fixtures.ts';
import { createBrand, createKey } from '../testing/factories.ts';

/**
 * Storefront pages are kept in the catalog cache (storefront/page-cache.ts, docs/storefront.md):
 * a page is served without reading the database again, and shows every change a buyer would notice
 * at once: a catalog write, a sale taking a place, a new checkout link, a new slug, and a sale
 * closing at its timeBound with no write at all.
 */

let t: TestApp;
before(async () => { t = await startTestApp({ publicUrl: 'https://shop.example.com' }); });
after(async () => { await t.close(); });

async function shop(slug: string, limited = true) {
  const brand = await createBrand(t.db, { name: `Shop ${slug}` });
  const { key } = await createKey(t.db, brand.id, { mode: 'test' });
  const ids = await loadCatalog(t.db, brand.id, { products: [{ ref: 'talk', type: 'event', title: 'Evening talk', description: 'An hour on sketching.',
    event: { eventType: 'online', venue: 'Online', dateTime: '2030-06-20T18:00:00.000Z' },
    tiers: [{ ref: 'seat', name: 'Seat', price: { amount: 15, currency: 'USD' }, ...(limited ? { slots: 3 } : {}) }] }] });
  const api = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) => t.request({ method, url: `/api/v1${url}`, key, ...(payload ? { payload } : {}) });
  assert.equal((await api('PATCH', '/brand', { slug })).statusCode, 200);
  return { brand, ids, api, page: (path = `/p/${ids.talk}`) => t.app.inject({ method: 'GET', url: `/s/${slug}${path}` }) };
}

describe('storefront pages from the catalog cache', () => {
  it('serves a kept page without reading the catalog, and shows a catalog write at once', async () => {
    const s = await shop('cache-writes');
    assert.ok((await s.page()).body.includes('Evening talk'));
    // On PostgreSQL the setup's own change notifications arrive a moment later and drop the brand once more.
    await new Promise((r) => setTimeout(r, 500));
    assert.ok((await s.page()).body.includes('Evening talk'));
    // Behind the service's back (no catalog write recorded): the kept page does not change.
    await t.db.query('UPDATE products SET title = $3 WHERE brand_id = $1 AND id = $2', [s.brand.id, s.ids.talk, 'Changed in SQL']);
    assert.ok((await s.page()).body.includes('Evening talk'), 'served from the cache');
    assert.ok((await t.app.inject({ method: 'GET', url: '/s/cache-writes' })).body.includes('Changed in SQL'), 'the storefront was not kept yet');
    // Through the API: the very next page view shows it.
    assert.equal((await s.api('PATCH', `/products/${s.ids.talk}`, { title: 'Evening talk: cities' })).statusCode, 200);
    assert.ok((await s.page()).body.includes('Evening talk: cities'));
    assert.ok((await t.app.inject({ method: 'GET', url: '/s/cache-writes' })).body.includes('Evening talk: cities'));
    assert.equal((await s.api('PATCH', `/products/${s.ids.talk}`, { status: 'draft' })).statusCode, 200);
    assert.equal((await s.page()).statusCode, 404, 'unpublished: gone at once');
  });

  it('shows a new checkout link\'s button and each place sold at once', async () => {
    const s = await shop('cache-stock');
    assert.ok((await s.page()).body.includes('Not on sale online yet'));
    const made = await s.api('POST', '/checkout-links', { items: [{ id: s.ids.talk, plan: s.ids.seat }] });
    assert.equal(made.statusCode, 200, made.body);
    const before = (await s.page()).body;
    assert.ok(before.includes(`/buy/${s.brand.id}/${made.json().data.id}`), 'the button goes to the new link');
    assert.ok(before.includes('3 left'));
    const form = await t.app.inject({ method: 'POST', url: new URL(made.json().data.url).pathname, headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ fullName: 'Ada', email: 'ada@example.com', countryCode: 'PT' }).toString() });
    assert.equal((await submitCard(t, String(form.headers.location), cards.ok)).statusCode, 303);
    assert.ok((await s.page()).body.includes('2 left'));
    const declinedForm = await t.app.inject({ method: 'POST', url: new URL(made.json().data.url).pathname, headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ fullName: 'Bo', email: 'bo@example.com', countryCode: 'PT' }).toString() });
    assert.equal((await submitCard(t, String(declinedForm.headers.location), cards.declined)).statusCode, 303);
    assert.ok((await s.page()).body.includes('2 left'), 'a declined card gave its place back');
  });

  it('keeps what a checkout link sells, but reads its places left and its own state every time', async () => {
    const s = await shop('cache-buy');
    const made = (await s.api('POST', '/checkout-links', { items: [{ id: s.ids.talk, plan: s.ids.seat }] })).json().data;
    const path = new URL(made.url).pathname;
    const buy = () => t.app.inject({ method: 'GET', url: path });
    assert.ok((await buy()).body.includes('3 left'));
    assert.equal((await s.api('PATCH', `/products/${s.ids.talk}`, { title: 'Evening talk: rivers' })).statusCode, 200);
    assert.ok((await buy()).body.includes('Evening talk: rivers'), 'a catalog write shows at once');
    // Places taken behind the cache's back (no catalog write): the form still sees them.
    await t.db.query(`INSERT INTO tier_stock (brand_id, mode, tier_id, held) VALUES ($1, 'test', $2, 3)
      ON CONFLICT (brand_id, mode, tier_id) DO UPDATE SET held = 3`, [s.brand.id, s.ids.seat]);
    assert.ok((await buy()).body.includes('Sold out'), 'places left are never kept');
    assert.equal((await s.api('PATCH', `/checkout-links/${made.id}`, { status: 'disabled' })).statusCode, 200);
    assert.equal((await buy()).statusCode, 410);
  });

  it('closes the sale on the page at the tier\'s timeBound with no write at all', async () => {
    const s = await shop('cache-time', false);
    await s.api('POST', '/checkout-links', { items: [{ id: s.ids.talk, plan: s.ids.seat }] });
    const ends = new Date(Date.now() + 1500);
    await t.db.query('UPDATE tiers SET time_bound = $3 WHERE brand_id = $1 AND id = $2', [s.brand.id, s.ids.seat, ends]);
    await s.api('PATCH', '/brand', { timeZone: 'UTC' }); // a catalog write, so the page is read with that instant
    assert.ok((await s.page()).body.includes('Sales end'));
    assert.ok((await s.page()).body.includes('Sales end'), 'kept');
    await new Promise((r) => setTimeout(r, Math.max(ends.getTime() - Date.now() + 50, 0)));
    const after = (await s.page()).body;
    assert.ok(after.includes('Sales have ended'), 'the kept page expired at the instant');
  });

  it('follows a slug change: the new address serves, the old one is not found', async () => {
    const s = await shop('cache-old-slug');
    assert.equal((await t.app.inject({ method: 'GET', url: '/s/cache-old-slug' })).statusCode, 200);
    assert.equal((await s.api('PATCH', '/brand', { slug: 'cache-new-slug', displayName: 'Renamed Studio' })).statusCode, 200);
    assert.equal((await t.app.inject({ method: 'GET', url: '/s/cache-old-slug' })).statusCode, 404);
    const renamed = await t.app.inject({ method: 'GET', url: '/s/cache-new-slug' });
    assert.equal(renamed.statusCode, 200);
    assert.ok(renamed.body.includes('Renamed Studio'));
    assert.equal((await t.app.inject({ method: 'GET', url: `/s/${s.brand.id}` })).statusCode, 301);
  });
});
