import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { cards, submitCard } from '../testing/checkout-fixtures.ts';
import { createBrandWithCatalog } from '../testing/factories.ts';
import { callAvailability, createCall } from '../testing/bookings.ts';

/**
 * The web checkout's slot picker (issue 25): a bookable product's open slots, server-rendered
 * for a day and the buyer's time zone, posted as `booking.startsAt`; a slot held for a payment
 * under way or booked is no longer offered.
 */

let t: TestApp;
let shop: Awaited<ReturnType<typeof createBrandWithCatalog>>;
let call: { id: string; tier: string };
let path: string;
before(async () => {
  t = await startTestApp({ publicUrl: 'https://shop.example.com' });
  shop = await createBrandWithCatalog(t.db);
  // Monday 7 June 2027, 08:00 London: the week's 09:00 and 09:30 calls are open.
  await t.request({ method: 'POST', url: '/api/v1/test-clock/advance', key: shop.testKey, payload: { to: '2027-06-07T07:00:00.000Z' } });
  call = await createCall(t, shop.testKey, callAvailability({ timezone: 'Europe/London' }));
  await t.request({ method: 'PATCH', url: `/api/v1/products/${call.id}`, key: shop.testKey, payload: { status: 'published' } });
  const res = await t.request({ method: 'POST', url: '/api/v1/checkout-links', key: shop.testKey, payload: { items: [{ id: call.id, plan: call.tier }] } });
  assert.equal(res.statusCode, 200, res.body);
  path = new URL(res.json().data.url).pathname;
});
after(async () => { await t.close(); });

const submitForm = (fields: Record<string, string>) => t.app.inject({
  method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString(),
});
const buyer = (n: string) => ({ fullName: `Buyer ${n}`, email: `buyer${n}@example.com`, countryCode: 'PT' });
const slotValues = (html: string) => [...html.matchAll(/name="booking\.startsAt" value="([^"]+)"/g)].map((m) => m[1]);

describe('the slot picker', () => {
  it('lists the first open day\'s slots in the product\'s zone, and another day and zone when asked, without scripts', async () => {
    const page = (await t.app.inject({ method: 'GET', url: path })).body;
    assert.ok(page.includes('Choose a time'));
    assert.ok(page.includes('Times are shown in Europe/London (BST)'), 'the zone is said in words');
    assert.match(page, /<option value="2027-06-07" selected>Monday 7 June<\/option>/);
    assert.deepEqual(slotValues(page), ['2027-06-07T08:00:00.000Z', '2027-06-07T08:30:00.000Z']);
    assert.ok(page.includes('09:00 to 09:30'));
    assert.doesNotMatch(page, /<script/);

    // A buyer in New York asks for Tuesday: the same sessions, in their own clock.
    const ny = await submitForm({ choose: '1', 'booking.timezone': 'America/New_York', 'booking.day': '2027-06-08' });
    assert.equal(ny.statusCode, 200);
    assert.ok(ny.body.includes('Times are shown in America/New York (GMT-4); the host is in Europe/London (BST)'));
    assert.deepEqual(slotValues(ny.body), ['2027-06-08T08:00:00.000Z', '2027-06-08T08:30:00.000Z']);
    assert.ok(ny.body.includes('04:00 to 04:30'), 'the slot in the buyer\'s clock');
    assert.ok(!ny.body.includes('Saturday'), 'closed days are not offered');
  });

  it('asks for a time, books the one picked, and stops offering a slot while it is being paid and once it is booked', async () => {
    const missing = await submitForm(buyer('none'));
    assert.equal(missing.statusCode, 400);
    assert.ok(missing.body.includes('id="booking.startsAt-error">Choose a time for your session'));

    const slot = '2027-06-09T08:00:00.000Z';
    const made = await submitForm({ ...buyer('a'), 'booking.timezone': 'America/New_York', 'booking.day': '2027-06-09', 'booking.startsAt': slot });
    assert.equal(made.statusCode, 303, made.body);
    const held = await submitForm({ choose: '1', 'booking.day': '2027-06-09' });
    assert.ok(!slotValues(held.body).includes(slot), 'held for the payment under way');
    assert.ok(slotValues(held.body).includes('2027-06-09T08:30:00.000Z'));

    // Another buyer who still had the old page posts the same slot: refused beside the times, nothing made.
    const late = await submitForm({ ...buyer('b'), 'booking.day': '2027-06-09', 'booking.startsAt': slot });
    assert.equal(late.statusCode, 400);
    assert.ok(late.body.includes('id="booking.startsAt-error">The time chosen is taken'), late.body.slice(late.body.indexOf('error-text'), late.body.indexOf('error-text') + 200));

    const paid = await submitCard(t, String(made.headers.location), cards.ok);
    assert.equal(paid.statusCode, 303);
    const result = (await t.app.inject({ method: 'GET', url: String(paid.headers.location) })).body;
    assert.ok(result.includes('Your session is booked for <strong>Wednesday, 9 June 2027 at 04:00 GMT-4</strong>'), 'in the buyer\'s zone');
    const bookings = (await t.request({ method: 'GET', url: `/api/v1/bookings?productID=${call.id}`, key: shop.testKey })).json().data.items as { startsAt: string; status: string }[];
    assert.deepEqual(bookings.map((b) => [b.startsAt, b.status]), [[slot, 'confirmed']]);
    const after = await submitForm({ choose: '1', 'booking.day': '2027-06-09' });
    assert.ok(!slotValues(after.body).includes(slot), 'booked: no longer offered');
  });
});
