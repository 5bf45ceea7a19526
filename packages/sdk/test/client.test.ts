import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { cards, courseBody, submitCard } from '../../server/src/testing/checkout-fixtures.ts';
import { createBrandWithCatalog, createKey } from '../../server/src/testing/factories.ts';
import { startReceiver, type Receiver } from '../../server/src/testing/receiver.ts';
import {
  AuthenticationError, Client, ConflictError, NotFoundError, PermissionError, ServiceError, ValidationError,
  type Membership, type ProductSummary,
} from '../src/index.ts';
import { checkAgainstDocument, eventually, startLiveServer, type LiveServer } from './support.ts';

/**
 * Every SDK method against the real server on an ephemeral port (PGlite, or PostgreSQL on the
 * second run), and every answer checked against the served OpenAPI document with Ajv.
 */

let live: LiveServer;
let client: Client;
let ids: Record<string, string>;
let brandId: string;
let rx: Receiver;

before(async () => {
  live = await startLiveServer({ worker: true });
  const made = await createBrandWithCatalog(live.t.db);
  ids = made.ids;
  brandId = made.brand.id;
  client = new Client({ apiKey: made.testKey, baseUrl: live.baseUrl, fetch: live.fetch });
  rx = await startReceiver();
});
after(async () => {
  await rx.close();
  await live.close();
});

describe('the client against the real server', () => {
  it('pings with the key\'s brand, mode and scopes', async () => {
    const ping = await client.ping();
    assert.equal(ping.ok, true);
    assert.equal(ping.brandID, brandId);
    assert.equal(ping.mode, 'test');
    assert.ok(ping.scopes.includes('products:read'));
  });

  it('accepts the base URL with or without /api/v1', () => {
    assert.equal(new Client({ apiKey: 'k', baseUrl: 'https://x.example/' }).baseUrl, 'https://x.example/api/v1');
    assert.equal(new Client({ apiKey: 'k', baseUrl: 'https://x.example/api/v1' }).baseUrl, 'https://x.example/api/v1');
    assert.throws(() => new Client({}), /apiKey/);
  });

  it('lists one page, walks every page, yields pages and collects with a cap', async () => {
    const all = await client.products.list({ limit: 100 });
    assert.equal(all.hasMore, false);
    assert.equal(all.nextCursor, '');
    assert.ok(all.items.length >= 4, 'the example catalog has several products');

    const first = await client.products.list({ limit: 2 });
    assert.equal(first.items.length, 2);
    assert.equal(first.hasMore, true);
    assert.notEqual(first.nextCursor, '');

    const walked: ProductSummary[] = [];
    for await (const product of client.products.list({ limit: 2 })) walked.push(product);
    assert.deepEqual(walked.map((p) => p.id), all.items.map((p) => p.id));

    const pages = [];
    for await (const page of client.products.list({ limit: 2 }).pages()) pages.push(page.items.length);
    assert.equal(pages.length, Math.ceil(all.items.length / 2));

    const capped = await client.products.list({ limit: 2 }).toArray({ max: 3 });
    assert.deepEqual(capped.map((p) => p.id), all.items.slice(0, 3).map((p) => p.id));
    await assert.rejects(() => (client.products.list() as any).toArray(), /needs \{ max \}/);
  });

  it('gets a product with its tiers, items and checkout fields', async () => {
    const product = await client.products.get(ids['brush-course']);
    assert.equal(product.id, ids['brush-course']);
    assert.ok(product.tiers.some((tier) => tier.id === ids['brush-standard']));
    assert.ok(Array.isArray(product.checkoutFields));
  });

  it('creates and edits a product and a hub, and lists and gets hubs', async () => {
    const product = await client.products.create({
      type: 'course', title: 'Inking basics',
      items: [{ ref: 'pens', type: 'lesson', title: 'Pens' }],
      tiers: [{ name: 'Standard', price: { amount: 30, currency: 'USD' }, itemIDs: ['pens'] }],
      checkoutFields: [{ label: 'Company name', type: 'text' }],
    });
    assert.deepEqual(product.tiers[0].itemIDs, [product.items[0].id]);
    const updated = await client.products.update(product.id, {
      title: 'Inking basics, revised',
      tiers: [{ id: product.tiers[0].id, name: 'Standard', price: { amount: 25, currency: 'USD' } }],
    });
    assert.deepEqual(await client.products.get(product.id), updated);
    assert.deepEqual(updated.tiers[0].price, { amount: 25, currency: 'USD' });

    const hub = await client.hubs.create({ name: 'Ink Club', tiers: [{ name: 'Free', price: { amount: 0, currency: 'USD' } }] });
    const renamed = await client.hubs.update(hub.id, { name: 'Ink Society' });
    assert.equal(renamed.name, 'Ink Society');
    assert.deepEqual(await client.hubs.get(hub.id), renamed);
    const hubs = await client.hubs.list().toArray({ max: 100 });
    assert.ok(hubs.some((h) => h.id === hub.id) && hubs.some((h) => h.id === ids['studio-club']));
  });

  it('makes one payment link for one idempotency key, however often the call is repeated', async () => {
    const idempotencyKey = `order-${Date.now()}`;
    const first = await client.paymentLinks.create(courseBody(ids) as any, { idempotencyKey });
    const again = await client.paymentLinks.create(courseBody(ids) as any, { idempotencyKey });
    assert.equal(again.id, first.id, 'the server replayed the first answer');
    await assert.rejects(
      client.paymentLinks.create(courseBody(ids, { metadata: { other: 'body' } }) as any, { idempotencyKey }),
      (err: unknown) => err instanceof ValidationError && err.status === 422 && err.code === 'idempotency_key_reused',
    );
  });

  it('makes a payment link, and after paying lists, gets and verifies the transaction', async () => {
    const link = await client.paymentLinks.create(courseBody(ids) as any);
    assert.match(link.link, /^http/);
    assert.equal(link.amount, 39.5);
    const paid = await submitCard(live.t, new URL(link.link).pathname, cards.ok);
    assert.ok(paid.statusCode < 400, paid.body);

    const page = await client.transactions.list({ limit: 5 });
    const txn = page.items.find((x) => x.status === 'succeeded');
    assert.ok(txn, 'the paid transaction is listed');
    assert.deepEqual(await client.transactions.get(txn.txref), txn);
    const found = await client.transactions.list({ q: 'ADA@EXAMPLE', status: 'succeeded' });
    assert.ok(found.items.some((x) => x.txref === txn.txref), 'filtered by status and a search of the email');
    const totals = await client.transactions.totals({ status: 'succeeded' });
    assert.equal(totals.items.find((x) => x.currency === 'USD')!.paidCount >= 1, true);
    const summary = await client.metrics.summary();
    assert.ok(summary.recentSales.some((x) => x.txref === txn.txref), 'the sale is on the home\'s numbers');
    const pdf = await client.transactions.invoice(txn.txref);
    assert.equal(Buffer.from(pdf.subarray(0, 5)).toString('latin1'), '%PDF-');
    const verified = await client.payments.verify({ txref: txn.txref });
    assert.equal(verified.txref, txn.txref);
    assert.equal(verified.status, 'succeeded');

    const customers = await client.products.customers.list(ids['brush-course']).toArray({ max: 10 });
    assert.ok(customers.some((c) => c.email === 'ada@example.com'));
    // Everyone who bought, one per email, and their page with this payment on it.
    const [ada] = (await client.customers.list({ q: 'ADA@example' })).items;
    assert.equal(ada?.email, 'ada@example.com');
    assert.ok(ada.lifetimeValue.some((v) => v.currency === 'USD' && v.amount > 0));
    assert.ok((await client.customers.get(ada.id)).transactions.some((x) => x.txref === txn.txref));
    const subscriptions = await client.subscriptions.list({ status: 'active' }).toArray({ max: 100 });
    assert.ok(subscriptions.every((s) => s.state === 'active'));

    // Test mode pays from code too, through the same flow (testHelpers).
    const another = await client.paymentLinks.create(courseBody(ids) as any);
    const byCode = await client.testHelpers.payPaymentLink(another.id, { card: cards.ok });
    assert.equal(byCode.status, 'succeeded');
    // The pay answer is the settled transaction as verify gives it: GET adds fee and net (docs/payouts.md).
    const { fee, net, ...settled } = await client.transactions.get(byCode.txref);
    assert.deepEqual(settled, byCode);
    assert.equal(Math.round((fee! + net!) * 100), Math.round(byCode.amount * 100));
  });

  it('uploads, replaces and downloads an item\'s file, sets a link, keeps a membership and sends a buyer into the portal', async () => {
    const productId = ids['palette-guide'];
    const itemId = ids['palette-pdf'];
    const item = await client.products.items.uploadFile(productId, itemId, new Blob(['%PDF-1.7 palette guide'], { type: 'application/pdf' }), { filename: 'palette.pdf' });
    assert.equal(item.content?.fileName, 'palette.pdf');
    assert.equal(item.content?.version, 1);
    assert.equal(Buffer.from(await client.products.items.downloadFile(productId, itemId)).toString(), '%PDF-1.7 palette guide');
    const stream = new ReadableStream<Uint8Array>({ start(c) { c.enqueue(new TextEncoder().encode('%PDF-1.7 second edition')); c.close(); } });
    const replaced = await client.products.items.uploadFile(productId, itemId, stream, { contentType: 'application/pdf', filename: 'palette-2.pdf' });
    assert.equal(replaced.content?.version, 2);
    assert.equal((await client.products.items.setLink(productId, itemId, { url: 'https://video.example.com/palette' })).content?.kind, 'url');
    assert.equal((await client.products.items.removeContent(productId, itemId)).content, undefined);

    // ada@example.com paid for the course in the test above.
    const session = await client.customerSessions.create({ email: 'ada@example.com', returnUrl: 'https://inkwell.example.com/account' });
    assert.match(session.url, /\/portal\/[^/]+\/enter\?token=/);
    const member = (await client.products.customers.list(ids['brush-course'], { limit: 100 }).toArray({ max: 100 })).find((m) => m.status === 'active');
    assert.ok(member, 'an active customer to keep');
    assert.equal((await client.memberships.resume(member.membershipId)).status, 'active', 'keeping one that is not ending changes nothing');
  });

  it('refunds a transaction in parts, once per idempotency key, and says why one is refused', async () => {
    const link = await client.paymentLinks.create(courseBody(ids) as any);
    await submitCard(live.t, new URL(link.link).pathname, cards.ok);
    const txn = (await client.transactions.list({ limit: 5 })).items.find((x) => x.status === 'succeeded' && x.refundedAmount === 0)!;
    const part = await client.transactions.refund(txn.txref, { amount: 9.5, reason: 'Late' }, { idempotencyKey: 'order-9001' });
    assert.equal(part.refundedAmount, 9.5);
    assert.equal(part.refunds[0].reason, 'Late');
    const again = await client.transactions.refund(txn.txref, { amount: 9.5, reason: 'Late' }, { idempotencyKey: 'order-9001' });
    assert.deepEqual(again, part, 'the same key refunds once');
    const over = await client.transactions.refund(txn.txref, { amount: 100 }).catch((e: unknown) => e);
    assert.ok(over instanceof ValidationError);
    const rest = await client.transactions.refund(txn.txref);
    assert.equal(rest.status, 'refunded');
    assert.equal(rest.net, -(rest.fee ?? 0));
    const twice = await client.transactions.refund(txn.txref).catch((e: unknown) => e);
    assert.ok(twice instanceof ConflictError);
  });

  it('closes a dispute the sandbox\'s disputed test card opened', async () => {
    const link = await client.paymentLinks.create(courseBody(ids) as any);
    await submitCard(live.t, new URL(link.link).pathname, cards.disputed);
    const txn = (await client.transactions.list({ limit: 5 })).items.find((x) => x.dispute && !x.dispute.closedAt)!;
    assert.equal(txn.dispute?.status, 'needs_response');
    const lost = await client.testHelpers.closeDispute(txn.txref, { outcome: 'lost' });
    assert.deepEqual([lost.dispute?.status, lost.status, lost.refundedAmount], ['lost', 'refunded', txn.amount]);
    const again = await client.testHelpers.closeDispute(txn.txref, { outcome: 'won' }).catch((e: unknown) => e);
    assert.ok(again instanceof ConflictError);
  });

  it('imports hub members and product customers, and follows the import', async () => {
    const queued = await client.hubs.members.import(ids['studio-club'], {
      records: [{ fullName: 'Grace Hopper', email: 'grace@example.com' }, { fullName: 'Alan Turing', email: 'alan@example.com' }],
    });
    assert.equal(queued.queued, true);
    assert.equal(queued.count, 2);
    const done = await eventually(async () => {
      const job = await client.imports.get(queued.importID);
      return job.status === 'completed' ? job : undefined;
    });
    assert.equal(done.created, 2);

    const members: Membership[] = [];
    for await (const m of client.hubs.members.list(ids['studio-club'], { limit: 1 })) members.push(m);
    const grace = members.find((m) => m.email === 'grace@example.com');
    assert.ok(grace);
    assert.deepEqual(await client.hubs.members.get(ids['studio-club'], grace.membershipId), grace);

    const customers = await client.products.customers.import(ids['brush-course'], {
      records: [{ fullName: 'Katherine Johnson', email: 'kj@example.com', experienceLevel: 'Beginner' }],
    });
    assert.equal(customers.count, 1);
    await eventually(async () => ((await client.imports.get(customers.importID)).status === 'completed' ? true : undefined));
  });

  it('cancels and removes members, advances the test clock and reads the payout it settles', async () => {
    const members = await client.hubs.members.list(ids['studio-club'], { limit: 100 }).toArray({ max: 100 });
    const [first, second] = members.filter((m) => m.status === 'active');
    assert.ok(first && second, 'two active members to end');
    assert.equal((await client.memberships.cancel(first.membershipId, { atPeriodEnd: false })).status, 'removed');
    assert.equal((await client.hubs.members.remove(ids['studio-club'], second.membershipId)).status, 'removed');

    const before = Date.parse((await client.testClock.get()).now);
    const moved = await client.testClock.advance({ by: '1d' });
    assert.ok(Date.parse(moved.now) >= before + 86_400_000);
    // The same clock under /test/, with the other test helpers.
    const further = await client.testHelpers.advanceClock({ by: '1d' });
    assert.ok(Date.parse(further.now) >= before + 2 * 86_400_000);
    assert.ok(Math.abs(Date.parse((await client.testHelpers.clock()).now) - Date.parse(further.now)) < 5000);
    const payouts = await client.payouts.list().toArray({ max: 10 });
    assert.ok(payouts.length >= 1, 'the course sold earlier was paid out');
    // GET adds the payout's lines (payments, fees, refunds, affiliate commissions) to what the list shows.
    const { lines, ...payout } = await client.payouts.get(payouts[0].id);
    assert.deepEqual(payout, payouts[0]);
    assert.ok(lines.length >= 1, 'the payout lists the payment it settled');
  });

  it('makes, lists, gets and changes an affiliate', async () => {
    const affiliate = await client.affiliates.create({ name: 'Rita Inks', email: 'rita@example.com', code: `RITA${brandId.slice(-6).replace(/[^A-Za-z0-9]/g, 'x')}`, commissionPercent: 20 });
    assert.equal(affiliate.commissionPercent, 20);
    assert.ok((await client.affiliates.list().toArray({ max: 50 })).some((a) => a.id === affiliate.id));
    assert.equal((await client.affiliates.get(affiliate.id)).code, affiliate.code);
    assert.equal((await client.affiliates.update(affiliate.id, { commissionPercent: 25 })).commissionPercent, 25);
  });

  it('reads the outbox (the receipt of the course sold earlier) and changes the email settings', async () => {
    const receipts = await eventually(async () => {
      const page = await client.emails.list({ kind: 'receipt', status: 'unsent' });
      return page.items.length ? page.items : undefined;
    });
    const email = await client.emails.get(receipts[0].id);
    assert.match(email.text, /Thank you for your purchase/);
    assert.equal(email.log[0].outcome, 'unsent');
    assert.equal((await client.emails.settings()).buyerEmails.receipt, true);
    const changed = await client.emails.updateSettings({ replyTo: 'help@example.com', buyerEmails: { cancellation: false } });
    assert.equal(changed.replyTo, 'help@example.com');
    assert.equal(changed.buyerEmails.cancellation, false);
  });

  it('manages webhook endpoints, sends a test event and reads, resends and lists deliveries and events', async () => {
    const created = await client.webhooks.create({ url: rx.url, events: ['transaction.succeeded', 'member.joined'], description: 'sdk test' });
    assert.match(created.signingSecret, /^whsec_/);
    rx.secret = created.signingSecret;
    const { id } = created;
    assert.equal((await client.webhooks.get(id)).url, rx.url);
    assert.ok((await client.webhooks.list().toArray({ max: 100 })).some((e) => e.id === id));

    const before = rx.received.length;
    const sent = await client.webhooks.test({ eventType: 'transaction.succeeded', endpointID: id });
    assert.equal(sent.created, 1);
    const [delivery] = (await rx.waitFor(before + 1)).slice(before);
    assert.ok(delivery.verified);

    const deliveries = await eventually(async () => {
      const page = await client.webhooks.deliveries.list({ endpointID: id, status: 'succeeded' });
      return page.items.length ? page.items : undefined;
    });
    const detail = await client.webhooks.deliveries.get(deliveries[0].id);
    assert.equal(detail.eventType, 'transaction.succeeded');
    assert.ok(detail.attemptLog.length >= 1);
    const resent = await client.webhooks.deliveries.resend(detail.id);
    assert.equal(resent.attempts, detail.attempts + 1);

    const events = await client.events.list({ type: 'transaction.succeeded', limit: 5 });
    assert.ok(events.items.length >= 1);
    assert.equal((await client.events.get(detail.eventID)).id, detail.eventID);
    assert.ok((await client.events.list({ resourceID: detail.resourceID })).items.some((e) => e.id === detail.eventID));
    assert.ok((await client.webhooks.deliveries.list({ eventID: detail.eventID })).items.every((d) => d.eventID === detail.eventID));

    const rolled = await client.webhooks.rollSecret(id, { overlapSeconds: 60 });
    assert.match(rolled.signingSecret, /^whsec_/);
    assert.ok(rolled.previousSecretExpiresAt && Date.parse(rolled.previousSecretExpiresAt) > Date.now());

    const updated = await client.webhooks.update(id, { status: 'disabled' });
    assert.equal(updated.status, 'disabled');
    await assert.rejects(() => client.webhooks.deliveries.resend(detail.id), (e: unknown) => e instanceof ConflictError && e.status === 409 && e.code === 'conflict');
    const deleted = await client.webhooks.delete(id);
    assert.deepEqual(deleted, { id, deleted: true });
  });

  it('throws typed errors with the server\'s code, message, request id and details', async () => {
    const missing = await client.products.get('prod_missing').catch((e: unknown) => e);
    assert.ok(missing instanceof NotFoundError);
    assert.ok(missing instanceof ServiceError);
    assert.equal(missing.status, 404);
    assert.equal(missing.code, 'not_found');
    assert.match(missing.requestId ?? '', /^req_/);
    assert.equal(missing.requestId, missing.headers?.get('x-request-id'));

    const invalid = await client.products.list({ limit: 0 }).catch((e: unknown) => e);
    assert.ok(invalid instanceof ValidationError);
    assert.equal(invalid.code, 'validation_failed');
    assert.match(invalid.message, /limit/);

    const badImport = await client.hubs.members.import(ids['studio-club'], { records: [{ fullName: '', email: 'nope' }] }).catch((e: unknown) => e);
    assert.ok(badImport instanceof ValidationError);
    assert.ok(badImport.details?.some((d) => d.index === 0 && d.field === 'email'));

    const stranger = new Client({ apiKey: 'svc_test_unknownunknownunknownunknown0', baseUrl: live.baseUrl, fetch: live.fetch });
    const unauth = await stranger.ping().catch((e: unknown) => e);
    assert.ok(unauth instanceof AuthenticationError);
    assert.equal(unauth.code, 'authentication_required');

    const readOnly = (await createKey(live.t.db, brandId, { scopes: ['products:read'] })).key;
    const limited = new Client({ apiKey: readOnly, baseUrl: live.baseUrl, fetch: live.fetch });
    const forbidden = await limited.transactions.list().catch((e: unknown) => e);
    assert.ok(forbidden instanceof PermissionError);
    assert.equal(forbidden.code, 'scope_missing');
    assert.match(forbidden.message, /transactions:read/);
  });

  it('sends an OAuth access token as Authorization: Bearer', async () => {
    const oauth = new Client({ accessToken: 'oat_example', baseUrl: live.baseUrl, fetch: live.fetch });
    await oauth.ping().catch(() => undefined);
    const sent = live.exchanges.at(-1)!;
    assert.equal(sent.requestHeaders.get('authorization'), 'Bearer oat_example');
    assert.equal(sent.requestHeaders.get('x-service-api'), null);
  });

  it('carries an Idempotency-Key on every POST, PATCH and DELETE and none on GET', () => {
    for (const x of live.exchanges) {
      const key = x.requestHeaders.get('idempotency-key');
      if (x.method === 'GET') assert.equal(key, null, `${x.method} ${x.url.pathname}`);
      else assert.match(key ?? '', /^([0-9a-f-]{36}|order-\d+)$/, `${x.method} ${x.url.pathname}`); // made per call, or the caller's own
    }
  });

  it('reads and changes the brand profile, and makes, lists, gets and disables a checkout link', async () => {
    const slug = `sdk-${brandId.slice(-8).toLowerCase().replace(/[^a-z0-9]/g, 'x')}`;
    const brand = await client.brand.update({ displayName: 'SDK Studio', slug, timeZone: 'Europe/Lisbon' });
    assert.equal(brand.slug, slug);
    assert.equal((await client.brand.get()).displayName, 'SDK Studio');
    const link = await client.checkoutLinks.create({ items: [{ id: ids['brush-course'], plan: ids['brush-standard'] }], name: 'Bio', maxSales: 10 });
    assert.ok(link.url.includes(`/buy/${brandId}/${link.id}`));
    assert.equal((await client.checkoutLinks.get(link.id)).name, 'Bio');
    const listed = await client.checkoutLinks.list({ tier: ids['brush-standard'] }).toArray({ max: 50 });
    assert.ok(listed.some((l) => l.id === link.id));
    assert.equal((await client.checkoutLinks.update(link.id, { status: 'disabled' })).status, 'disabled');
  });

  it('makes, lists, gets, changes and archives a coupon, and applies it to a payment link', async () => {
    const coupon = await client.coupons.create({ code: `SDK${brandId.slice(-6).replace(/[^A-Za-z0-9]/g, 'x')}`, percentOff: 10, maxRedemptions: 5 });
    assert.equal(coupon.percentOff, 10);
    const link = await client.paymentLinks.create({
      items: [{ id: ids['brush-course'], plan: ids['brush-standard'], type: 'course' }], coupon: coupon.code.toLowerCase(),
      form: { formData: { fullName: 'Ada Lovelace', email: 'ada@example.com', experienceLevel: 'Beginner' } },
    });
    assert.equal(link.amount, 35.55);
    const listed = await client.coupons.list({ status: 'active' }).toArray({ max: 50 });
    assert.ok(listed.some((c) => c.id === coupon.id));
    const got = await client.coupons.get(coupon.id);
    assert.deepEqual(got.recentRedemptions, []);
    assert.equal((await client.coupons.update(coupon.id, { maxRedemptions: 50 })).maxRedemptions, 50);
    assert.equal((await client.coupons.archive(coupon.id)).status, 'archived');
  });

  it('reads a bookable product\'s slots, books one, and lists, gets, reschedules and cancels the booking', async () => {
    const allDay = Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, [{ start: '00:00', end: '24:00' }]]));
    const product = await client.products.create({
      type: 'appointment', title: 'SDK call', tiers: [{ name: 'Call', price: { amount: 0, currency: 'USD' } }],
      availability: { timezone: 'UTC', sessionMinutes: 60, weeklyHours: allDay, minNoticeMinutes: 0, changeNoticeMinutes: 0 },
    });
    const from = new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000 + 2 * 86_400_000);
    const { slots } = await client.products.availability(product.id, { from: from.toISOString(), to: new Date(from.getTime() + 3 * 3_600_000).toISOString(), timezone: 'Asia/Tokyo' });
    assert.equal(slots.length, 3);
    const link = await client.paymentLinks.create({
      items: [{ id: product.id, plan: product.tiers[0].id, type: 'appointment' }],
      form: { formData: { fullName: 'Ada Lovelace', email: 'ada@example.com' } },
      booking: { startsAt: slots[0].startsAt },
    });
    await client.testHelpers.payPaymentLink(link.id, { card: '4242 4242 4242 4242' });
    const [booking] = await client.bookings.list({ productID: product.id }).toArray({ max: 10 });
    assert.equal((await client.bookings.get(booking.id)).startsAt, slots[0].startsAt);
    assert.equal((await client.bookings.reschedule(booking.id, { startsAt: slots[1].startsAt })).status, 'rescheduled');
    assert.equal((await client.bookings.cancel(booking.id, { reason: 'Moved away' })).status, 'cancelled');
  });

  it('sells a physical product for delivery, lists it in the fulfilment queue and marks it shipped', async () => {
    const product = await client.products.create({
      type: 'physical', title: 'SDK print', status: 'published', tiers: [{ name: 'Print', price: { amount: 20, currency: 'USD' } }],
      shipping: { deliveryZones: [{ id: 'us', name: 'United States', countries: ['US'], prices: [{ amount: 5, currency: 'USD' }] }] },
    });
    const link = await client.paymentLinks.create({
      items: [{ id: product.id, plan: product.tiers[0].id, type: 'physical' }],
      form: { formData: { fullName: 'Ada Lovelace', email: 'ada@example.com' } },
      deliveryLocation: 'us', address: { line1: '1 Market St', city: 'San Francisco', region: 'CA', postalCode: '94105', country: 'US' },
    });
    assert.equal(link.amount, 25);
    const paid = await client.testHelpers.payPaymentLink(link.id, { card: '4242 4242 4242 4242' });
    const queue = await client.transactions.list({ status: 'succeeded', fulfilment: 'unfulfilled', order: 'oldest' }).toArray({ max: 100 });
    assert.ok(queue.some((t) => t.txref === paid.txref));
    const shipped = await client.transactions.fulfil(paid.txref, { status: 'shipped', carrier: 'USPS', trackingNumber: '9400111899223197428490' });
    assert.equal(shipped.fulfilment?.status, 'shipped');
    assert.equal(shipped.shipping?.address?.postalCode, '94105');
  });

  it('gets answers that match the served OpenAPI document, for every operation', async () => {
    const doc = await (await fetch(`${live.baseUrl}/api/v1/openapi.json`)).json();
    const { problems, seen } = checkAgainstDocument(doc, live.exchanges);
    assert.deepEqual(problems, []);
    const operations = Object.values(doc.paths as Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>>)
      .flatMap((methods) => Object.values(methods));
    const missing = operations.filter((op) => ![...(seen.get(op.operationId) ?? [])].some((s) => s < 300)).map((op) => op.operationId);
    assert.deepEqual(missing, [], 'every operation was called successfully through the SDK');

    // The check itself catches a wrong answer.
    const wrong = { ...live.exchanges.find((x) => x.url.pathname.endsWith('/ping') && x.status === 200)!, body: { status: 'success', message: 'pong', data: { ok: 'yes' } } };
    assert.equal(checkAgainstDocument(doc, [wrong]).problems.length, 1);
  });
});
