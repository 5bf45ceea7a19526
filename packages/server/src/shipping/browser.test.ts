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
import { registerEndpoint, startReceiver } from '../testing/receiver.ts';
import { addUserToBrand } from '../users/service.ts';
import { createBook } from '../testing/shipping.ts';

/**
 * Physical goods in a real Chromium (docs/shipping.md): a buyer on a phone-sized page chooses
 * delivery, types an address (a wrong postal code comes back beside its field), and pays with
 * the sandbox card; the creator finds the order in the dashboard's queue, prints its packing slip
 * and marks it shipped; a real webhook receiver gets order.shipped. SCREENSHOT_DIR=… saves the
 * checkout, the queue and the packing slip at 1366 and 390 px wide.
 */
const built = await readFile(join(defaultDashboardDir, 'index.html'), 'utf8').then(() => true, () => false);
const skip = browserSkip || (!built && process.env.CI !== 'true' ? 'build the dashboard: npm run build -w packages/dashboard' : false);
const shotDir = process.env.SCREENSHOT_DIR;

let t: TestApp;
let browser: Browser;
let base: string;

async function shots(page: Page, name: string) {
  const size = page.viewportSize();
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.waitForTimeout(150);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 1, `${name} at ${width}px scrolls sideways by ${overflow}px`);
    if (shotDir) await page.screenshot({ path: join(shotDir, `${name}-${width}.png`), fullPage: true });
  }
  if (size) await page.setViewportSize(size);
}

describe('physical goods in the browser', () => {
  before(async () => {
    if (skip) return;
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await startTestApp({ publicUrl: base, worker: true });
    await t.app.listen({ port, host: '127.0.0.1' });
    browser = await launchChromium();
    if (shotDir) await mkdir(shotDir, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it('a buyer enters an address on a phone and pays; the creator ships it from the queue; the receiver gets order.shipped', { skip }, async () => {
    const { brand, testKey } = await createBrandWithCatalog(t.db);
    await t.db.transaction((tx) => addUserToBrand(tx, { brandId: brand.id, email: 'owner@example.com', name: 'Owner', password: 'correct horse battery', role: 'owner' }));
    const rx = await startReceiver();
    try {
      rx.secret = (await registerEndpoint(t, testKey, rx.url, ['order.shipped'])).signingSecret;
      const book = await createBook(t, testKey);
      const made = await t.request({ method: 'POST', url: '/api/v1/checkout-links', key: testKey, payload: { items: [{ id: book.id, plan: book.tier }] } });
      assert.equal(made.statusCode, 200, made.body);

      const buyer = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, locale: 'en-US' });
      await buyer.goto(made.json().data.url);
      await buyer.getByRole('group', { name: 'Delivery or pickup' }).waitFor();
      await shots(buyer, 'checkout-shipping');
      await buyer.getByLabel('Full name').fill('Ada Lovelace');
      await buyer.getByLabel('Email', { exact: true }).fill('ada@example.com');
      await buyer.getByLabel(/Delivery: United States/).check();
      await buyer.getByLabel('Address line 1').fill('1 Market St');
      await buyer.getByLabel('Town or city').fill('San Francisco');
      await buyer.getByLabel(/State, county or province/).fill('CA');
      await buyer.getByLabel('Postal code').fill('9410');
      await buyer.getByLabel('Country', { exact: true }).selectOption('US');
      // The country code (filled from the browser's locale) is emptied: the delivery address's country stands in for it.
      await buyer.getByLabel('Country code').fill('');
      assert.match(await buyer.locator('#total-hint').innerText(), /plus delivery if you choose it/);
      await buyer.getByRole('button', { name: 'Continue to payment' }).click();
      const zipError = buyer.locator('#address_postalCode-error');
      await zipError.waitFor();
      assert.match(await zipError.innerText(), /"9410" is not a postal code of United States/);
      assert.equal(await buyer.getByLabel('Postal code').getAttribute('aria-invalid'), 'true');
      assert.equal(await buyer.getByLabel('Address line 1').inputValue(), '1 Market St', 'what was typed is kept');
      await shots(buyer, 'checkout-shipping-error');
      await buyer.getByLabel('Postal code').fill('94105');
      await buyer.getByRole('button', { name: 'Continue to payment' }).click();

      await buyer.getByLabel('Card number').waitFor();
      assert.ok(await buyer.getByText('Delivery: United States').first().isVisible(), 'the delivery line is on the order');
      assert.ok(await buyer.getByText('25.00 USD').first().isVisible());
      await buyer.getByLabel('Card number').fill(cards.ok);
      await buyer.getByRole('button', { name: 'Pay' }).click();
      await buyer.waitForURL(/\/result\?txref=/);
      const txref = new URL(buyer.url()).searchParams.get('txref')!;
      await buyer.close();
      const [link] = await t.db.query<{ extras: Record<string, unknown> }>('SELECT extras FROM payment_links WHERE brand_id = $1 AND transaction_id IS NOT NULL', [brand.id]);
      assert.equal(link.extras.countryCode, 'US', "the address's country is the buyer's country code");

      const page = await browser.newPage({ viewport: { width: 1366, height: 900 }, locale: 'en-US' });
      await page.goto(`${base}/dashboard/signin`);
      await page.getByLabel('Email').fill('owner@example.com');
      await page.getByLabel('Password').fill('correct horse battery');
      await page.getByRole('button', { name: /sign in/i }).click();
      await page.waitForURL((u) => !u.pathname.startsWith('/dashboard/signin'));
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Orders' }).click();
      await page.waitForURL(/\/dashboard\/orders$/);
      const row = page.getByRole('row', { name: /Ada Lovelace/ });
      await row.waitFor();
      assert.match(await row.innerText(), /Delivery: United States[\s\S]*1 Market St[\s\S]*San Francisco CA 94105[\s\S]*United States/);
      await shots(page, 'dashboard-orders');

      await row.getByRole('link', { name: 'Packing slip' }).click();
      await page.waitForURL(/\/packing-slip$/);
      const slip = page.getByRole('article', { name: 'Packing slip' });
      await slip.waitFor();
      assert.match(await slip.innerText(), new RegExp(`Order ${txref}[\\s\\S]*Ship to[\\s\\S]*Ada Lovelace[\\s\\S]*1 Market St[\\s\\S]*Printed sketchbook`, 'i'));
      await shots(page, 'dashboard-packing-slip');
      await page.emulateMedia({ media: 'print' });
      assert.equal(await page.getByRole('navigation', { name: 'Main' }).isVisible(), false, 'printing shows the slip alone');
      assert.equal(await page.getByRole('button', { name: 'Print packing slip' }).isVisible(), false);
      if (shotDir) await page.screenshot({ path: join(shotDir, 'dashboard-packing-slip-print.png'), fullPage: true });
      await page.emulateMedia({ media: 'screen' });

      await page.getByRole('link', { name: 'Back to orders' }).click();
      await page.getByRole('row', { name: /Ada Lovelace/ }).getByRole('button', { name: 'Mark shipped' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Carrier').fill('USPS');
      await dialog.getByLabel('Tracking number').fill('9400111899223197428490');
      await dialog.getByRole('button', { name: 'Mark shipped' }).click();
      await page.getByText('Order of Ada Lovelace marked shipped').first().waitFor();
      await page.getByRole('row', { name: /Ada Lovelace/ }).waitFor({ state: 'detached' });
      await page.getByText('Nothing to ship').waitFor();

      // The product editor's Shipping section: the zones as saved, and a wrong country named beside its input.
      await page.goto(`${base}/dashboard/catalog/products/${book.id}`);
      const countries = page.getByLabel('Countries (ISO codes, comma separated)').first();
      await countries.waitFor();
      assert.equal(await countries.inputValue(), 'US');
      assert.equal(await page.getByLabel('Price per currency').first().inputValue(), '5 USD, 4 GBP');
      await countries.fill('US, XX');
      await page.getByRole('button', { name: /save/i }).click();
      await page.getByText('"XX" is not an ISO 3166-1 alpha-2 country code').first().waitFor();
      assert.equal(await countries.getAttribute('aria-invalid'), 'true');
      await shots(page, 'dashboard-product-shipping');

      const [d] = await rx.waitFor(1);
      assert.ok(d.verified);
      assert.equal(d.json.type, 'order.shipped');
      assert.equal(d.json.data.txref, txref);
      assert.equal(d.json.data.fulfilment.carrier, 'USPS');
      await page.close();
    } finally {
      await rx.close();
    }
  });
});
