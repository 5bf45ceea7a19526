import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Principal } from '../auth/principal.ts';
import { loadCatalog } from '../catalog/load.ts';
import { createPaymentLink } from '../checkout/service.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { testDbKind } from '../testing/db.ts';
import { runCommonRouteTests } from '../testing/auth-checks.ts';
import { createBrand, createBrandWithCatalog, createKey, createMembership } from '../testing/factories.ts';

let t: TestApp;
before(async () => { t = await startTestApp(); });
after(async () => { await t.close(); });

const course = () => ({
  type: 'course',
  title: 'Inking basics',
  description: 'Four lessons on pens and brushes.',
  visibility: 'unlisted',
  status: 'draft',
  keywords: ['ink', 'course'],
  imageUrl: 'https://example.com/ink.jpg',
  items: [
    { ref: 'l1', type: 'lesson', title: 'Pens', duration: 300 },
    { ref: 'l2', type: 'lesson', title: 'Brushes', parentId: 'l1' },
    { ref: 'kit', type: 'addon', title: 'Ink kit', isAddon: true, price: { amount: 9.99, currency: 'USD' } },
  ],
  tiers: [
    { name: 'Standard', price: { amount: 30, currency: 'USD' }, discount: { amount: 5 }, itemIDs: ['l1', 'l2'], perks: ['Forever'] },
    { name: 'Monthly', price: { amount: 4.5, currency: 'USD' }, recurrence: { periodic: 'monthly' }, isDefault: true, buttonText: 'Subscribe' },
  ],
  checkoutFields: [
    { label: 'Company name', type: 'text' },
    { label: 'Pen size', type: 'select', required: true, options: ['Fine', 'Broad'] },
  ],
});

async function owner() {
  const brand = await createBrand(t.db);
  const key = (await createKey(t.db, brand.id)).key;
  return { brandId: brand.id, key };
}

const get = async (key: string, id: string) => (await t.request({ method: 'GET', url: `/api/v1/products/${id}`, key })).json().data;

describe('POST /products', () => {
  runCommonRouteTests('POST /products', {
    method: 'POST',
    scope: 'products:write',
    foreign: 'none',
    modeScoped: false,
    async setup() {
      return { url: '/api/v1/products', body: course() };
    },
  }, () => t);

  it('creates a product whose answer is exactly what GET /products/{id} returns', async () => {
    const { key } = await owner();
    const res = await t.request({ method: 'POST', url: '/api/v1/products', key, payload: course() });
    assert.equal(res.statusCode, 200, res.body);
    const created = res.json().data;
    assert.match(created.id, /^prod_/);
    assert.deepEqual(await get(key, created.id), created);
    assert.equal(created.status, 'draft');
    assert.equal(created.visibility, 'unlisted');
    assert.equal(created.isFree, false);
    const [l1, l2, kit] = created.items;
    assert.equal(l2.parentId, l1.id, 'a ref points at an item added in the same request');
    assert.deepEqual(kit.price, { amount: 9.99, currency: 'USD' });
    const [standard, monthly] = created.tiers;
    assert.deepEqual(standard.itemIDs, [l1.id, l2.id]);
    assert.deepEqual(standard.discount, { amount: 5, currency: 'USD' });
    assert.equal(standard.type, 'one_off');
    assert.equal(standard.isDefault, false);
    assert.equal(monthly.isDefault, true);
    assert.deepEqual(monthly.recurrence, { periodic: 'monthly', interval: 1, count: 0 });
    assert.deepEqual(created.checkoutFields.map((f: any) => f.id), ['companyName', 'penSize']);
  });

  it('refuses bad input with 400 naming each field by its path', async () => {
    const { key } = await owner();
    const body = course();
    (body.tiers[1].price as any).amount = 'cheap';
    (body.items[0] as any).duration = -1;
    const res = await t.request({ method: 'POST', url: '/api/v1/products', key, payload: body });
    assert.equal(res.statusCode, 400);
    const fields = res.json().data.details.map((d: any) => d.field);
    assert.ok(fields.includes('tiers[1].price.amount'), JSON.stringify(fields));
    assert.ok(fields.includes('items[0].duration'), JSON.stringify(fields));
    assert.equal(res.json().data.code, 'validation_failed');
  });

  it('applies the catalog file\'s rules, naming every field', async () => {
    const { key } = await owner();
    const body: any = course();
    body.type = 'event';
    body.tiers[0].price = { amount: 10.234, currency: 'USD' };
    body.tiers[1].discount = { amount: 9 };
    body.tiers[1].itemIDs = ['nope'];
    body.items[2].price = undefined;
    body.checkoutFields.push({ label: 'Company  Name!', type: 'text' }, { label: 'Email', type: 'email' }, { label: 'Colour', type: 'select' });
    body.hubID = 'hub_unknown';
    const res = await t.request({ method: 'POST', url: '/api/v1/products', key, payload: body });
    assert.equal(res.statusCode, 400, res.body);
    const details = res.json().data.details;
    const fields = details.map((d: any) => d.field).sort();
    assert.deepEqual(fields, [
      'checkoutFields[2].label', 'checkoutFields[3].label', 'checkoutFields[4].options', 'event', 'hubID',
      'items[2].price', 'tiers[0].price.amount', 'tiers[1].discount.amount', 'tiers[1].itemIDs[0]',
    ].sort());
    const dup = details.find((d: any) => d.field === 'checkoutFields[2].label');
    assert.match(dup.message, /companyName/);
  });

  it('refuses ids over POST: a new product has no tiers yet', async () => {
    const { key } = await owner();
    const body: any = course();
    body.tiers[0].id = 'tier_elsewhere';
    const res = await t.request({ method: 'POST', url: '/api/v1/products', key, payload: body });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().data.details[0].field, 'tiers[0].id');
  });

  it('replays an Idempotency-Key instead of creating twice', async () => {
    const { key } = await owner();
    const headers = { 'idempotency-key': `create-${Math.random()}` };
    const first = await t.request({ method: 'POST', url: '/api/v1/products', key, headers, payload: course() });
    const again = await t.request({ method: 'POST', url: '/api/v1/products', key, headers, payload: course() });
    assert.equal(first.statusCode, 200);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(again.json().data.id, first.json().data.id);
    const list = (await t.request({ method: 'GET', url: '/api/v1/products', key })).json().data.items;
    assert.equal(list.length, 1);
  });

  it('lets a test key edit the catalog that live keys read', async () => {
    const { brandId, key } = await owner();
    const live = (await createKey(t.db, brandId, { mode: 'live' })).key;
    const created = (await t.request({ method: 'POST', url: '/api/v1/products', key, payload: course() })).json().data;
    assert.deepEqual(await get(live, created.id), created);
  });
});

describe('PATCH /products/{id}', () => {
  runCommonRouteTests('PATCH /products/{id}', {
    method: 'PATCH',
    scope: 'products:write',
    foreign: 404,
    modeScoped: false,
    async setup({ t, brandId }) {
      const ids = await loadCatalog(t.db, brandId, { products: [{ ref: 'p', type: 'digital', title: 'Guide', tiers: [{ ref: 't', name: 'Free', price: { amount: 0, currency: 'USD' } }] }] });
      return { url: `/api/v1/products/${ids.p}`, body: { title: 'Guide, second edition' }, marker: ids.p };
    },
  }, () => t);

  it('adds a tier, updates one, deletes an unsold one and archives a sold one; the answer equals the next GET', async () => {
    const { brandId, key } = await owner();
    const created = (await t.request({ method: 'POST', url: '/api/v1/products', key, payload: {
      ...course(),
      tiers: [
        { name: 'Sold', price: { amount: 10, currency: 'USD' } },
        { name: 'Unsold', price: { amount: 20, currency: 'USD' } },
        { name: 'Kept', price: { amount: 30, currency: 'USD' } },
      ],
    } })).json().data;
    const [sold, unsold, kept] = created.tiers;
    await createMembership(t.db, { brandId, productId: created.id, plan: sold.id, mode: 'live' });

    const res = await t.request({ method: 'PATCH', url: `/api/v1/products/${created.id}`, key, payload: {
      title: 'Inking, revised',
      tiers: [
        { id: kept.id, name: 'Kept, cheaper', price: { amount: 25, currency: 'USD' }, isDefault: true },
        { name: 'New', price: { amount: 0, currency: 'USD' } },
      ],
    } });
    assert.equal(res.statusCode, 200, res.body);
    const updated = res.json().data;
    assert.deepEqual(await get(key, created.id), updated, 'what is saved is what GET returns');
    assert.equal(updated.title, 'Inking, revised');
    assert.equal(updated.description, created.description, 'fields left out stay');
    assert.deepEqual(updated.items, created.items, 'items left out of the body stay');
    assert.deepEqual(updated.tiers.map((x: any) => [x.name, x.archived, x.isDefault]), [
      ['Kept, cheaper', false, true], ['New', false, false], ['Sold', true, false],
    ]);
    assert.equal(updated.tiers[0].id, kept.id);
    assert.deepEqual(updated.tiers[0].price, { amount: 25, currency: 'USD' });
    assert.equal(updated.tiers[2].id, sold.id, 'the sold tier is archived, not deleted');
    assert.ok(!updated.tiers.some((x: any) => x.id === unsold.id), 'the unsold tier is gone');
    assert.equal(updated.isFree, false);
    assert.ok(updated.updatedAt >= created.updatedAt);
    assert.equal(updated.createdAt, created.createdAt);
  });

  it('archives, not deletes, a tier that a payment link being made at that moment names', {
    skip: testDbKind === 'pglite' ? 'needs PostgreSQL: the embedded database runs one transaction at a time' : false,
  }, async () => {
    const { brandId, key } = await owner();
    const created = (await t.request({ method: 'POST', url: '/api/v1/products', key, payload: { ...course(), status: 'published' } })).json().data;
    const [standard, monthly] = created.tiers;
    let commitLink = () => {};
    let linkMade = () => {};
    const made = new Promise<void>((resolve) => { linkMade = resolve; });
    // The link's transaction stays open (its tier held) while the PATCH removing the tier comes in.
    const linking = t.db.transaction(async (tx) => {
      const principal: Principal = { brandId, mode: 'test', scopes: ['checkout:write'], via: 'api_key' };
      await createPaymentLink(tx, principal, {
        items: [{ id: created.id, plan: standard.id, type: 'course' }],
        form: { formData: { fullName: 'Ada Lovelace', email: 'ada@example.com', penSize: 'Fine' } },
      } as never, t.deps.config.publicUrl, t.deps.payments);
      linkMade();
      await new Promise<void>((resolve) => { commitLink = resolve; });
    });
    await made;
    const patch = t.request({ method: 'PATCH', url: `/api/v1/products/${created.id}`, key, payload: {
      tiers: [{ id: monthly.id, name: monthly.name, price: monthly.price, recurrence: monthly.recurrence }],
    } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    commitLink();
    await linking;
    const res = await patch;
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json().data.tiers.map((x: any) => [x.id, x.archived]), [[monthly.id, false], [standard.id, true]]);
    const [tier] = await t.db.query('SELECT id FROM tiers WHERE brand_id = $1 AND id = $2', [brandId, standard.id]);
    assert.ok(tier, 'the tier the link names is still there');
  });

  it('archives a tier a payment link sells, and an item an archived tier includes; deletes the rest', async () => {
    const { key } = await owner();
    const created = (await t.request({ method: 'POST', url: '/api/v1/products', key, payload: { ...course(), status: 'published' } })).json().data;
    const [standard, monthly] = created.tiers;
    const link = await t.request({ method: 'POST', url: '/api/v1/payment-links', key, payload: {
      items: [{ id: created.id, plan: standard.id, type: 'course' }],
      form: { formData: { fullName: 'Ada Lovelace', email: 'ada@example.com', penSize: 'Fine' } },
    } });
    assert.equal(link.statusCode, 200, link.body);
    const [l1, l2, kit] = created.items;
    const res = await t.request({ method: 'PATCH', url: `/api/v1/products/${created.id}`, key, payload: {
      tiers: [{ id: monthly.id, name: monthly.name, price: monthly.price, recurrence: monthly.recurrence }],
      items: [{ id: kit.id, type: 'addon', title: 'Ink kit, large', isAddon: true, price: { amount: 12, currency: 'USD' } }],
      checkoutFields: [{ id: 'penSize', label: 'Nib size', type: 'select', options: ['Fine', 'Broad', 'Brush'] }, { label: 'Twitter handle', type: 'text' }],
    } });
    assert.equal(res.statusCode, 200, res.body);
    const p = res.json().data;
    assert.deepEqual(await get(key, created.id), p);
    assert.deepEqual(p.tiers.map((x: any) => [x.id, x.archived]), [[monthly.id, false], [standard.id, true]]);
    assert.equal(p.tiers[0].isDefault, true, 'the only tier in the list is the default');
    assert.deepEqual(p.items.map((x: any) => [x.id, x.archived ?? false]), [[kit.id, false], [l1.id, true], [l2.id, true]]);
    assert.equal(p.items[0].title, 'Ink kit, large');
    assert.deepEqual(p.checkoutFields, [
      { id: 'penSize', label: 'Nib size', type: 'select', required: false, options: ['Fine', 'Broad', 'Brush'] },
      { id: 'twitterHandle', label: 'Twitter handle', type: 'text', required: false },
    ], 'a field keeps its id when its label changes; a new one gets its id from its label');

    // Nothing holds the lessons now but the archived tier: take the items out and they stay archived.
    const again = await t.request({ method: 'PATCH', url: `/api/v1/products/${created.id}`, key, payload: { items: [] } });
    assert.deepEqual(again.json().data.items.map((x: any) => x.id).sort(), [l1.id, l2.id].sort(), 'the kit is deleted, the lessons stay archived');
  });

  it('archives tiers sold in different ways in one write (a membership, a payment link) and deletes the unsold one', async () => {
    const { brandId, key } = await owner();
    const created = (await t.request({ method: 'POST', url: '/api/v1/products', key, payload: {
      ...course(),
      status: 'published',
      tiers: [
        { name: 'Joined', price: { amount: 10, currency: 'USD' } },
        { name: 'Linked', price: { amount: 20, currency: 'USD' } },
        { name: 'Unsold', price: { amount: 30, currency: 'USD' } },
        { name: 'Kept', price: { amount: 40, currency: 'USD' } },
      ],
    } })).json().data;
    const [joined, linked, unsold, kept] = created.tiers;
    await createMembership(t.db, { brandId, productId: created.id, plan: joined.id, mode: 'test' });
    const link = await t.request({ method: 'POST', url: '/api/v1/payment-links', key, payload: {
      items: [{ id: created.id, plan: linked.id, type: 'course' }],
      form: { formData: { fullName: 'Ada Lovelace', email: 'ada@example.com', penSize: 'Fine' } },
    } });
    assert.equal(link.statusCode, 200, link.body);

    const res = await t.request({ method: 'PATCH', url: `/api/v1/products/${created.id}`, key, payload: {
      tiers: [{ id: kept.id, name: kept.name, price: kept.price }],
    } });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json().data.tiers.map((x: any) => [x.id, x.archived]), [[kept.id, false], [joined.id, true], [linked.id, true]]);
    assert.ok(!res.json().data.tiers.some((x: any) => x.id === unsold.id), 'the unsold tier is gone');
  });

  it('takes an archived add-on off sale', async () => {
    const { key } = await owner();
    const created = (await t.request({ method: 'POST', url: '/api/v1/products', key, payload: { ...course(), status: 'published' } })).json().data;
    const kit = created.items[2];
    const items = created.items.map(({ id, type, title, isAddon, price, parentId }: any) => ({ id, type, title, isAddon, ...(price ? { price } : {}), ...(parentId ? { parentId } : {}) }));
    items[2].archived = true;
    const res = await t.request({ method: 'PATCH', url: `/api/v1/products/${created.id}`, key, payload: { items } });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data.items[2].archived, true);
    const link = await t.request({ method: 'POST', url: '/api/v1/payment-links', key, payload: {
      items: [{ id: created.id, plan: created.tiers[0].id, type: 'course' }], addons: [kit.id],
      form: { formData: { fullName: 'Ada Lovelace', email: 'ada@example.com', penSize: 'Fine' } },
    } });
    assert.equal(link.statusCode, 400);
    assert.equal(link.json().data.details[0].field, 'addons[0]');
    assert.match(link.json().message, /archived/);
  });

  it('adds a tier once when a PATCH is retried with its Idempotency-Key', async () => {
    const { key } = await owner();
    const created = (await t.request({ method: 'POST', url: '/api/v1/products', key, payload: course() })).json().data;
    const tiers = [...created.tiers.map(({ id, name, price }: any) => ({ id, name, price })), { name: 'Extra', price: { amount: 1, currency: 'USD' } }];
    const headers = { 'idempotency-key': `patch-${Math.random()}` };
    const first = await t.request({ method: 'PATCH', url: `/api/v1/products/${created.id}`, key, headers, payload: { tiers } });
    const again = await t.request({ method: 'PATCH', url: `/api/v1/products/${created.id}`, key, headers, payload: { tiers } });
    assert.equal(first.statusCode, 200, first.body);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(again.body, first.body);
    assert.equal((await get(key, created.id)).tiers.length, 3);
  });

  it('refuses a ref given twice or beside an id', async () => {
    const { key } = await owner();
    const created = (await t.request({ method: 'POST', url: '/api/v1/products', key, payload: course() })).json().data;
    const res = await t.request({ method: 'PATCH', url: `/api/v1/products/${created.id}`, key, payload: {
      items: [{ ref: 'a', type: 'file', title: 'A' }, { ref: 'a', type: 'file', title: 'B' }, { id: created.items[0].id, ref: 'c', type: 'file', title: 'C' }],
    } });
    assert.equal(res.statusCode, 400);
    assert.deepEqual(res.json().data.details.map((d: any) => d.field), ['items[1].ref', 'items[2].ref']);
  });

  it('refuses two labels that give one id, naming the field', async () => {
    const { key } = await owner();
    const created = (await t.request({ method: 'POST', url: '/api/v1/products', key, payload: course() })).json().data;
    const res = await t.request({ method: 'PATCH', url: `/api/v1/products/${created.id}`, key, payload: {
      checkoutFields: [{ label: 'Shoe size', type: 'number' }, { label: 'shoe-size', type: 'text' }],
    } });
    assert.equal(res.statusCode, 400);
    assert.deepEqual(res.json().data.details.map((d: any) => d.field), ['checkoutFields[1].label']);
    assert.match(res.json().message, /checkoutFields\[1\]\.label/);
  });

  it('refuses an id that is not one of the product\'s, and a tier pointing at a removed item', async () => {
    const { key } = await owner();
    const a = (await t.request({ method: 'POST', url: '/api/v1/products', key, payload: course() })).json().data;
    const b = (await t.request({ method: 'POST', url: '/api/v1/products', key, payload: course() })).json().data;
    const res = await t.request({ method: 'PATCH', url: `/api/v1/products/${a.id}`, key, payload: {
      tiers: [{ id: b.tiers[0].id, name: 'Stolen', price: { amount: 1, currency: 'USD' } }, { name: 'Lesson', price: { amount: 1, currency: 'USD' }, itemIDs: [a.items[0].id] }],
      items: [{ id: a.items[2].id, type: 'addon', title: 'Kit', isAddon: true, price: { amount: 1, currency: 'USD' } }],
    } });
    assert.equal(res.statusCode, 400);
    assert.deepEqual(res.json().data.details.map((d: any) => d.field), ['tiers[0].id', 'tiers[1].itemIDs[0]']);
    assert.deepEqual(await get(key, a.id), a, 'a refused edit changes nothing');
  });

  it('clears optional fields with null', async () => {
    const { key } = await owner();
    const created = (await t.request({ method: 'POST', url: '/api/v1/products', key, payload: course() })).json().data;
    const res = await t.request({ method: 'PATCH', url: `/api/v1/products/${created.id}`, key, payload: { imageUrl: null, description: null } });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data.imageUrl, undefined);
    assert.equal(res.json().data.description, '');
  });

  it('answers another brand\'s product 404 and leaves it alone', async () => {
    const { key } = await owner();
    const other = await createBrandWithCatalog(t.db);
    const id = other.ids['brush-course'];
    const before = await get(other.testKey, id);
    const res = await t.request({ method: 'PATCH', url: `/api/v1/products/${id}`, key, payload: { title: 'Mine now' } });
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().data.code, 'not_found');
    assert.deepEqual(await get(other.testKey, id), before);
  });

  it('refuses a key without products:write with 403 naming the scope', async () => {
    const { brandId } = await owner();
    const readOnly = (await createKey(t.db, brandId, { scopes: ['products:read'] })).key;
    const res = await t.request({ method: 'POST', url: '/api/v1/products', key: readOnly, payload: course() });
    assert.equal(res.statusCode, 403);
    assert.equal(res.json().data.code, 'scope_missing');
    assert.match(res.json().message, /products:write/);
  });
});
