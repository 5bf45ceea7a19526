import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { defaultDashboardDir } from '../dashboard/static.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { browserSkip, launchChromium } from '../testing/browser.ts';
import { cards } from '../testing/checkout-fixtures.ts';
import { createBrandWithCatalog } from '../testing/factories.ts';
import { freePort } from '../testing/processes.ts';
import { addUserToBrand } from '../users/service.ts';
import { callAvailability, createCall } from '../testing/bookings.ts';

/**
 * In a real Chromium: a creator makes a checkout link to measure in the dashboard (two tiers, an
 * add-on ticked in advance, a price range); a buyer on a phone picks a slot of a coaching call on
 * the web checkout and pays, and the next buyer no longer sees that slot; the success and decline
 * pages. Needs the dashboard build and Chromium. SCREENSHOT_DIR=… saves each page at 1366 and 390 px.
 */
const built = await readFile(join(defaultDashboardDir, 'index.html'), 'utf8').then(() => true, () => false);
const skip = browserSkip || (!built && process.env.CI !== 'true' ? 'build the dashboard: npm run build -w packages/dashboard' : false);
const shotDir = process.env.SCREENSHOT_DIR;

let t: TestApp;
let browser: Browser;
let base: string;
let shop: Awaited<ReturnType<typeof createBrandWithCatalog>>;

async function shots(page: Page, name: string, widths = [1366, 390]) {
  for (const width of widths) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.waitForTimeout(150);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 1, `${name} at ${width}px scrolls sideways by ${overflow}px`);
    if (shotDir) await page.screenshot({ path: join(shotDir, `${name}-${width}.png`), fullPage: true });
  }
}

describe('checkout links and the slot picker in a browser', () => {
  before(async () => {
    if (skip) return;
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await startTestApp({ publicUrl: base });
    await t.app.listen({ port, host: '127.0.0.1' });
    browser = await launchChromium();
    if (shotDir) await mkdir(shotDir, { recursive: true });
    shop = await createBrandWithCatalog(t.db);
    await t.request({ method: 'PATCH', url: '/api/v1/brand', key: shop.testKey, payload: { supportEmail: 'hello@inkwell.example', accentColor: '#6b21a8' } });
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it('makes a link with two tiers, a preselected add-on and a price range in the dashboard; the buyer sees them', { skip }, async () => {
    await t.db.transaction((tx) => addUserToBrand(tx, { brandId: shop.brand.id, email: 'owner@example.com', name: 'Owner', password: 'correct horse battery', role: 'owner' }));
    const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    await page.goto(`${base}/dashboard/signin`);
    await page.getByLabel('Email').fill('owner@example.com');
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: /sign in/i }).click();
    await page.waitForURL((u) => !u.pathname.startsWith('/dashboard/signin'));
    await page.goto(`${base}/dashboard/catalog/products/${shop.ids['brush-course']}`);
    await page.getByRole('tab', { name: 'Share' }).click();
    await page.getByRole('button', { name: 'New checkout link…' }).click();
    const form = page.getByRole('form', { name: 'New checkout link' });
    await form.getByLabel(/^Pay what you want/).check();
    await form.getByLabel('Lowest price').fill('10');
    await form.getByLabel(/^Brush kit/).check();
    await form.getByRole('button', { name: 'Create checkout link' }).click();
    // The API refuses a lowest price under the tier's own, beside the input.
    await form.locator('[data-field-error]', { hasText: 'may not be below the tier\'s price of 20.00 USD' }).waitFor();
    await shots(page, 'dashboard-checkout-link-editor');
    await page.setViewportSize({ width: 1366, height: 900 });
    await form.getByLabel('Lowest price').fill('25');
    await form.getByLabel('Highest price').fill('100');
    await form.getByLabel('Label (optional)').fill('Newsletter');
    await form.getByRole('button', { name: 'Create checkout link' }).click();
    const url = page.getByTestId('share-url').filter({ hasText: '/buy/' }).last();
    await page.getByText('Checkout link: Newsletter (2 tiers)').waitFor();
    const link = (await url.textContent())!;

    const buyer = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await buyer.goto(link);
    assert.ok(await buyer.getByLabel(/Brush kit/).isChecked(), 'the add-on is ticked');
    await buyer.getByLabel(/Pay what you want/).check();
    await buyer.getByRole('button', { name: 'Update order' }).click();
    await buyer.getByText('From 25.00 to 100.00 USD.').waitFor();
    await buyer.close();
    await page.close();
  });

  it('a buyer on a phone picks a slot and pays; the next buyer no longer sees it; success and decline pages say what happens next', { skip }, async () => {
    await t.request({ method: 'POST', url: '/api/v1/test-clock/advance', key: shop.testKey, payload: { to: '2027-06-07T07:00:00.000Z' } });
    const call = await createCall(t, shop.testKey, callAvailability({ timezone: 'Europe/London' }));
    await t.request({ method: 'PATCH', url: `/api/v1/products/${call.id}`, key: shop.testKey, payload: { status: 'published' } });
    const made = await t.request({ method: 'POST', url: '/api/v1/checkout-links', key: shop.testKey, payload: { items: [{ id: call.id, plan: call.tier }] } });
    const link = made.json().data.url as string;

    const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await phone.goto(link);
    await phone.getByLabel('Full name').fill('Ada Lovelace');
    await phone.getByLabel('Email', { exact: true }).fill('ada@example.com');
    await phone.getByLabel('Your time zone').selectOption('America/New_York');
    await phone.getByLabel('Day', { exact: true }).selectOption({ label: 'Wednesday 9 June' });
    await phone.getByRole('button', { name: 'Show times' }).click();
    await phone.getByText('Open times on Wednesday 9 June').waitFor();
    assert.ok(await phone.getByText('Times are shown in America/New York').isVisible());
    assert.equal(await phone.getByLabel('Full name').inputValue(), 'Ada Lovelace', 'what was typed is kept');
    await phone.getByLabel('04:00 to 04:30').check();
    await shots(phone, 'checkout-slot-picker', [390]);
    await phone.getByRole('button', { name: 'Continue to payment' }).click();
    await phone.getByRole('button', { name: 'Pay 40.00 USD' }).waitFor();
    await phone.getByLabel(/card number/i).fill(cards.declined);
    await phone.getByRole('button', { name: 'Pay 40.00 USD' }).click();
    await phone.getByText('What you can do').waitFor();
    await shots(phone, 'checkout-declined');
    await phone.getByLabel(/card number/i).fill(cards.ok);
    await phone.getByRole('button', { name: 'Pay 40.00 USD' }).click();
    await phone.getByRole('heading', { name: 'Payment successful' }).waitFor();
    assert.ok(await phone.getByText('Your session is booked for Wednesday, 9 June 2027 at 04:00 GMT-4').isVisible());
    assert.ok(await phone.getByText('A receipt was emailed to ada@example.com.').isVisible());
    assert.ok(await phone.getByRole('link', { name: 'Go to your purchases' }).isVisible());
    await shots(phone, 'checkout-success');

    const next = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await next.goto(link);
    await next.getByLabel('Day', { exact: true }).selectOption({ label: 'Wednesday 9 June' });
    await next.getByRole('button', { name: 'Show times' }).click();
    await next.getByText('Open times on Wednesday 9 June').waitFor();
    assert.equal(await next.getByLabel('09:00 to 09:30').count(), 0, 'the slot paid for is gone');
    assert.equal(await next.getByLabel('09:30 to 10:00').count(), 1, 'the next one is still open');
    await next.close();
    await phone.close();
  });
});
