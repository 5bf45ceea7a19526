import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { browserSkip, launchChromium } from '../testing/browser.ts';
import { cards, courseBody, createLink } from '../testing/checkout-fixtures.ts';
import { createBrandWithCatalog } from '../testing/factories.ts';
import { freePort } from '../testing/processes.ts';
import { startTestSmtp, type TestSmtp } from '../testing/smtp.ts';

/**
 * Checkout email verification (issue 24 item 3) in a real Chromium, the code from a real SMTP
 * server: the brand turns it on, the hosted page asks for the code before paying, wrong and
 * early-resend answers in words, the right code leads to the card form, and a link made with
 * checkoutOtpVerificationSkipped goes straight to it. SCREENSHOT_DIR saves the code page.
 */
const skip = browserSkip;

let t: TestApp;
let smtp: TestSmtp;
let browser: Browser;

async function shot(page: Page, name: string) {
  if (!process.env.SCREENSHOT_DIR) return;
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/${name}-${width}.png`, fullPage: true });
  }
}

const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)?.[1];

describe('checkout email verification in a browser', () => {
  before(async () => {
    if (skip) return;
    smtp = await startTestSmtp();
    const port = await freePort();
    t = await startTestApp({ publicUrl: `http://127.0.0.1:${port}`, worker: true, mail: { smtpUrl: smtp.url, from: 'hello@shop.test', retryScheduleMs: [100] } });
    await t.app.listen({ port, host: '127.0.0.1' });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    await smtp?.stop();
  });

  it('asks for the code mailed to the buyer before paying, and pays once it is right', { skip }, async () => {
    const { ids, testKey } = await createBrandWithCatalog(t.db);
    const on = await t.request({ method: 'PATCH', url: '/api/v1/email-settings', key: testKey, payload: { checkoutEmailVerification: true } });
    assert.equal(on.statusCode, 200, on.body);
    assert.equal(on.json().data.checkoutEmailVerification, true);
    const { link, path } = await createLink(t, testKey, courseBody(ids, { form: { formData: { fullName: 'Ada Lovelace', email: 'ada.otp@example.com', experienceLevel: 'Beginner' } } }));

    // Paying without the code is refused, and nothing is charged.
    const early = await t.app.inject({ method: 'POST', url: `${path}/pay`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ card: cards.ok }).toString() });
    assert.equal(early.statusCode, 403);
    assert.match(early.body, /Confirm your email address first: nothing was charged\./);

    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true });
    await page.goto(link);
    assert.equal(await page.getByLabel('Card number').count(), 0, 'no card form before the code');
    await page.getByText('We will email a 6-digit code to ada.otp@example.com').waitFor();
    await page.getByRole('button', { name: 'Email me a code' }).click();
    await page.getByLabel('Code from the email').waitFor();
    const [mail] = await smtp.waitFor(1);
    assert.deepEqual(mail.envelope.to, ['ada.otp@example.com']);
    assert.match(mail.parsed.subject ?? '', /^\d{6} is your Test brand checkout code$/);
    const code = codeIn(mail.parsed.text ?? '');
    assert.ok(code, mail.parsed.text);
    await shot(page, 'checkout-email-code');

    await page.getByRole('button', { name: 'Send a new code' }).click();
    await page.getByRole('alert').filter({ hasText: 'A code was sent to ada.otp@example.com moments ago' }).waitFor();

    const wrong = code === '000000' ? '111111' : '000000';
    await page.getByLabel('Code from the email').fill(wrong);
    await page.getByRole('button', { name: 'Confirm and continue' }).click();
    await page.getByRole('alert').filter({ hasText: 'That code is not right. 4 tries left.' }).waitFor();
    assert.equal(await page.getByLabel('Code from the email').getAttribute('aria-invalid'), 'true');

    await page.getByLabel('Code from the email').fill(code);
    await page.getByRole('button', { name: 'Confirm and continue' }).click();
    await page.getByLabel('Card number').fill(cards.ok);
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(/\/result\?txref=/);
    assert.ok(await page.getByRole('heading', { name: 'Payment successful' }).isVisible());
    await page.close();

    const outbox = (await t.request({ method: 'GET', url: '/api/v1/emails?kind=receipt', key: testKey })).json().data.items;
    assert.equal(outbox.length, 1, 'the receipt is in the brand\'s outbox');
    const codes = await t.db.query<{ mode: string | null }>('SELECT mode FROM mail_messages WHERE kind = \'checkout_code\' AND to_address = $1', ['ada.otp@example.com']);
    assert.deepEqual(codes.map((c) => c.mode), [null], 'the code is kept out of GET /emails: one mail, no mode');
  });

  it('stops a code after five wrong tries, and skips the code for a link made with checkoutOtpVerificationSkipped', { skip }, async () => {
    const { ids, testKey } = await createBrandWithCatalog(t.db);
    await t.request({ method: 'PATCH', url: '/api/v1/email-settings', key: testKey, payload: { checkoutEmailVerification: true } });
    const { link } = await createLink(t, testKey, courseBody(ids, { form: { formData: { fullName: 'Bo', email: 'bo.otp@example.com', experienceLevel: 'Beginner' } } }));
    const page = await browser.newPage();
    await page.goto(link);
    await page.getByRole('button', { name: 'Email me a code' }).click();
    const [mail] = await waitForCode('bo.otp@example.com');
    const code = codeIn(mail.parsed.text ?? '')!;
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      await page.getByLabel('Code from the email').fill(wrong);
      await page.getByRole('button', { name: 'Confirm and continue' }).click();
      await page.getByRole('alert').waitFor();
    }
    assert.match(await page.getByRole('alert').innerText(), /that was the last try for it\. Ask for a new code\./);
    await page.getByLabel('Code from the email').fill(code);
    await page.getByRole('button', { name: 'Confirm and continue' }).click();
    assert.match(await page.getByRole('alert').innerText(), /entered wrongly 5 times, so it no longer works/);
    assert.equal(await page.getByLabel('Card number').count(), 0);
    await page.close();

    const skipped = await createLink(t, testKey, courseBody(ids, { checkoutOtpVerificationSkipped: true }));
    const direct = await browser.newPage();
    await direct.goto(skipped.link);
    await direct.getByLabel('Card number').waitFor();
    await direct.close();
  });

  it('sends a buyer who filled the web checkout form to the code page, not the card form', { skip }, async () => {
    const { ids, testKey } = await createBrandWithCatalog(t.db);
    await t.request({ method: 'PATCH', url: '/api/v1/email-settings', key: testKey, payload: { checkoutEmailVerification: true } });
    const made = await t.request({ method: 'POST', url: '/api/v1/checkout-links', key: testKey, payload: { items: [{ id: ids['brush-course'], plan: ids['brush-standard'] }] } });
    assert.equal(made.statusCode, 200, made.body);
    const form = await t.app.inject({
      method: 'POST', url: new URL(made.json().data.url).pathname, headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ fullName: 'Cy Buyer', email: 'cy.otp@example.com', countryCode: 'PT', field_experienceLevel: 'Beginner' }).toString(),
    });
    assert.equal(form.statusCode, 303, form.body);
    const hosted = await t.app.inject({ method: 'GET', url: String(form.headers.location) });
    assert.equal(hosted.statusCode, 200);
    assert.match(hosted.body, /Confirm your email address/);
    assert.match(hosted.body, /We will email a 6-digit code to cy\.otp@example\.com/);
    assert.doesNotMatch(hosted.body, /Card number/);
  });
});

async function waitForCode(to: string) {
  const started = Date.now();
  for (;;) {
    const got = smtp.received.filter((m) => m.envelope.to.includes(to));
    if (got.length) return got;
    if (Date.now() - started > 15_000) throw new Error(`no code mailed to ${to}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
