import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { courseBody, createLink, submitCard } from '../testing/checkout-fixtures.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { runCommonRouteTests } from '../testing/auth-checks.ts';
import { createBrandWithCatalog } from '../testing/factories.ts';
import { queueMail } from './service.ts';

/**
 * Without SMTP_URL (the embedded default) mail stays in the outbox, rendered, as "not sent: no
 * mail server"; the API shows it whole. Brands set their sender name, reply-to, colour, and
 * which buyer mail goes out.
 */
let t: TestApp;
before(async () => { t = await startTestApp({ worker: true }); });
after(async () => { await t.close(); });

async function buy(b: Awaited<ReturnType<typeof createBrandWithCatalog>>, email: string) {
  const link = await createLink(t, b.testKey, courseBody(b.ids, { form: { formData: { fullName: 'Ada Lovelace', email, experienceLevel: 'Beginner' } } }));
  const paid = await submitCard(t, link.path, '4242 4242 4242 4242');
  assert.equal(paid.statusCode, 303, paid.body);
}

async function waitForUnsent(key: string, to: string) {
  const started = Date.now();
  for (;;) {
    const res = await t.request({ method: 'GET', url: `/api/v1/emails?to=${encodeURIComponent(to)}`, key });
    assert.equal(res.statusCode, 200, res.body);
    const [m] = res.json().data.items;
    if (m?.status === 'unsent') return m;
    if (Date.now() - started > 10_000) throw new Error(`not marked unsent: ${JSON.stringify(m)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

function queueOne(brandId: string, mode: 'test' | 'live', to: string) {
  return t.db.transaction((tx) => queueMail(tx, {
    brandId, mode, kind: 'receipt', to: { email: to, name: 'Ada' },
    data: { buyerName: 'Ada', item: 'Guide', amount: 1000, currency: 'USD', txref: 'tx_x', paidAt: new Date().toISOString(), type: 'purchase' },
    dedupeKey: `test:${to}`,
  }));
}

describe('the outbox without a mail server', () => {
  it('keeps a receipt as "not sent: no mail server", rendered, with its HTML, text part, headers and log', async () => {
    const b = await createBrandWithCatalog(t.db);
    await buy(b, 'outbox@example.com');
    const summary = await waitForUnsent(b.testKey, 'outbox@example.com');
    assert.equal(summary.kind, 'receipt');
    assert.equal(summary.class, 'transactional');
    assert.equal(summary.subject, 'Your receipt from Test brand');
    assert.equal(summary.statusDetail, 'not sent: no mail server (SMTP_URL is not set)');
    assert.equal(summary.mode, 'test');
    const res = await t.request({ method: 'GET', url: `/api/v1/emails/${summary.id}`, key: b.testKey });
    assert.equal(res.statusCode, 200, res.body);
    const email = res.json().data;
    assert.match(email.html, /<html/);
    assert.match(email.html, /Brushwork fundamentals/);
    assert.match(email.text, /Total: +\$39\.50/);
    assert.equal(email.headers.To, '"Ada Lovelace" <outbox@example.com>');
    assert.equal(email.headers.From, '"Test brand" <no-reply@localhost>');
    assert.equal(email.headers.Subject, 'Your receipt from Test brand');
    assert.deepEqual(email.log.map((l: { outcome: string }) => l.outcome), ['unsent']);

    const live = await t.request({ method: 'GET', url: `/api/v1/emails/${summary.id}`, key: b.liveKey });
    assert.equal(live.statusCode, 404, 'a live key does not see test-mode mail');
  });

  it('filters by kind and status, and refuses an unknown kind with 400', async () => {
    const b = await createBrandWithCatalog(t.db);
    await buy(b, 'filter@example.com');
    await waitForUnsent(b.testKey, 'filter@example.com');
    const receipts = await t.request({ method: 'GET', url: '/api/v1/emails?kind=receipt&status=unsent', key: b.testKey });
    assert.equal(receipts.json().data.items.length, 1);
    const none = await t.request({ method: 'GET', url: '/api/v1/emails?kind=cancellation', key: b.testKey });
    assert.equal(none.json().data.items.length, 0);
    const bad = await t.request({ method: 'GET', url: '/api/v1/emails?kind=spam', key: b.testKey });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().data.code, 'validation_failed');
  });
});

describe('email settings', () => {
  it('start with the brand\'s name, the default colour and every buyer kind on', async () => {
    const b = await createBrandWithCatalog(t.db);
    const res = await t.request({ method: 'GET', url: '/api/v1/email-settings', key: b.testKey });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json().data, {
      fromName: null, effectiveFromName: 'Test brand', replyTo: null, brandColour: '#2b59c3',
      buyerEmails: { receipt: true, renewal_failed: true, membership_ended: true, cancellation: true, refund: true, subscription_ending: true, new_content: true, order_shipped: true, order_ready_for_pickup: true }, checkoutEmailVerification: false, brandID: b.brand.id,
    });
  });

  it('set the sender name and reply-to of the brand\'s mail, and turn a kind of buyer mail off', async () => {
    const b = await createBrandWithCatalog(t.db);
    const res = await t.request({
      method: 'PATCH', url: '/api/v1/email-settings', key: b.testKey,
      payload: { fromName: 'Brush Studio', replyTo: 'help@brush.test', brandColour: '#aa3355', buyerEmails: { receipt: false } },
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data.effectiveFromName, 'Brush Studio');
    assert.equal(res.json().data.buyerEmails.receipt, false);
    assert.equal(res.json().data.buyerEmails.cancellation, true);

    await buy(b, 'off@example.com');
    await new Promise((r) => setTimeout(r, 200));
    const list = await t.request({ method: 'GET', url: '/api/v1/emails?to=off%40example.com', key: b.testKey });
    assert.deepEqual(list.json().data.items, [], 'no receipt while receipts are off');

    await t.request({ method: 'PATCH', url: '/api/v1/email-settings', key: b.testKey, payload: { buyerEmails: { receipt: true } } });
    await buy(b, 'on@example.com');
    const m = await waitForUnsent(b.testKey, 'on@example.com');
    const email = (await t.request({ method: 'GET', url: `/api/v1/emails/${m.id}`, key: b.testKey })).json().data;
    assert.equal(email.headers.From, '"Brush Studio" <no-reply@localhost>');
    assert.equal(email.headers['Reply-To'], 'help@brush.test');
    assert.match(email.html, /#aa3355/);
  });

  it('refuses an unknown kind, a bad colour and a bad reply-to with 400 naming the field, changing nothing', async () => {
    const b = await createBrandWithCatalog(t.db);
    for (const [payload, field] of [
      [{ buyerEmails: { spam: false } }, 'buyerEmails'],
      [{ brandColour: 'red' }, 'brandColour'],
      [{ replyTo: 'not an address' }, 'replyTo'],
      [{ fromName: 'A "quoted" <name>' }, 'fromName'],
    ] as const) {
      const res = await t.request({ method: 'PATCH', url: '/api/v1/email-settings', key: b.testKey, payload });
      assert.equal(res.statusCode, 400, res.body);
      assert.match(res.json().message, new RegExp(field));
    }
    const res = await t.request({ method: 'GET', url: '/api/v1/email-settings', key: b.testKey });
    assert.equal(res.json().data.fromName, null);
  });
});

runCommonRouteTests('GET /emails', {
  method: 'GET', scope: 'customers:read', foreign: 'hidden', modeScoped: true,
  async setup({ brandId, mode }) {
    const to = `list-${Math.random().toString(36).slice(2)}@example.com`;
    await queueOne(brandId, mode, to);
    return { url: '/api/v1/emails', marker: to };
  },
}, () => t);

runCommonRouteTests('GET /emails/{id}', {
  method: 'GET', scope: 'customers:read', foreign: 404, modeScoped: true,
  async setup({ brandId, mode }) {
    const to = `one-${Math.random().toString(36).slice(2)}@example.com`;
    await queueOne(brandId, mode, to);
    const [m] = await t.db.query<{ id: string }>('SELECT id FROM mail_messages WHERE brand_id = $1 AND to_address = $2', [brandId, to]);
    return { url: `/api/v1/emails/${m.id}`, marker: m.id };
  },
}, () => t);

runCommonRouteTests('GET /email-settings', {
  method: 'GET', scope: 'customers:read', foreign: 'none', modeScoped: false,
  async setup({ brandId }) { return { url: '/api/v1/email-settings', marker: brandId }; },
}, () => t);

runCommonRouteTests('PATCH /email-settings', {
  method: 'PATCH', scope: 'customers:write', foreign: 'none', modeScoped: false,
  async setup({ brandId }) { return { url: '/api/v1/email-settings', body: { replyTo: 'help@example.com' }, marker: brandId }; },
}, () => t);
