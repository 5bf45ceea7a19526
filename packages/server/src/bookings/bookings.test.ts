import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadCatalog } from '../catalog/load.ts';
import type { AppError } from '../errors.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { runCommonRouteTests } from '../testing/auth-checks.ts';
import { cards, createLink, eventsOf, submitCard } from '../testing/checkout-fixtures.ts';
import { createBrandWithCatalog } from '../testing/factories.ts';
import { bookBody, callAvailability, createCall, seedBooking, weekdaysNine } from '../testing/bookings.ts';

/**
 * Bookable products end to end through the API (docs/bookings.md): availability on products,
 * open slots across daylight-saving changes, booking on payment links, holds, paid bookings,
 * cancel and reschedule with their events. Time is the brand's test clock, set to a fixed date.
 */

let t: TestApp;
before(async () => { t = await startTestApp({ publicUrl: 'https://shop.example.com' }); });
after(async () => { await t.close(); });

type Shop = Awaited<ReturnType<typeof createBrandWithCatalog>>;
const api = (shop: Shop, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  t.request({ method, url: `/api/v1${url}`, key: shop.testKey, ...(payload ? { payload } : {}) });

/** A fresh brand whose test clock reads `at`. */
async function shopAt(at: string) {
  const shop = await createBrandWithCatalog(t.db);
  const res = await api(shop, 'POST', '/test-clock/advance', { to: at });
  assert.equal(res.statusCode, 200, res.body);
  return shop;
}

const fieldsOf = (res: { json: () => any }) => (res.json().data.details as { field: string; message: string }[]).map((d) => d.field);
const messageOf = (res: { json: () => any }, field: string) => (res.json().data.details as { field: string; message: string }[]).find((d) => d.field === field)?.message ?? '';

describe('availability on POST/PATCH /products', () => {
  it('stores a bookable product\'s availability and answers it on GET', async () => {
    const shop = await createBrandWithCatalog(t.db);
    const call = await createCall(t, shop.testKey, callAvailability({ bufferMinutes: 10, capacity: 3, exceptions: [{ date: '2027-12-25', hours: [] }] }));
    const got = (await api(shop, 'GET', `/products/${call.id}`)).json().data;
    assert.equal(got.type, 'appointment');
    assert.deepEqual(got.availability.exceptions, [{ date: '2027-12-25', hours: [] }]);
    assert.equal(got.availability.capacity, 3);
  });

  it('refuses bad availability with every problem named by field', async () => {
    const shop = await createBrandWithCatalog(t.db);
    const res = await api(shop, 'POST', '/products', {
      type: 'appointment', title: 'Call', tiers: [{ name: 'Call', price: { amount: 40, currency: 'USD' } }],
      availability: {
        timezone: 'Mars/Olympus', sessionMinutes: 30,
        weeklyHours: { monday: [{ start: '12:00', end: '09:00' }], tuesday: [{ start: '09:00', end: '11:00' }, { start: '10:00', end: '12:00' }] },
        exceptions: [{ date: '2027-02-30', hours: [] }],
      },
    });
    assert.equal(res.statusCode, 400, res.body);
    assert.deepEqual(fieldsOf(res).sort(), ['availability.exceptions[0].date', 'availability.timezone', 'availability.weeklyHours.monday[0].end', 'availability.weeklyHours.tuesday[1]'].sort());
    const shape = await api(shop, 'POST', '/products', {
      type: 'appointment', title: 'Call', tiers: [{ name: 'Call', price: { amount: 40, currency: 'USD' } }],
      availability: { timezone: 'UTC', sessionMinutes: 30, weeklyHours: { funday: [] } },
    });
    assert.equal(shape.statusCode, 400);
    assert.match(shape.json().message, /availability\/weeklyHours|funday/);
  });

  it('requires availability on an appointment product and refuses it on any other type', async () => {
    const shop = await createBrandWithCatalog(t.db);
    const tiers = [{ name: 'Call', price: { amount: 40, currency: 'USD' } }];
    const missing = await api(shop, 'POST', '/products', { type: 'appointment', title: 'Call', tiers });
    assert.equal(missing.statusCode, 400);
    assert.deepEqual(fieldsOf(missing), ['availability']);
    const wrong = await api(shop, 'POST', '/products', { type: 'digital', title: 'Guide', tiers, availability: callAvailability() });
    assert.equal(wrong.statusCode, 400);
    assert.match(messageOf(wrong, 'availability'), /only for products of type appointment/);
    const call = await createCall(t, shop.testKey);
    const retype = await api(shop, 'PATCH', `/products/${call.id}`, { type: 'digital' });
    assert.equal(retype.statusCode, 400);
    assert.deepEqual(fieldsOf(retype), ['availability']);
    const cleared = await api(shop, 'PATCH', `/products/${call.id}`, { type: 'digital', availability: null });
    assert.equal(cleared.statusCode, 200, cleared.body);
    assert.equal(cleared.json().data.availability, undefined);
    const patched = await api(shop, 'PATCH', `/products/${call.id}`, { type: 'appointment', availability: callAvailability({ sessionMinutes: 45 }) });
    assert.equal(patched.json().data.availability.sessionMinutes, 45);
  });
});

describe('availability in catalog files', () => {
  it('loads a bookable product with its availability, and names a bad one by its path in the file', async () => {
    const shop = await createBrandWithCatalog(t.db);
    const product = (availability: unknown) => ({ products: [{ ref: 'call', type: 'appointment', title: 'Call', tiers: [{ ref: 'std', name: 'Call', price: { amount: 40, currency: 'USD' } }], availability }] });
    const ids = await t.db.transaction((tx) => loadCatalog(tx, shop.brand.id, product(callAvailability({ capacity: 4 }))));
    const got = (await api(shop, 'GET', `/products/${ids.call}`)).json().data;
    assert.equal(got.availability.capacity, 4);
    await assert.rejects(t.db.transaction((tx) => loadCatalog(tx, shop.brand.id, product(callAvailability({ timezone: 'Europe/Londres' })))),
      (err: AppError) => err.details?.[0].field === 'products[0].availability.timezone');
    await assert.rejects(t.db.transaction((tx) => loadCatalog(tx, shop.brand.id, product(undefined))),
      (err: AppError) => err.details?.[0].field === 'products[0].availability');
  });
});

describe('GET /products/{id}/availability', () => {
  runCommonRouteTests('GET /products/{id}/availability', {
    method: 'GET', scope: 'products:read', foreign: 404, modeScoped: false,
    async setup({ t, brandId, mode }) {
      const seeded = await seedBooking(t.db, brandId, mode);
      return { url: `/api/v1/products/${seeded.productId}/availability`, marker: seeded.productId };
    },
  }, () => t);

  it('lists 09:00 London sessions at the right instants across the UK and US daylight-saving changes', async () => {
    // 2027: the US moves its clocks on 14 March, the UK on 28 March.
    const shop = await shopAt('2027-03-10T00:00:00.000Z');
    const call = await createCall(t, shop.testKey, callAvailability({ sessionMinutes: 60 }));
    const res = await api(shop, 'GET', `/products/${call.id}/availability?from=2027-03-12T00:00:00Z&to=2027-03-30T00:00:00Z&timezone=America/New_York`);
    assert.equal(res.statusCode, 200, res.body);
    const { slots, timezone, productTimezone } = res.json().data as { slots: { startsAt: string; endsAt: string; localStart: string }[]; timezone: string; productTimezone: string };
    assert.equal(timezone, 'America/New_York');
    assert.equal(productTimezone, 'Europe/London');
    const at = (day: string) => slots.find((s) => s.startsAt.startsWith(day) || s.localStart.startsWith(day))!;
    // Friday 12 March: London on GMT, New York on EST (UTC-5).
    assert.deepEqual(at('2027-03-12'), { startsAt: '2027-03-12T09:00:00.000Z', endsAt: '2027-03-12T10:00:00.000Z', localStart: '2027-03-12T04:00:00.000-05:00', placesLeft: 1 });
    // Monday 15 March: New York has moved to EDT (UTC-4); London has not.
    assert.equal(at('2027-03-15').startsAt, '2027-03-15T09:00:00.000Z');
    assert.equal(at('2027-03-15').localStart, '2027-03-15T05:00:00.000-04:00');
    // Monday 29 March: London is on BST, so 09:00 there is 08:00 UTC.
    assert.equal(at('2027-03-29').startsAt, '2027-03-29T08:00:00.000Z');
    assert.equal(at('2027-03-29').localStart, '2027-03-29T04:00:00.000-04:00');
    assert.equal(slots.length, 12, 'one session each weekday from Friday 12 to Monday 29 March');
  });

  it('skips a wall-clock time that does not exist on the spring-forward night', async () => {
    const shop = await shopAt('2027-03-10T00:00:00.000Z');
    const call = await createCall(t, shop.testKey, callAvailability({ sessionMinutes: 60, weeklyHours: { sunday: [{ start: '00:00', end: '04:00' }] } }));
    const res = await api(shop, 'GET', `/products/${call.id}/availability?from=2027-03-21T00:00:00Z&to=2027-03-29T00:00:00Z`);
    const starts = (res.json().data.slots as { startsAt: string; localStart: string }[]).map((s) => s.localStart);
    assert.deepEqual(starts, [
      '2027-03-21T00:00:00.000+00:00', '2027-03-21T01:00:00.000+00:00', '2027-03-21T02:00:00.000+00:00', '2027-03-21T03:00:00.000+00:00',
      // 01:00 on 28 March does not exist in London: the clocks jump from 01:00 GMT to 02:00 BST.
      '2027-03-28T00:00:00.000+00:00', '2027-03-28T02:00:00.000+01:00', '2027-03-28T03:00:00.000+01:00',
    ]);
  });

  it('applies buffer, minimum notice, how far ahead and date exceptions', async () => {
    const shop = await shopAt('2027-06-07T08:00:00.000Z'); // Monday 09:00 in London (BST)
    const call = await createCall(t, shop.testKey, callAvailability({
      sessionMinutes: 20, bufferMinutes: 10, minNoticeMinutes: 60, maxDaysAhead: 3, exceptions: [{ date: '2027-06-08', hours: [] }],
    }));
    const res = await api(shop, 'GET', `/products/${call.id}/availability?from=2027-06-07T00:00:00Z&to=2027-06-14T00:00:00Z&timezone=Europe/London`);
    const starts = (res.json().data.slots as { localStart: string }[]).map((s) => s.localStart.slice(0, 16));
    // Monday: 09:00 and 09:30 are inside the hour of notice. Tuesday is closed. Thursday 09:00 is 3 days ahead to the
    // minute (still open); Thursday 09:30 and Friday are further.
    assert.deepEqual(starts, ['2027-06-09T09:00', '2027-06-09T09:30', '2027-06-10T09:00']);
  });

  it('answers 400 naming the field for a product that is not bookable, a bad zone or range', async () => {
    const shop = await createBrandWithCatalog(t.db);
    const call = await createCall(t, shop.testKey);
    const course = await api(shop, 'GET', `/products/${shop.ids['brush-course']}/availability`);
    assert.equal(course.statusCode, 400);
    assert.deepEqual(fieldsOf(course), ['id']);
    assert.deepEqual(fieldsOf(await api(shop, 'GET', `/products/${call.id}/availability?timezone=Nowhere/Else`)), ['timezone']);
    assert.deepEqual(fieldsOf(await api(shop, 'GET', `/products/${call.id}/availability?from=2027-01-01T00:00:00Z&to=2027-06-01T00:00:00Z`)), ['to']);
    assert.equal((await api(shop, 'GET', `/products/${call.id}/availability?from=yesterday`)).statusCode, 400);
  });
});

describe('booking on POST /payment-links', () => {
  it('refuses a slot that is not open, naming booking.startsAt with the reason', async () => {
    const shop = await shopAt('2027-06-07T08:00:00.000Z');
    const call = await createCall(t, shop.testKey, callAvailability({ minNoticeMinutes: 120, maxDaysAhead: 10 }));
    for (const [startsAt, reason] of [
      ['2027-06-07T07:00:00.000Z', /in the past/],
      ['2027-06-07T08:30:00.000Z', /too soon/],
      ['2027-06-30T08:00:00.000Z', /too far ahead/],
      ['2027-06-08T08:15:00.000Z', /outside the product's hours/],
      ['2027-06-12T08:00:00.000Z', /outside the product's hours/], // a Saturday
    ] as const) {
      const res = await api(shop, 'POST', '/payment-links', bookBody(call, startsAt));
      assert.equal(res.statusCode, 400, `${startsAt}: ${res.body}`);
      assert.match(messageOf(res, 'booking.startsAt'), reason, startsAt);
    }
    const taken = await createLink(t, shop.testKey, bookBody(call, '2027-06-08T08:00:00.000Z', 1));
    assert.ok(taken.id);
    const second = await api(shop, 'POST', '/payment-links', bookBody(call, '2027-06-08T08:00:00.000Z', 2));
    assert.equal(second.statusCode, 400);
    assert.match(messageOf(second, 'booking.startsAt'), /is taken/);
  });

  it('requires booking for a bookable product, refuses it for any other, and checks its shape', async () => {
    const shop = await shopAt('2027-06-07T08:00:00.000Z');
    const call = await createCall(t, shop.testKey);
    const { booking: _, ...withoutBooking } = bookBody(call, '2027-06-08T08:00:00.000Z');
    assert.deepEqual(fieldsOf(await api(shop, 'POST', '/payment-links', withoutBooking)), ['booking']);
    const course = {
      items: [{ id: shop.ids['brush-course'], plan: shop.ids['brush-standard'], type: 'course' }],
      form: { formData: { fullName: 'Ada Lovelace', email: 'ada@example.com', experienceLevel: 'Beginner' } },
      booking: { startsAt: '2027-06-08T08:00:00.000Z' },
    };
    const notBookable = await api(shop, 'POST', '/payment-links', course);
    assert.deepEqual(fieldsOf(notBookable), ['booking']);
    assert.match(messageOf(notBookable, 'booking'), /only for a bookable/);
    const badZone = await api(shop, 'POST', '/payment-links', bookBody(call, '2027-06-08T08:00:00.000Z', 1, { timezone: 'Atlantis/City' }));
    assert.deepEqual(fieldsOf(badZone), ['booking.timezone']);
    const unknown = await api(shop, 'POST', '/payment-links', bookBody(call, '2027-06-08T08:00:00.000Z', 1, { room: 'B' }));
    assert.equal(unknown.statusCode, 400);
    assert.match(unknown.json().message, /booking/);
  });

  it('holds the slot while the link is unpaid, frees it when the hold runs out or the card fails, and never books it twice', async () => {
    const shop = await shopAt('2027-06-07T08:00:00.000Z');
    const call = await createCall(t, shop.testKey);
    const slot = '2027-06-08T08:00:00.000Z';
    const open = async () => ((await api(shop, 'GET', `/products/${call.id}/availability?from=2027-06-08T00:00:00Z&to=2027-06-09T00:00:00Z`)).json().data.slots as { startsAt: string }[])
      .some((s) => s.startsAt === slot);
    const first = await createLink(t, shop.testKey, bookBody(call, slot, 1));
    assert.equal(await open(), false, 'held for the first buyer');

    // The hold runs out after 30 minutes: another buyer may take the slot.
    await api(shop, 'POST', '/test-clock/advance', { by: '31m' });
    assert.equal(await open(), true, 'free again once the hold expired');
    const second = await createLink(t, shop.testKey, bookBody(call, slot, 2));
    // The first buyer comes back: the slot is someone else's now, so nothing is charged.
    const late = await submitCard(t, first.path, cards.ok);
    assert.equal(late.statusCode, 409, late.body);
    assert.match(late.body, /Sold out/);

    // A declined card releases the second buyer's hold at once.
    assert.equal((await submitCard(t, second.path, cards.declined)).statusCode, 303);
    assert.equal(await open(), true, 'released after the failed payment');
    // …and the first buyer can now have it after all.
    assert.equal((await submitCard(t, first.path, cards.ok)).statusCode, 303);
    assert.equal(await open(), false);
    const list = (await api(shop, 'GET', '/bookings')).json().data.items as { customer: { email: string }; status: string; startsAt: string }[];
    assert.deepEqual(list.map((b) => [b.customer.email, b.status, b.startsAt]), [['buyer1@example.com', 'confirmed', slot]]);
    const third = await api(shop, 'POST', '/payment-links', bookBody(call, slot, 3));
    assert.match(messageOf(third, 'booking.startsAt'), /is taken/);
  });

  it('fills a group session up to its capacity, counting each item\'s places', async () => {
    const shop = await shopAt('2027-06-07T08:00:00.000Z');
    const call = await createCall(t, shop.testKey, callAvailability({ capacity: 3 }));
    const slot = '2027-06-08T08:00:00.000Z';
    const two = bookBody(call, slot, 1);
    await createLink(t, shop.testKey, { ...two, items: [{ ...two.items[0], count: 2 }] });
    const left = (await api(shop, 'GET', `/products/${call.id}/availability?from=2027-06-08T08:00:00Z&to=2027-06-08T08:01:00Z`)).json().data.slots;
    assert.equal(left[0].placesLeft, 1);
    const tooMany = bookBody(call, slot, 2);
    const refused = await api(shop, 'POST', '/payment-links', { ...tooMany, items: [{ ...tooMany.items[0], count: 2 }] });
    assert.match(messageOf(refused, 'booking.startsAt'), /only 1 place left/);
    await createLink(t, shop.testKey, bookBody(call, slot, 3));
    assert.match(messageOf(await api(shop, 'POST', '/payment-links', bookBody(call, slot, 4)), 'booking.startsAt'), /no longer open/);
  });
});

describe('bookings', () => {
  runCommonRouteTests('GET /bookings', {
    method: 'GET', scope: 'customers:read', foreign: 'hidden', modeScoped: true,
    async setup({ t, brandId, mode }) {
      const seeded = await seedBooking(t.db, brandId, mode);
      return { url: '/api/v1/bookings', marker: seeded.id };
    },
  }, () => t);
  runCommonRouteTests('GET /bookings/{id}', {
    method: 'GET', scope: 'customers:read', foreign: 404, modeScoped: true,
    async setup({ t, brandId, mode }) {
      const seeded = await seedBooking(t.db, brandId, mode);
      return { url: `/api/v1/bookings/${seeded.id}`, marker: seeded.id };
    },
  }, () => t);
  runCommonRouteTests('POST /bookings/{id}/cancel', {
    method: 'POST', scope: 'customers:write', foreign: 404, modeScoped: true,
    async setup({ t, brandId, mode }) {
      const seeded = await seedBooking(t.db, brandId, mode);
      return { url: `/api/v1/bookings/${seeded.id}/cancel`, body: { reason: 'ill' }, marker: seeded.id };
    },
  }, () => t);
  runCommonRouteTests('POST /bookings/{id}/reschedule', {
    method: 'POST', scope: 'customers:write', foreign: 404, modeScoped: true,
    async setup({ t, brandId, mode }) {
      const seeded = await seedBooking(t.db, brandId, mode);
      return { url: `/api/v1/bookings/${seeded.id}/reschedule`, body: { startsAt: seeded.later }, marker: seeded.id };
    },
  }, () => t);

  /** A paid booking of a fresh call product at Tuesday 8 June 2027 09:00 London; the clock reads Sunday 09:00. */
  async function paidBooking(availability = callAvailability({ weeklyHours: weekdaysNine([{ start: '09:00', end: '11:00' }]) })) {
    const shop = await shopAt('2027-06-06T08:00:00.000Z');
    const call = await createCall(t, shop.testKey, availability);
    const link = await createLink(t, shop.testKey, bookBody(call, '2027-06-08T08:00:00.000Z', 1, { timezone: 'America/New_York' }));
    assert.equal((await submitCard(t, link.path, cards.ok)).statusCode, 303);
    const [booking] = (await api(shop, 'GET', '/bookings')).json().data.items as { id: string }[];
    return { shop, call, link, id: booking.id };
  }

  it('records a paid booking with booking.confirmed, and shows it by id and among the upcoming ones', async () => {
    const { shop, call, link, id } = await paidBooking();
    const got = (await api(shop, 'GET', `/bookings/${id}`)).json().data;
    assert.equal(got.status, 'confirmed');
    assert.equal(got.productID, call.id);
    assert.equal(got.startsAt, '2027-06-08T08:00:00.000Z');
    assert.equal(got.endsAt, '2027-06-08T08:30:00.000Z');
    assert.equal(got.timezone, 'America/New_York');
    assert.equal(got.paymentLinkID, link.id);
    assert.match(got.txref, /^tx_/);
    assert.deepEqual(got.customer, { name: 'Buyer 1', email: 'buyer1@example.com' });
    const [event] = await eventsOf(t, shop.brand.id, 'booking.confirmed');
    assert.equal(event.data.id, id);
    assert.equal(event.data.status, 'confirmed');
    const upcoming = (await api(shop, 'GET', '/bookings?upcoming=true')).json().data.items as { id: string }[];
    assert.deepEqual(upcoming.map((b) => b.id), [id]);
    await api(shop, 'POST', '/test-clock/advance', { to: '2027-06-08T09:00:00.000Z' });
    assert.deepEqual((await api(shop, 'GET', '/bookings?upcoming=true')).json().data.items, [], 'over once it has ended');
    assert.equal((await api(shop, 'GET', '/bookings/bkg_nothing')).statusCode, 404);
  });

  it('reschedules to an open slot only, then cancels, with their events; the freed slots are bookable again', async () => {
    const { shop, call, id } = await paidBooking();
    const taken = await createLink(t, shop.testKey, bookBody(call, '2027-06-09T08:00:00.000Z', 2));
    assert.ok(taken.id);
    const onTaken = await api(shop, 'POST', `/bookings/${id}/reschedule`, { startsAt: '2027-06-09T08:00:00.000Z' });
    assert.equal(onTaken.statusCode, 400);
    assert.match(messageOf(onTaken, 'startsAt'), /is taken/);
    const outside = await api(shop, 'POST', `/bookings/${id}/reschedule`, { startsAt: '2027-06-09T13:00:00.000Z' });
    assert.match(messageOf(outside, 'startsAt'), /outside the product's hours/);

    const moved = await api(shop, 'POST', `/bookings/${id}/reschedule`, { startsAt: '2027-06-09T08:30:00.000Z', timezone: 'Asia/Tokyo' });
    assert.equal(moved.statusCode, 200, moved.body);
    const m = moved.json().data;
    assert.deepEqual([m.status, m.startsAt, m.previousStartsAt, m.timezone], ['rescheduled', '2027-06-09T08:30:00.000Z', '2027-06-08T08:00:00.000Z', 'Asia/Tokyo']);
    assert.equal((await eventsOf(t, shop.brand.id, 'booking.rescheduled'))[0].data.startsAt, '2027-06-09T08:30:00.000Z');
    // The old slot is free again.
    await createLink(t, shop.testKey, bookBody(call, '2027-06-08T08:00:00.000Z', 3));

    const cancelled = await api(shop, 'POST', `/bookings/${id}/cancel`, { reason: 'Cannot make it' });
    assert.equal(cancelled.statusCode, 200, cancelled.body);
    assert.equal(cancelled.json().data.status, 'cancelled');
    assert.equal(cancelled.json().data.cancelReason, 'Cannot make it');
    const [event] = await eventsOf(t, shop.brand.id, 'booking.cancelled');
    assert.equal(event.data.id, id);
    await createLink(t, shop.testKey, bookBody(call, '2027-06-09T08:30:00.000Z', 4));
    const again = await api(shop, 'POST', `/bookings/${id}/cancel`, {});
    assert.equal(again.statusCode, 409);
    assert.equal((await api(shop, 'POST', `/bookings/${id}/reschedule`, { startsAt: '2027-06-10T08:00:00.000Z' })).statusCode, 409);
  });

  it('refuses changes closer to the start than the product\'s changeNoticeMinutes', async () => {
    const { shop, id } = await paidBooking(callAvailability({ changeNoticeMinutes: 600, weeklyHours: weekdaysNine([{ start: '09:00', end: '11:00' }]) }));
    await api(shop, 'POST', '/test-clock/advance', { to: '2027-06-07T23:00:00.000Z' }); // 9 hours before
    const res = await api(shop, 'POST', `/bookings/${id}/cancel`, {});
    assert.equal(res.statusCode, 409);
    assert.match(res.json().message, /600 minutes before the start/);
    assert.equal((await api(shop, 'GET', `/bookings/${id}`)).json().data.status, 'confirmed');
    assert.deepEqual(await eventsOf(t, shop.brand.id, 'booking.cancelled'), []);
  });
});
