import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { exampleCatalogPath } from '../cli/commands.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { createBrand, createKey } from '../testing/factories.ts';
import { loadCatalog } from './load.ts';

let t: TestApp;
before(async () => { t = await startTestApp(); });
after(async () => { await t.close(); });

/** A catalog file's product as the API body that means the same: refs become item refs, hub ids. */
function asApiBody(p: any, ids: Record<string, string>) {
  const { ref: _ref, hub, tiers, items, ...rest } = p;
  return {
    ...rest,
    ...(hub ? { hubID: ids[hub] } : {}),
    ...(items ? { items: items.map(({ parent, ...i }: any) => ({ ...i, ...(parent ? { parentId: parent } : {}) })) } : {}),
    tiers: tiers.map(({ ref: _r, items: included, ...tier }: any) => ({ ...tier, ...(included ? { itemIDs: included } : {}) })),
  };
}

/** A product without what differs between two copies of it: ids and times (and the storefront url, which names the id). */
function shape(p: any) {
  const itemIndex = new Map(p.items.map((i: any, n: number) => [i.id, n]));
  return {
    ...p, id: undefined, createdAt: undefined, updatedAt: undefined, url: p.url?.endsWith(`/p/${p.id}`) ? '(storefront page)' : p.url,
    tiers: p.tiers.map((x: any) => ({ ...x, id: undefined, itemIDs: x.itemIDs.map((id: string) => itemIndex.get(id)) })),
    items: p.items.map((x: any) => ({ ...x, id: undefined, parentId: x.parentId === undefined ? undefined : itemIndex.get(x.parentId) })),
  };
}

describe('catalog files and the API: one validator, one writer', () => {
  it('stores a file\'s product and the same product sent to POST /products identically', async () => {
    const brand = await createBrand(t.db);
    const key = (await createKey(t.db, brand.id)).key;
    const file = JSON.parse(await readFile(exampleCatalogPath, 'utf8'));
    const ids = await t.db.transaction((tx) => loadCatalog(tx, brand.id, file));
    for (const p of file.products) {
      const fromFile = (await t.request({ method: 'GET', url: `/api/v1/products/${ids[p.ref]}`, key })).json().data;
      const res = await t.request({ method: 'POST', url: '/api/v1/products', key, payload: asApiBody(p, ids) });
      assert.equal(res.statusCode, 200, `${p.ref}: ${res.body}`);
      assert.deepEqual(shape(res.json().data), shape(fromFile), p.ref);
    }
  });

  it('refuses the same mistakes with the same words, at the path of each', async () => {
    const brand = await createBrand(t.db);
    const key = (await createKey(t.db, brand.id)).key;
    const product = {
      ref: 'p', type: 'digital', title: 'Guide',
      tiers: [{ ref: 't', name: 'A', price: { amount: 5, currency: 'JPY' } }, { ref: 'u', name: 'B', price: { amount: 5.5, currency: 'JPY' }, discount: { amount: 9 } }],
      checkoutFields: [{ label: 'Full name', type: 'text' }, { label: 'Size', type: 'select' }],
    };
    const fileError = await t.db.transaction((tx) => loadCatalog(tx, brand.id, { products: [product] })).catch((e) => e);
    const api = await t.request({ method: 'POST', url: '/api/v1/products', key, payload: asApiBody(product, {}) });
    assert.equal(fileError.code, 'validation_failed');
    assert.equal(api.statusCode, 400);
    assert.deepEqual(
      fileError.details.map((d: any) => ({ ...d, field: d.field.replace(/^products\[0\]\./, '') })),
      api.json().data.details,
    );
    assert.deepEqual(api.json().data.details.map((d: any) => d.field), ['tiers[1].price.amount', 'tiers[1].discount.amount', 'checkoutFields[0].label', 'checkoutFields[1].options']);
  });
});
