import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { cards, createLink, submitCard } from '../testing/checkout-fixtures.ts';
import { createBrandWithCatalog } from '../testing/factories.ts';
import { startTestSmtp, type TestSmtp } from '../testing/smtp.ts';
import { buyBody, createBook, delivery } from '../testing/shipping.ts';

/** The buyer's mail when an order is shipped or ready for pickup, as a real SMTP server (smtp-server) receives it. */
let t: TestApp;
let smtp: TestSmtp;
before(async () => {
  smtp = await startTestSmtp();
  t = await startTestApp({ worker: true, mail: { smtpUrl: smtp.url, from: 'orders@shop.test', retryScheduleMs: [150, 300, 600], leaseMs: 5000 } });
});
after(async () => {
  await t.close();
  await smtp.stop();
});

async function waitForMail(to: string, subject: RegExp) {
  const started = Date.now();
  for (;;) {
    const got = smtp.received.find((m) => m.envelope.to.includes(to) && subject.test(m.parsed.subject ?? ''));
    if (got) return got;
    if (Date.now() - started > 15_000) throw new Error(`no "${subject}" mail for ${to}; got ${JSON.stringify(smtp.received.map((m) => [m.envelope.to, m.parsed.subject]))}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function paidOrder(choice: Record<string, unknown>, email: string) {
  const shop = await createBrandWithCatalog(t.db);
  const book = await createBook(t, shop.testKey);
  const link = await createLink(t, shop.testKey, buyBody(book, choice, email));
  assert.equal((await submitCard(t, link.path, cards.ok)).statusCode, 303);
  const [row] = await t.db.query<{ txref: string }>('SELECT txref FROM transactions WHERE payment_link_id = $1', [link.id]);
  return { shop, txref: row.txref };
}

describe('order mail', () => {
  it('tells the buyer their order is on its way, with the carrier, tracking number, tracking link and address', async () => {
    const { shop, txref } = await paidOrder(delivery(), 'ship.me@example.com');
    const receipt = await waitForMail('ship.me@example.com', /receipt/i);
    assert.match(receipt.parsed.text ?? '', /Delivery: United States/, 'the receipt lists the delivery line');
    const res = await t.request({
      method: 'POST', url: `/api/v1/transactions/${txref}/fulfilment`, key: shop.testKey,
      payload: { status: 'shipped', carrier: 'USPS', trackingNumber: '9400111899223197428490', trackingUrl: 'https://tools.usps.com/go/TrackConfirmAction?tLabels=9400111899223197428490' },
    });
    assert.equal(res.statusCode, 200, res.body);
    const mail = await waitForMail('ship.me@example.com', /on its way/);
    const text = mail.parsed.text ?? '';
    assert.match(text, /USPS/);
    assert.match(text, /9400111899223197428490/);
    assert.match(text, /1 Market St, Suite 300, San Francisco CA 94105, United States/);
    assert.match(String(mail.parsed.html), /href="https:\/\/tools\.usps\.com\/go\/TrackConfirmAction\?tLabels=9400111899223197428490"/);
  });

  it('tells the buyer where and when to collect a pickup order', async () => {
    const { shop, txref } = await paidOrder({ pickupLocation: 'studio' }, 'collect@example.com');
    const res = await t.request({ method: 'POST', url: `/api/v1/transactions/${txref}/fulfilment`, key: shop.testKey, payload: { status: 'ready_for_pickup' } });
    assert.equal(res.statusCode, 200, res.body);
    const mail = await waitForMail('collect@example.com', /ready for pickup/);
    assert.match(mail.parsed.text ?? '', /Our studio, 12 Canal St, London E1 6AN, United Kingdom/);
    assert.match(mail.parsed.text ?? '', /Mon–Fri 10:00–18:00/);
  });
});
