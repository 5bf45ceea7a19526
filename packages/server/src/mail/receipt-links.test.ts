import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { courseBody, createLink, submitCard } from '../testing/checkout-fixtures.ts';
import { createBrandWithCatalog } from '../testing/factories.ts';
import { startTestSmtp, type TestSmtp } from '../testing/smtp.ts';
import { until } from '../testing/until.ts';

/**
 * The receipt as a buyer uses it (docs/email.md): it carries the brand's logo, and its
 * "View invoice" link leads, through the portal's emailed sign-in, to the invoice's PDF.
 */
let t: TestApp;
let smtp: TestSmtp;
before(async () => {
  smtp = await startTestSmtp();
  t = await startTestApp({ publicUrl: 'http://shop.test', worker: true, mail: { smtpUrl: smtp.url, from: 'receipts@shop.test', retryScheduleMs: [50] } });
});
after(async () => {
  await t?.close();
  await smtp?.stop();
});

describe('the receipt\'s links', () => {
  it('shows the brand\'s logo and links the invoice, which opens after the portal\'s sign-in', async () => {
    const { brand, ids, testKey: key } = await createBrandWithCatalog(t.db);
    await t.db.query("UPDATE brands SET slug = 'receipts-co', logo_url = 'https://cdn.example.com/logo.png' WHERE id = $1", [brand.id]);
    const link = await createLink(t, key, courseBody(ids));
    assert.equal((await submitCard(t, link.path, '4242 4242 4242 4242')).statusCode, 303);
    const [tx] = await t.db.query<{ txref: string; customer_email: string }>('SELECT txref, customer_email FROM transactions WHERE brand_id = $1', [brand.id]);
    const email = tx.customer_email;
    const receipt = await until('the receipt', () => smtp.received.find((m) => m.envelope.to.includes(email) && /receipt/.test(String(m.parsed.subject))));
    assert.match(String(receipt.parsed.html), /<img[^>]+src="https:\/\/cdn\.example\.com\/logo\.png"/);
    const invoiceUrl = /View invoice: (\S+)/.exec(receipt.parsed.text ?? '')?.[1];
    assert.equal(invoiceUrl, `http://shop.test/portal/receipts-co/invoices/${tx.txref}`);

    const path = new URL(invoiceUrl!).pathname;
    const signedOut = await t.app.inject({ method: 'GET', url: path });
    assert.equal(signedOut.statusCode, 401);
    assert.match(signedOut.body, new RegExp(`name="focus" value="${tx.txref}"`));
    const asked = await t.app.inject({
      method: 'POST', url: '/portal/receipts-co/sign-in', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://shop.test' },
      payload: new URLSearchParams({ email, focus: tx.txref }).toString(),
    });
    assert.equal(asked.statusCode, 200);
    const signIn = await until('the sign-in mail', () => smtp.received.find((m) => m.envelope.to.includes(email) && /sign-in link/.test(String(m.parsed.subject))));
    const enter = new URL(/(http:\/\/shop\.test\S+\/enter\?token=[\w-]+)/.exec(signIn.parsed.text ?? '')![1]);
    const entered = await t.app.inject({ method: 'GET', url: enter.pathname + enter.search });
    assert.match(String(entered.headers.location), new RegExp(`focus=${tx.txref}`));
    const cookie = String(entered.headers['set-cookie']).split(';')[0];
    const pdf = await t.app.inject({ method: 'GET', url: path, headers: { cookie } });
    assert.equal(pdf.statusCode, 200);
    assert.equal(pdf.headers['content-type'], 'application/pdf');
  });
});
