import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { defaultDashboardDir } from '../dashboard/static.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { browserSkip, launchChromium } from '../testing/browser.ts';
import { freePort } from '../testing/processes.ts';
import { startTestSmtp, type TestSmtp } from '../testing/smtp.ts';

/**
 * Confirming a new account's address in a real Chromium, with the mail from a real SMTP server:
 * the banner after sign-up, the mailed link, the click that confirms, the banner gone.
 * SCREENSHOT_DIR=docs/screenshots saves the pages at laptop and phone width.
 */
const built = await readFile(join(defaultDashboardDir, 'index.html'), 'utf8').then(() => true, () => false);
const skip = browserSkip || (!built && process.env.CI !== 'true' ? 'build the dashboard: npm run build -w packages/dashboard' : false);

let t: TestApp;
let smtp: TestSmtp;
let browser: Browser;
let base: string;

async function shot(page: Page, name: string) {
  if (!process.env.SCREENSHOT_DIR) return;
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/${name}-${width}.png`, fullPage: true });
  }
}

describe('confirming the address in a browser', () => {
  before(async () => {
    if (skip) return;
    smtp = await startTestSmtp();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await startTestApp({ publicUrl: base, worker: true, mail: { smtpUrl: smtp.url, from: 'hello@shop.test', retryScheduleMs: [100] } });
    await t.app.listen({ port, host: '127.0.0.1' });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    await smtp?.stop();
  });

  it('shows the banner after sign-up, and the mailed link confirms the address with one click', { skip }, async () => {
    const page = await browser.newPage({ viewport: { width: 1366, height: 800 } });
    await page.goto(`${base}/dashboard/signup`);
    await page.getByLabel('Your name').fill('Ada Maker');
    await page.getByLabel('Email').fill('ada.maker@example.com');
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByLabel('Brand name').fill('Verify Studio');
    await page.getByRole('button', { name: /sign up|create/i }).click();
    await page.waitForURL((u) => !u.pathname.startsWith('/dashboard/signup'));
    const banner = page.getByRole('status').filter({ hasText: 'Confirm your email address.' });
    await banner.waitFor();
    assert.match(await banner.innerText(), /We sent a link to ada\.maker@example\.com/);
    await shot(page, 'dashboard-verify-email-banner');

    await page.getByRole('button', { name: 'Send a new link' }).click();
    await page.getByText(/less than a minute ago/).first().waitFor();

    const [mail] = await smtp.waitFor(1);
    assert.deepEqual(mail.envelope.to, ['ada.maker@example.com']);
    const link = /Confirm my address: (\S+)/.exec(mail.parsed.text ?? '')?.[1];
    assert.ok(link?.startsWith(`${base}/dashboard/verify-email?token=`), mail.parsed.text);

    const other = await browser.newPage({ viewport: { width: 1366, height: 800 } });
    await other.goto(link!);
    await other.getByRole('button', { name: 'Confirm my address' }).waitFor();
    await shot(other, 'dashboard-verify-email');
    await other.getByRole('button', { name: 'Confirm my address' }).click();
    await other.getByRole('heading', { name: 'Address confirmed', level: 1 }).waitFor();
    assert.match(await other.locator('main, body').first().innerText(), /ada\.maker@example\.com is confirmed/);

    await page.reload();
    await page.locator('main').waitFor();
    await page.getByText('Verify Studio').first().waitFor();
    assert.equal(await page.getByText('Confirm your email address.').count(), 0, 'the banner is gone');
  });
});
