import assert from 'node:assert/strict';
import type { Mode } from '../auth/principal.ts';
import type { Queryable } from '../db/client.ts';
import { newId } from '../ids.ts';
import { createProduct } from '../products/writes.ts';
import type { TestApp } from './app.ts';
import { insertTransaction } from '../transactions/repository.ts';
import type { ShippingChoice } from '../shipping/checkout.ts';
import type { ShippingSettings } from '../shipping/schemas.ts';

/** Shared by the shipping tests: a printed book with delivery zones and a pickup point, link bodies that buy it, an order seeded directly. */

export const studio = { id: 'studio', name: 'Our studio', address: { line1: '12 Canal St', city: 'London', postalCode: 'E1 6AN', country: 'GB' }, openingHours: 'Mon–Fri 10:00–18:00' };

export const bookShipping = (overrides: Partial<ShippingSettings> = {}): ShippingSettings => ({
  deliveryZones: [
    { id: 'us', name: 'United States', countries: ['US'], prices: [{ amount: 5, currency: 'USD' }, { amount: 4, currency: 'GBP' }] },
    { id: 'uk', name: 'United Kingdom', countries: ['GB'], prices: [{ amount: 3.5, currency: 'USD' }] },
    { id: 'asia', name: 'Asia', countries: ['HK', 'JP'], prices: [{ amount: 12, currency: 'USD' }] },
    { id: 'eu', name: 'European Union', countries: ['DE', 'FR'], prices: [{ amount: 9, currency: 'EUR' }] },
  ],
  pickupLocations: [studio],
  ...overrides,
});

export const usAddress = { line1: '1 Market St', line2: 'Suite 300', city: 'San Francisco', region: 'CA', postalCode: '94105', country: 'US' };

/** "Printed sketchbook" (20 USD), physical, made through POST /products; answers its id and tier. */
export async function createBook(t: TestApp, key: string, shipping: ShippingSettings | null = bookShipping(), tier: Record<string, unknown> = {}) {
  const res = await t.request({
    method: 'POST', url: '/api/v1/products', key,
    payload: { type: 'physical', title: 'Printed sketchbook', tiers: [{ name: 'Hardcover', price: { amount: 20, currency: 'USD' }, ...tier }], ...(shipping ? { shipping } : {}) },
  });
  assert.equal(res.statusCode, 200, res.body);
  const product = res.json().data as { id: string; tiers: { id: string }[] };
  return { id: product.id, tier: product.tiers[0].id };
}

export const buyBody = (book: { id: string; tier: string }, choice: Record<string, unknown>, email = 'ada@example.com') => ({
  items: [{ id: book.id, plan: book.tier, type: 'physical' }],
  form: { formData: { fullName: 'Ada Lovelace', email } },
  ...choice,
});

export const delivery = (address: Record<string, unknown> = usAddress, deliveryLocation = 'us') => ({ deliveryLocation, address });

/**
 * A paid order of a fresh physical product, written directly (the auth checks need one in live
 * mode too, where paying would need Stripe).
 */
export async function seedOrder(db: Queryable, brandId: string, mode: Mode, method: 'delivery' | 'pickup' = 'delivery') {
  const product = await createProduct(db, { brandId, mode, scopes: [], via: 'api_key' }, {
    type: 'physical', title: 'Poster', tiers: [{ name: 'A2', price: { amount: 10, currency: 'USD' } }], shipping: bookShipping(),
  });
  const shipping: ShippingChoice = method === 'delivery'
    ? { method, amount: 500, productId: product.id, deliveryLocation: { id: 'us', name: 'United States' }, address: usAddress }
    : { method, amount: 0, productId: product.id, pickupLocation: studio };
  const id = newId('txn');
  return insertTransaction(db, {
    brand_id: brandId, id, txref: `tx_${id.slice(4)}`, mode, type: 'purchase', status: 'succeeded', amount: 1500, currency: 'USD',
    customer_name: 'Ada Lovelace', customer_email: 'ada@example.com', resource_id: product.id, metadata: {}, payment_link_id: null,
    provider: null, provider_reference: null, shipping,
  });
}
