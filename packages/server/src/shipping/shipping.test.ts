import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { runCommonRouteTests } from '../testing/auth-checks.ts';
import { cards, courseBody, createLink, eventsOf, submitCard } from '../testing/checkout-fixtures.ts';
import { createBrandWithCatalog } from '../testing/factories.ts';
import { registerEndpoint, startReceiver } from '../testing/receiver.ts';
import { bookShipping, buyBody, createBook, delivery, seedOrder, studio, usAddress } from '../testing/shipping.ts';

/**
 * Physical goods end to end through the API (docs/shipping.md): shipping settings on products,
 * the delivery/pickup rules and address checks on payment links, the delivery price on the order
 * and its transaction, and fulfilment with its events, seen by a real webhook receiver.
 */

let t: TestApp;
before(async () => { t = await startTestApp({ worker: true, publicUrl: 'https://shop.example.com' }); });
after(async () => { await t.close(); });

type Shop = Awaited<ReturnType<typeof createBrandWithCatalog>>;
const api = (shop: Shop, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, headers?: Record<string, string>) =>
  t.request({ method, url: `/api/v1${url}`, key: shop.testKey, ...(payload ? { payload } : {}), ...(headers ? { headers } : {}) });
type Res = { statusCode: number; body: string; json: () => any };
const fieldsOf = (res: Res) => (res.json().data.details as { field: string }[]).map((d) => d.field);
const messageOf = (res: Res, field: string) => (res.json().data.details as { field: string; message: string }[]).find((d) => d.field === field)?.message ?? '';

/** Pays a link on the hosted page with the sandbox card; answers the transaction as GET shows it. */
async function pay(shop: Shop, body: object) {
  const link = await createLink(t, shop.testKey, body);
  const paid = await submitCard(t, link.path, cards.ok);
  assert.equal(paid.statusCode, 303, paid.body);
  const [row] = await t.db.query<{ txref: string }>('SELECT txref FROM transactions WHERE brand_id = $1 AND payment_link_id = $2', [shop.brand.id, link.id]);
  const got = await api(shop, 'GET', `/transactions/${row.txref}`);
  assert.equal(got.statusCode, 200, got.body);
  return got.json().data;
}

describe('shipping settings on POST/PATCH /products', () => {
  it('stores a physical product\'s delivery zones and pickup points and answers them on GET', async () => {
    const shop = await createBrandWithCatalog(t.db);
    const book = await createBook(t, shop.testKey);
    const got = (await api(shop, 'GET', `/products/${book.id}`)).json().data;
    assert.equal(got.type, 'physical');
    assert.deepEqual(got.shipping.deliveryZones.map((z: { id: string }) => z.id), ['us', 'uk', 'asia', 'eu']);
    assert.deepEqual(got.shipping.pickupLocations, [studio]);
    const patched = await api(shop, 'PATCH', `/products/${book.id}`, { shipping: { pickupLocations: [studio] } });
    assert.equal(patched.statusCode, 200, patched.body);
    assert.equal(patched.json().data.shipping.deliveryZones, undefined);
  });

  it('refuses bad shipping settings with every problem named by field', async () => {
    const shop = await createBrandWithCatalog(t.db);
    const res = await api(shop, 'POST', '/products', {
      type: 'physical', title: 'Book', tiers: [{ name: 'Hardcover', price: { amount: 20, currency: 'USD' } }],
      shipping: {
        deliveryZones: [
          { id: 'us', name: 'US', countries: ['US', 'XX'], prices: [{ amount: 5, currency: 'USD' }, { amount: 6, currency: 'USD' }] },
          { id: 'us', name: 'Again', countries: ['CA', 'CA'], prices: [{ amount: 5.555, currency: 'USD' }] },
        ],
        pickupLocations: [{ ...studio, address: { line1: '12 Canal St', city: 'London', postalCode: '94105', country: 'GB' } }],
      },
    });
    assert.equal(res.statusCode, 400, res.body);
    assert.deepEqual(fieldsOf(res).sort(), [
      'shipping.deliveryZones[0].countries[1]', 'shipping.deliveryZones[0].prices[1].currency', 'shipping.deliveryZones[1].countries[1]',
      'shipping.deliveryZones[1].id', 'shipping.deliveryZones[1].prices[0].amount', 'shipping.pickupLocations[0].address.postalCode',
    ].sort());
    const empty = await api(shop, 'POST', '/products', { type: 'physical', title: 'Book', tiers: [{ name: 'H', price: { amount: 20, currency: 'USD' } }], shipping: {} });
    assert.equal(empty.statusCode, 400);
    assert.deepEqual(fieldsOf(empty), ['shipping.deliveryZones']);
  });

  it('refuses shipping on a product that is not physical, and asks to clear it before changing the type', async () => {
    const shop = await createBrandWithCatalog(t.db);
    const wrong = await api(shop, 'POST', '/products', { type: 'digital', title: 'PDF', tiers: [{ name: 'PDF', price: { amount: 5, currency: 'USD' } }], shipping: bookShipping() });
    assert.equal(wrong.statusCode, 400);
    assert.match(messageOf(wrong, 'shipping'), /only for products of type physical/);
    const book = await createBook(t, shop.testKey);
    const retype = await api(shop, 'PATCH', `/products/${book.id}`, { type: 'digital' });
    assert.equal(retype.statusCode, 400);
    assert.deepEqual(fieldsOf(retype), ['shipping']);
    const cleared = await api(shop, 'PATCH', `/products/${book.id}`, { type: 'digital', shipping: null });
    assert.equal(cleared.statusCode, 200, cleared.body);
    assert.equal(cleared.json().data.shipping, undefined);
  });
});

describe('delivery and pickup on POST /payment-links', () => {
  it('adds the zone\'s price to the order as a line of its own, and to the transaction\'s amount, fee and net', async () => {
    const shop = await createBrandWithCatalog(t.db);
    const book = await createBook(t, shop.testKey);
    const link = await createLink(t, shop.testKey, buyBody(book, delivery()));
    assert.equal(link.amount, 25);
    const [row] = await t.db.query<{ line_items: { description: string; amount: number }[] }>('SELECT line_items FROM payment_links WHERE id = $1', [link.id]);
    assert.deepEqual(row.line_items.map((l) => [l.description, Number(l.amount)]), [['Printed sketchbook (Hardcover)', 2000], ['Delivery: United States', 500]]);
    const tx = await pay(shop, buyBody(book, delivery()));
    assert.equal(tx.amount, 25);
    assert.equal(tx.fee + tx.net, 25);
    assert.deepEqual(tx.shipping, { method: 'delivery', amount: 5, deliveryLocation: { id: 'us', name: 'United States' }, address: usAddress });
    assert.deepEqual(tx.fulfilment, { status: 'unfulfilled' });
  });

  it('takes a pickup point with no address and no delivery price', async () => {
    const shop = await createBrandWithCatalog(t.db);
    const book = await createBook(t, shop.testKey);
    const tx = await pay(shop, buyBody(book, { pickupLocation: 'studio' }));
    assert.equal(tx.amount, 20);
    assert.deepEqual(tx.shipping, { method: 'pickup', amount: 0, pickupLocation: studio });
  });

  it('refuses each invalid combination with a 400 naming the field', async () => {
    const shop = await createBrandWithCatalog(t.db);
    const book = await createBook(t, shop.testKey);
    const refused = async (choice: Record<string, unknown>, field: string, message: RegExp) => {
      const res = await api(shop, 'POST', '/payment-links', buyBody(book, choice));
      assert.equal(res.statusCode, 400, `${JSON.stringify(choice)}: ${res.body}`);
      assert.ok(fieldsOf(res).includes(field), `${field} in ${res.body}`);
      assert.match(messageOf(res, field), message);
    };
    await refused({ ...delivery(), pickupLocation: 'studio' }, 'pickupLocation', /not both/);
    await refused({}, 'deliveryLocation', /is required.*"us".*pickupLocation.*"studio"/);
    await refused({ address: usAddress }, 'deliveryLocation', /is required/);
    await refused({ deliveryLocation: 'us' }, 'address', /required for delivery/);
    await refused(delivery(usAddress, 'mars'), 'deliveryLocation', /"mars" is not a delivery zone/);
    await refused(delivery({ ...usAddress, country: 'CA', postalCode: 'K1A 0B1' }), 'address.country', /does not deliver to Canada/);
    await refused(delivery({ line1: 'Unter den Linden 1', city: 'Berlin', postalCode: '10117', country: 'DE' }, 'eu'), 'deliveryLocation', /no price in USD/);
    await refused({ pickupLocation: 'studio', address: usAddress }, 'address', /only for delivery/);
    await refused({ pickupLocation: 'shop' }, 'pickupLocation', /not a pickup location/);
  });

  it('refuses address, deliveryLocation and pickupLocation for a product that is not physical', async () => {
    const shop = await createBrandWithCatalog(t.db);
    const res = await api(shop, 'POST', '/payment-links', courseBody(shop.ids, { ...delivery(), pickupLocation: 'studio' }));
    assert.equal(res.statusCode, 400, res.body);
    assert.deepEqual(fieldsOf(res).sort(), ['address', 'deliveryLocation', 'pickupLocation']);
    assert.match(messageOf(res, 'address'), /only for a physical product/);
    const unknown = await api(shop, 'POST', '/payment-links', courseBody(shop.ids, { address: { ...usAddress, floor: 3 } }));
    assert.equal(unknown.statusCode, 400);
    const plain = await createLink(t, shop.testKey, courseBody(shop.ids));
    assert.equal(plain.amount, 39.5);
  });

  it('sells a physical product without shipping settings as before, with nothing to choose', async () => {
    const shop = await createBrandWithCatalog(t.db);
    const book = await createBook(t, shop.testKey, null);
    assert.equal((await createLink(t, shop.testKey, buyBody(book, {}))).amount, 20);
    const res = await api(shop, 'POST', '/payment-links', buyBody(book, { pickupLocation: 'studio' }));
    assert.equal(res.statusCode, 400);
    assert.deepEqual(fieldsOf(res), ['pickupLocation']);
  });

  it('checks postal codes per country: a US ZIP, a UK postcode, and none where the country has none', async () => {
    const shop = await createBrandWithCatalog(t.db);
    const book = await createBook(t, shop.testKey);
    const check = (address: Record<string, unknown>, zone: string) => api(shop, 'POST', '/payment-links', buyBody(book, delivery(address, zone)));
    assert.equal((await check({ ...usAddress, postalCode: '94105-1804' }, 'us')).statusCode, 200);
    const zip = await check({ ...usAddress, postalCode: '9410' }, 'us');
    assert.equal(zip.statusCode, 400);
    assert.match(messageOf(zip, 'address.postalCode'), /"9410" is not a postal code of United States/);
    const uk = { line1: '10 Downing St', city: 'London', postalCode: 'sw1a 2aa', country: 'GB' };
    assert.equal((await check(uk, 'uk')).statusCode, 200);
    const badUk = await check({ ...uk, postalCode: '12345' }, 'uk');
    assert.deepEqual(fieldsOf(badUk), ['address.postalCode']);
    const noCode = await check({ ...usAddress, postalCode: undefined }, 'us');
    assert.match(messageOf(noCode, 'address.postalCode'), /is required for an address in United States/);
    const hk = await check({ line1: '1 Queen\'s Road Central', city: 'Hong Kong', country: 'HK' }, 'asia');
    assert.equal(hk.statusCode, 200, hk.body);
    const country = await check({ ...usAddress, country: 'XX' }, 'us');
    assert.match(messageOf(country, 'address.country'), /not an ISO 3166-1 alpha-2 country code/);
  });

  it('holds a tier\'s stock for physical goods too: the last copy is sold once', async () => {
    const shop = await createBrandWithCatalog(t.db);
    const book = await createBook(t, shop.testKey, bookShipping(), { slots: 1 });
    const first = await createLink(t, shop.testKey, buyBody(book, delivery(), 'one@example.com'));
    const second = await createLink(t, shop.testKey, buyBody(book, { pickupLocation: 'studio' }, 'two@example.com'));
    assert.equal((await submitCard(t, first.path, cards.ok)).statusCode, 303);
    const refused = await submitCard(t, second.path, cards.ok);
    assert.notEqual(refused.statusCode, 303);
    assert.match(refused.body, /sold out/i);
    const paid = await t.db.query('SELECT 1 FROM transactions WHERE brand_id = $1 AND status = \'succeeded\'', [shop.brand.id]);
    assert.equal(paid.length, 1);
  });
});

describe('POST /transactions/{id}/fulfilment', () => {
  const fulfil = (shop: Shop, txref: string, body: object, headers?: Record<string, string>) => api(shop, 'POST', `/transactions/${txref}/fulfilment`, body, headers);

  runCommonRouteTests('POST /transactions/{id}/fulfilment', {
    method: 'POST', scope: 'transactions:write', foreign: 404, modeScoped: true,
    async setup({ t, brandId, mode }) {
      const order = await seedOrder(t.db, brandId, mode);
      return { url: `/api/v1/transactions/${order.txref}/fulfilment`, body: { status: 'shipped', carrier: 'USPS', trackingNumber: '94001' }, marker: order.txref };
    },
  }, () => t);

  it('ships a delivery with carrier and tracking: order.shipped reaches a real receiver, signed, and the queue no longer lists it', async () => {
    const shop = await createBrandWithCatalog(t.db);
    const rx = await startReceiver();
    try {
      const endpoint = await registerEndpoint(t, shop.testKey, rx.url, ['order.shipped', 'order.ready_for_pickup']);
      rx.secret = endpoint.signingSecret;
      const book = await createBook(t, shop.testKey);
      const older = await pay(shop, buyBody(book, delivery(), 'first@example.com'));
      const newer = await pay(shop, buyBody(book, { pickupLocation: 'studio' }, 'second@example.com'));
      const queue = await api(shop, 'GET', '/transactions?status=succeeded&fulfilment=unfulfilled&order=oldest');
      assert.deepEqual(queue.json().data.items.map((x: { txref: string }) => x.txref), [older.txref, newer.txref]);

      const body = { status: 'shipped', carrier: 'USPS', trackingNumber: '9400111899223197428490', trackingUrl: 'https://tools.usps.com/go/TrackConfirmAction?tLabels=9400111899223197428490' };
      const shipped = await fulfil(shop, older.txref, body, { 'idempotency-key': 'ship-1' });
      assert.equal(shipped.statusCode, 200, shipped.body);
      const f = shipped.json().data.fulfilment;
      assert.equal(f.status, 'shipped');
      assert.equal(f.carrier, 'USPS');
      assert.ok(Date.parse(f.shippedAt));
      const again = await fulfil(shop, older.txref, body, { 'idempotency-key': 'ship-1' });
      assert.equal(again.statusCode, 200);
      assert.deepEqual(again.json().data, shipped.json().data);

      const [d] = await rx.waitFor(1);
      assert.ok(d.verified);
      assert.equal(d.json.type, 'order.shipped');
      assert.equal(d.json.data.txref, older.txref);
      assert.equal(d.json.data.fulfilment.trackingNumber, '9400111899223197428490');
      assert.equal(d.json.data.shipping.address.postalCode, '94105');
      assert.equal((await eventsOf(t, shop.brand.id, 'order.shipped')).length, 1, 'the retry sent nothing twice');

      const left = await api(shop, 'GET', '/transactions?status=succeeded&fulfilment=unfulfilled&order=oldest');
      assert.deepEqual(left.json().data.items.map((x: { txref: string }) => x.txref), [newer.txref]);
      const [mail] = await t.db.query<{ kind: string; to_address: string }>('SELECT kind, to_address FROM mail_messages WHERE brand_id = $1 AND kind = \'order_shipped\'', [shop.brand.id]);
      assert.equal(mail?.to_address, 'first@example.com');
    } finally {
      await rx.close();
    }
  });

  it('moves a pickup to ready_for_pickup (order.ready_for_pickup at the receiver) and then to picked_up', async () => {
    const shop = await createBrandWithCatalog(t.db);
    const rx = await startReceiver();
    try {
      const endpoint = await registerEndpoint(t, shop.testKey, rx.url, ['order.ready_for_pickup']);
      rx.secret = endpoint.signingSecret;
      const book = await createBook(t, shop.testKey);
      const order = await pay(shop, buyBody(book, { pickupLocation: 'studio' }));
      const early = await fulfil(shop, order.txref, { status: 'picked_up' });
      assert.equal(early.statusCode, 409);
      assert.match(early.json().message, /is unfulfilled.*mark it ready_for_pickup/);
      const ready = await fulfil(shop, order.txref, { status: 'ready_for_pickup' });
      assert.equal(ready.statusCode, 200, ready.body);
      const [d] = await rx.waitFor(1);
      assert.ok(d.verified);
      assert.equal(d.json.type, 'order.ready_for_pickup');
      assert.equal(d.json.data.shipping.pickupLocation.name, 'Our studio');
      const done = await fulfil(shop, order.txref, { status: 'picked_up' });
      assert.equal(done.statusCode, 200, done.body);
      assert.equal(done.json().data.fulfilment.status, 'picked_up');
      assert.ok(done.json().data.fulfilment.readyForPickupAt && done.json().data.fulfilment.pickedUpAt);
    } finally {
      await rx.close();
    }
  });

  it('refuses illegal steps with a 409 in words, and bad bodies with a 400 naming the field', async () => {
    const shop = await createBrandWithCatalog(t.db);
    const book = await createBook(t, shop.testKey);
    const pickup = await pay(shop, buyBody(book, { pickupLocation: 'studio' }));
    const shipPickup = await fulfil(shop, pickup.txref, { status: 'shipped', carrier: 'DHL', trackingNumber: '1' });
    assert.equal(shipPickup.statusCode, 409);
    assert.match(shipPickup.json().message, /collected at a pickup point/);
    const sent = await pay(shop, buyBody(book, delivery()));
    const readyDelivery = await fulfil(shop, sent.txref, { status: 'ready_for_pickup' });
    assert.equal(readyDelivery.statusCode, 409);
    assert.match(readyDelivery.json().message, /delivered to an address/);
    assert.equal((await fulfil(shop, sent.txref, { status: 'shipped', carrier: 'DHL', trackingNumber: '1' })).statusCode, 200);
    const twice = await fulfil(shop, sent.txref, { status: 'shipped', carrier: 'DHL', trackingNumber: '2' });
    assert.equal(twice.statusCode, 409);
    assert.match(twice.json().message, /is shipped, so it cannot become shipped/);

    const missing = await fulfil(shop, pickup.txref, { status: 'shipped' });
    assert.equal(missing.statusCode, 400);
    assert.deepEqual(fieldsOf(missing), ['carrier', 'trackingNumber']);
    const extra = await fulfil(shop, pickup.txref, { status: 'ready_for_pickup', carrier: 'DHL' });
    assert.deepEqual(fieldsOf(extra), ['carrier']);
    const badUrl = await fulfil(shop, sent.txref, { status: 'shipped', carrier: 'DHL', trackingNumber: '1', trackingUrl: 'ftp://example.com/x' });
    assert.deepEqual(fieldsOf(badUrl), ['trackingUrl']);

    const course = await pay(shop, courseBody(shop.ids));
    const nothing = await fulfil(shop, course.txref, { status: 'shipped', carrier: 'DHL', trackingNumber: '1' });
    assert.equal(nothing.statusCode, 409);
    assert.match(nothing.json().message, /nothing to ship/);
    const unpaid = await createLink(t, shop.testKey, buyBody(book, delivery()));
    await submitCard(t, unpaid.path, cards.declined);
    const [failed] = await t.db.query<{ txref: string }>('SELECT txref FROM transactions WHERE payment_link_id = $1', [unpaid.id]);
    const notPaid = await fulfil(shop, failed.txref, { status: 'shipped', carrier: 'DHL', trackingNumber: '1' });
    assert.equal(notPaid.statusCode, 409);
    assert.match(notPaid.json().message, /is failed: only a paid order/);
  });
});
