import assert from 'node:assert/strict';
import type { Mode } from '../auth/principal.ts';
import type { Queryable } from '../db/client.ts';
import { newId } from '../ids.ts';
import type { TestApp } from './app.ts';
import { createProduct } from '../products/writes.ts';
import * as repo from '../bookings/repository.ts';
import type { Availability } from '../bookings/schemas.ts';

/** Shared by the bookings tests: a coaching call product, a link body that books it, a booking seeded directly. */

export const weekdaysNine = (hours = [{ start: '09:00', end: '10:00' }]) =>
  Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((d) => [d, hours]));

export const callAvailability = (overrides: Partial<Availability> = {}): Availability => ({
  timezone: 'Europe/London', sessionMinutes: 30, weeklyHours: weekdaysNine(), ...overrides,
});

/** A "1:1 coaching call" product (40 USD) made through POST /products; answers its id and tier. */
export async function createCall(t: TestApp, key: string, availability: Availability = callAvailability()) {
  const res = await t.request({
    method: 'POST', url: '/api/v1/products', key,
    payload: { type: 'appointment', title: '1:1 coaching call', tiers: [{ name: 'Call', price: { amount: 40, currency: 'USD' } }], availability },
  });
  assert.equal(res.statusCode, 200, res.body);
  const product = res.json().data as { id: string; tiers: { id: string }[] };
  return { id: product.id, tier: product.tiers[0].id };
}

export const bookBody = (call: { id: string; tier: string }, startsAt: string, n: number | string = 1, extra: Record<string, unknown> = {}) => ({
  items: [{ id: call.id, plan: call.tier, type: 'appointment' }],
  form: { formData: { fullName: `Buyer ${n}`, email: `buyer${n}@example.com` } },
  booking: { startsAt, ...extra },
});

/**
 * A paid booking of a fresh product, written directly (the auth checks need one in live mode
 * too, where paying would need Stripe). Open all day every day in UTC, hourly sessions.
 */
export async function seedBooking(db: Queryable, brandId: string, mode: Mode) {
  const allDay = Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, [{ start: '00:00', end: '24:00' }]]));
  const product = await createProduct(db, { brandId, mode, scopes: [], via: 'api_key' }, {
    type: 'appointment', title: 'Studio session', tiers: [{ name: 'Session', price: { amount: 10, currency: 'USD' } }],
    availability: { timezone: 'UTC', sessionMinutes: 60, weeklyHours: allDay, maxDaysAhead: 30 },
  });
  const start = new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000 + 5 * 86_400_000);
  const id = newId('bkg');
  await repo.insertHold(db, {
    brand_id: brandId, id, mode, product_id: product.id, tier_id: product.tiers[0].id, payment_link_id: newId('plink'), places: 1,
    starts_at: start, ends_at: new Date(start.getTime() + 3_600_000), timezone: 'UTC', buyer_name: 'Ada Lovelace', buyer_email: 'ada@example.com', hold_expires_at: null,
  });
  await repo.confirm(db, brandId, id, newId('txn'));
  return { id, productId: product.id, start, later: new Date(start.getTime() + 86_400_000).toISOString() };
}
