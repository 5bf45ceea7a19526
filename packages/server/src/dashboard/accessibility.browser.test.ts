import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { browserSkip, launchChromium } from '../testing/browser.ts';
import { freePort } from '../testing/processes.ts';
import { defaultDashboardDir } from './static.ts';

/**
 * axe-core on every main page of the dashboard, in a real Chromium against a real server on an
 * ephemeral port: no violation of `serious` or `critical` impact (missing labels, too little
 * contrast, wrong roles). Needs the dashboard build (`npm run build -w packages/dashboard`, which
 * `npm ci` runs); skips without it or without Chromium, except in CI. SCREENSHOT_DIR=… keeps the
 * Settings page at laptop and phone width.
 */
const built = existsSync(join(defaultDashboardDir, 'index.html'));
const skip = browserSkip
  || (!built && process.env.CI !== 'true' ? 'build the dashboard: npm run build -w packages/dashboard (npm ci does it)' : false);
const shotDir = process.env.SCREENSHOT_DIR;

let t: TestApp;
let browser: Browser;
let base: string;

/** The serious and critical violations on the page as it stands, one readable line each. */
async function seriousViolations(page: Page, name: string): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${name}: ${v.id} (${v.impact}) ${v.help}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
}

/** Opens a dashboard path and waits until its heading shows and nothing is loading. */
async function visit(page: Page, path: string, heading: string | RegExp) {
  await page.goto(`${base}/dashboard${path}`);
  await page.getByRole('heading', { name: heading }).first().waitFor();
  await page.getByText('Loading…').first().waitFor({ state: 'detached', timeout: 10_000 }).catch(() => {});
}

describe('dashboard accessibility (axe-core)', { skip }, () => {
  before(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await startTestApp({ publicUrl: base });
    await t.app.listen({ port, host: '127.0.0.1' });
    browser = await launchChromium();
    if (shotDir) await mkdir(shotDir, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it('finds no serious or critical violation on the main pages', async () => {
    // axe opens a page of its own in the context, which pages from browser.newPage() cannot do.
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    const found: string[] = [];

    await page.goto(`${base}/dashboard/signin`);
    await page.getByRole('button', { name: /sign in/i }).waitFor();
    found.push(...await seriousViolations(page, 'sign in'));
    await page.goto(`${base}/dashboard/signup`);
    await page.getByRole('button', { name: 'Create account' }).waitFor();
    found.push(...await seriousViolations(page, 'sign up'));

    await page.getByLabel('Your name').fill('Ada Owner');
    await page.getByLabel('Email').fill('ada.axe@example.com');
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByLabel('Brand name').fill('Axe Studio');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByTestId('test-mode-band').waitFor();
    await page.getByText('Loading…').first().waitFor({ state: 'detached', timeout: 10_000 }).catch(() => {});
    found.push(...await seriousViolations(page, 'home'));

    // A product, made through its editor, so the list and the editor have something to show.
    await visit(page, '/catalog/products/new', /new product/i);
    found.push(...await seriousViolations(page, 'new product'));
    await page.getByLabel('Title').fill('Watercolour basics');
    await page.getByLabel('Tier name').first().fill('Standard');
    await page.locator('#tier-0-price').fill('49.5');
    await page.getByRole('button', { name: 'Create product' }).click();
    await page.waitForURL(/\/dashboard\/catalog\/products\/prod_/);
    await page.getByRole('heading', { name: 'Watercolour basics' }).waitFor();
    found.push(...await seriousViolations(page, 'product editor'));

    const pages: [string, string, string | RegExp][] = [
      ['products', '/catalog/products', 'Products'],
      ['discounts', '/catalog/discounts', 'Discounts'],
      ['new coupon', '/catalog/discounts/new', 'New coupon'],
      ['people', '/people', 'Customers'],
      ['subscriptions', '/people/subscriptions', 'Subscriptions'],
      ['people by product', '/people/by-product', 'Customers and members'],
      ['money', '/money', 'Transactions'],
      ['bookings', '/bookings', 'Upcoming bookings'],
      ['API keys', '/developers/api-keys', 'API keys'],
      ['webhooks', '/developers/webhooks', 'Webhooks'],
      ['events', '/developers/events', 'Events'],
      ['apps', '/developers/apps', 'Connected apps'],
      ['team', '/team', 'Team'],
      ['settings', '/settings', 'Settings'],
    ];
    for (const [name, path, heading] of pages) {
      await visit(page, path, heading);
      found.push(...await seriousViolations(page, name));
    }

    // Settings shows the plan (a new brand is on Free) and the command that moves it to Plus.
    assert.equal(await page.getByTestId('plan').textContent(), 'free');
    await page.getByText(/npm run cli -- brand plan \S+ --plan plus/).waitFor();
    if (shotDir) {
      for (const width of [1366, 390]) {
        await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
        await page.screenshot({ path: join(shotDir, `settings-${width}.png`), fullPage: true });
      }
    }

    assert.deepEqual(found, [], `axe found:\n${found.join('\n')}`);
  });
});
