import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { runCommonRouteTests } from '../testing/auth-checks.ts';
import { createBrand, createBrandWithCatalog, createKey } from '../testing/factories.ts';

let t: TestApp;
before(async () => { t = await startTestApp({ publicUrl: 'https://shop.example.com' }); });
after(async () => { await t.close(); });

const patch = (key: string, payload: object) => t.request({ method: 'PATCH', url: '/api/v1/brand', key, payload });
const get = (key: string) => t.request({ method: 'GET', url: '/api/v1/brand', key });

describe('GET /brand', () => {
  runCommonRouteTests('GET /brand', {
    method: 'GET', scope: 'products:read', foreign: 'none', modeScoped: false,
    async setup({ brandId }) { return { url: '/api/v1/brand', marker: brandId }; },
  }, () => t);

  it('answers the account name as display name and the storefront by id until a slug is set', async () => {
    const brand = await createBrand(t.db, { name: 'Ink & Paper' });
    const { key } = await createKey(t.db, brand.id);
    const res = await get(key);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json().data, { id: brand.id, name: 'Ink & Paper', displayName: 'Ink & Paper', storefrontUrl: `https://shop.example.com/s/${brand.id}`, embedOrigins: [] });
  });
});

describe('PATCH /brand', () => {
  runCommonRouteTests('PATCH /brand', {
    method: 'PATCH', scope: 'products:write', foreign: 'none', modeScoped: false,
    async setup({ brandId }) { return { url: '/api/v1/brand', body: { displayName: `Shop ${brandId}` }, marker: brandId }; },
  }, () => t);

  it('sets every field, answers what GET then reads, and clears one with null', async () => {
    const brand = await createBrand(t.db, { name: 'Acct' });
    const { key } = await createKey(t.db, brand.id);
    const slug = `ink-${brand.id.slice(-8).toLowerCase().replace(/[^a-z0-9]/g, 'x')}`;
    const body = { displayName: 'Ink Studio', slug, logoUrl: 'https://cdn.example.com/logo.png', accentColor: '#1F4E9A',
      supportEmail: 'help@ink.example', timeZone: 'Europe/Lisbon', defaultCurrency: 'EUR', embedOrigins: ['https://ink.example'] };
    const res = await patch(key, body);
    assert.equal(res.statusCode, 200, res.body);
    const expected = { id: brand.id, name: 'Acct', ...body, accentColor: '#1f4e9a', storefrontUrl: `https://shop.example.com/s/${slug}` };
    assert.deepEqual(res.json().data, expected);
    assert.deepEqual((await get(key)).json().data, expected);
    const cleared = await patch(key, { logoUrl: null, displayName: null });
    assert.equal(cleared.json().data.logoUrl, undefined);
    assert.equal(cleared.json().data.displayName, 'Acct');
    assert.equal(cleared.json().data.slug, slug, 'fields not sent stay');
  });

  it('refuses a slug another brand holds with 409, and bad values with 400 naming the field', async () => {
    const a = await createBrand(t.db);
    const b = await createBrand(t.db);
    const keyA = (await createKey(t.db, a.id)).key;
    const keyB = (await createKey(t.db, b.id)).key;
    const slug = `taken-${a.id.slice(-6).toLowerCase().replace(/[^a-z0-9]/g, 'x')}`;
    assert.equal((await patch(keyA, { slug })).statusCode, 200);
    const taken = await patch(keyB, { slug });
    assert.equal(taken.statusCode, 409, taken.body);
    assert.match(taken.json().message, /taken by another brand/);
    assert.equal((await patch(keyA, { slug })).statusCode, 200, 'a brand may keep its own slug');
    for (const [body, field] of [
      [{ slug: 'Has Spaces' }, 'slug'], [{ slug: 'UPPER' }, 'slug'], [{ slug: 'checkout' }, 'slug'], [{ slug: 'a--b' }, 'slug'],
      [{ accentColor: '#ffff00' }, 'accentColor'], [{ accentColor: 'blue' }, 'accentColor'],
      [{ timeZone: 'Mars/Olympus' }, 'timeZone'], [{ supportEmail: 'nope' }, 'supportEmail'],
      [{ logoUrl: 'javascript:alert(1)' }, 'logoUrl'], [{ defaultCurrency: 'usd' }, 'defaultCurrency'],
      [{ unknown: 1 }, 'unknown'], [{ displayName: '   ' }, 'displayName'],
    ] as const) {
      const res = await patch(keyA, body);
      assert.equal(res.statusCode, 400, `${JSON.stringify(body)}: ${res.body}`);
      assert.ok(res.json().message.includes(`\`${field}\``), res.json().message);
    }
    assert.equal((await patch(keyA, {})).statusCode, 400, 'an empty change is refused');
  });

  it('points products without their own url at the storefront product page, by slug once set', async () => {
    const { brand, ids, testKey } = await createBrandWithCatalog(t.db);
    const url = async () => (await t.request({ method: 'GET', url: `/api/v1/products/${ids['brush-course']}`, key: testKey })).json().data.url;
    assert.equal(await url(), `https://shop.example.com/s/${brand.id}/p/${ids['brush-course']}`);
    const slug = `brush-${brand.id.slice(-6).toLowerCase().replace(/[^a-z0-9]/g, 'x')}`;
    assert.equal((await patch(testKey, { slug })).statusCode, 200);
    assert.equal(await url(), `https://shop.example.com/s/${slug}/p/${ids['brush-course']}`, 'the cached product is read afresh');
    const list = (await t.request({ method: 'GET', url: '/api/v1/products', key: testKey })).json().data.items as { id: string; url: string }[];
    assert.ok(list.every((p) => p.url.startsWith(`https://shop.example.com/s/${slug}/p/`) || !p.url.includes('/s/')));
  });
});
