import assert from 'node:assert/strict';
import { loadCatalog } from '../catalog/load.ts';
import { createLink, submitCard } from './checkout-fixtures.ts';
import type { TestApp } from './app.ts';
import { createBrand, createKey } from './factories.ts';

/** Shared by the subscription, payout and clock tests: a brand with recurring plans, buying them, and moving its clock. */

export const recurringCatalog = {
  hubs: [{
    ref: 'club', name: 'Club',
    tiers: [
      { ref: 'free', name: 'Free', price: { amount: 0, currency: 'USD' } },
      { ref: 'monthly', name: 'Monthly', price: { amount: 5, currency: 'USD' }, recurrence: { periodic: 'monthly', interval: 1, count: 0 } },
      { ref: 'yearly', name: 'Yearly', price: { amount: 100, currency: 'USD' }, recurrence: { periodic: 'yearly', interval: 1, count: 4 } },
      { ref: 'twelve', name: 'Twelve months', price: { amount: 5, currency: 'USD' }, recurrence: { periodic: 'monthly', interval: 1, count: 12 } },
    ],
  }],
  products: [
    { ref: 'usd', type: 'digital', title: 'USD guide', tiers: [{ ref: 'usd-t', name: 'Std', price: { amount: 10, currency: 'USD' } }] },
    { ref: 'usd2', type: 'digital', title: 'USD odd', tiers: [{ ref: 'usd2-t', name: 'Std', price: { amount: 19.99, currency: 'USD' } }] },
    { ref: 'eur', type: 'digital', title: 'EUR guide', tiers: [{ ref: 'eur-t', name: 'Std', price: { amount: 7.35, currency: 'EUR' } }] },
    { ref: 'jpy', type: 'digital', title: 'JPY guide', tiers: [{ ref: 'jpy-t', name: 'Std', price: { amount: 1000, currency: 'JPY' } }] },
    { ref: 'free-p', type: 'digital', title: 'Free guide', tiers: [{ ref: 'free-t', name: 'Free', price: { amount: 0, currency: 'USD' } }] },
  ],
};

export const sub341 = '4000 0000 0000 0341';

export async function recurringBrand(t: TestApp) {
  const brand = await createBrand(t.db);
  const ids = await t.db.transaction((tx) => loadCatalog(tx, brand.id, recurringCatalog));
  const key = (await createKey(t.db, brand.id, { mode: 'test' })).key;
  const liveKey = (await createKey(t.db, brand.id, { mode: 'live' })).key;
  return { brandId: brand.id, ids, key, liveKey };
}

let buyer = 0;

/** Buys a hub plan through the hosted page; returns the membership it made. */
export async function buyPlan(t: TestApp, b: { brandId: string; ids: Record<string, string>; key: string }, tierRef: string, card = '4242 4242 4242 4242') {
  const email = `buyer${++buyer}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const link = await createLink(t, b.key, {
    items: [{ id: b.ids.club, plan: b.ids[tierRef], type: 'membership' }],
    form: { formData: { fullName: 'Ada Lovelace', email } },
  });
  const paid = await submitCard(t, link.path, card);
  assert.equal(paid.statusCode, 303, paid.body);
  const [m] = await t.db.query<{ id: string }>('SELECT id FROM memberships WHERE brand_id = $1 AND email = $2', [b.brandId, email]);
  assert.ok(m, 'the purchase made a membership');
  return { membershipId: m.id, email, link };
}

/** Buys a one-off product (a payout's ingredients). */
export async function buyProduct(t: TestApp, b: { ids: Record<string, string>; key: string }, ref: string) {
  const link = await createLink(t, b.key, {
    items: [{ id: b.ids[ref], plan: b.ids[`${ref}-t`] ?? b.ids[`${ref.replace('-p', '')}-t`], type: 'digital' }],
    form: { formData: { fullName: 'Grace Hopper', email: 'grace@example.com' } },
  });
  const paid = await submitCard(t, link.path, link.amount === 0 ? undefined : '4242 4242 4242 4242');
  assert.equal(paid.statusCode, 303, paid.body);
  return link;
}

export async function advance(t: TestApp, key: string, body: { by?: string; to?: string }) {
  const res = await t.request({ method: 'POST', url: '/api/v1/test-clock/advance', key, payload: body });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().data as { now: string; jobsRun: number };
}

export async function member(t: TestApp, b: { ids: Record<string, string>; key: string }, id: string) {
  const res = await t.request({ method: 'GET', url: `/api/v1/hubs/${b.ids.club}/members/${id}`, key: b.key });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().data;
}

export async function eventTypes(t: TestApp, brandId: string, filter?: (type: string) => boolean) {
  const rows = await t.db.query<{ type: string; data: any }>('SELECT type, data FROM events WHERE brand_id = $1 ORDER BY seq', [brandId]);
  return rows.filter((r) => !filter || filter(r.type));
}
