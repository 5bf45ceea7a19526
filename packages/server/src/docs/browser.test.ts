import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { browserSkip, launchChromium } from '../testing/browser.ts';

/**
 * The reference page in a real headless Chromium, at laptop and phone width: it renders from our
 * origin only, under its CSP, with the SDK sample, the webhooks and the guides. Skipped without
 * Chromium, except in CI (CI=true). SCREENSHOT_DIR keeps screenshots for a person to look at.
 */
const skip = browserSkip;

let t: TestApp;
let browser: Browser;
let base: string;

/** Opens a path and records what the page did that it should not: console errors, CSP violations, other origins. */
async function open(path: string, viewport: { width: number; height: number }) {
  const page = await browser.newPage({ viewport });
  const problems: string[] = [];
  page.on('console', (m) => { if (m.type() === 'error' && !/favicon/.test(m.location().url)) problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('request', (r) => { if (!r.url().startsWith(base) && !r.url().startsWith('data:')) problems.push(`request to another origin: ${r.url()}`); });
  page.on('response', (r) => { if (r.status() >= 400 && !r.url().endsWith('/favicon.ico')) problems.push(`${r.status()} ${r.url()}`); });
  await page.goto(base + path, { waitUntil: 'networkidle' });
  return { page, problems };
}

async function shot(page: Page, name: string) {
  if (process.env.SCREENSHOT_DIR) await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/${name}.png`, fullPage: false });
}

describe('the reference page in a browser', { skip }, () => {
  before(async () => {
    t = await startTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it('renders every tag and operation at laptop width, from our origin only, under the CSP', async () => {
    const { page, problems } = await open('/docs', { width: 1366, height: 850 });
    await page.getByText('Check a key').first().waitFor();
    const text = await page.evaluate(() => document.body.innerText);
    for (const tag of ['Account', 'Products', 'Hub members', 'Checkout', 'Transactions', 'Imports', 'Webhooks', 'Events']) assert.ok(text.includes(tag), tag);
    await shot(page, 'docs-laptop');
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('shows an operation with its SDK sample, and the webhooks section', async () => {
    const { page, problems } = await open('/docs#tag/checkout/POST/payment-links', { width: 1366, height: 850 });
    await page.getByText('Create a payment link').first().waitFor();
    await page.waitForFunction(() => document.body.innerText.includes('paymentLinks'), undefined, { timeout: 10_000 });
    await shot(page, 'docs-operation');
    await page.getByText('Webhooks', { exact: true }).first().click();
    await page.getByText('member.joined').first().waitFor();
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('renders an operation\'s request and response examples and the error envelope', async () => {
    const { page, problems } = await open('/docs#tag/products/GET/products/{id}', { width: 1366, height: 850 });
    await page.getByText('Get a product').first().waitFor();
    // The made-up product of the success example (docs/examples.ts), shown as the response sample.
    await page.waitForFunction(() => document.body.innerText.includes('Eight short lessons on brush pens'), undefined, { timeout: 15_000 });
    await shot(page, 'docs-examples-1366');
    await page.getByRole('tab', { name: '404' }).first().click();
    await page.waitForFunction(() => document.body.innerText.includes('"not_found"') && document.body.innerText.includes('"requestId"'), undefined, { timeout: 10_000 });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('heading', { name: 'Get a product' }).first().scrollIntoViewIfNeeded();
    await shot(page, 'docs-examples-390');
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('fits a phone', async () => {
    const { page, problems } = await open('/docs', { width: 390, height: 844 });
    await page.getByText('Creator commerce API').first().waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 1, `no sideways scrolling (${overflow}px too wide)`);
    await shot(page, 'docs-phone');
    // The guide with the widest tables and code fits too.
    await page.goto(`${base}/docs/guides/webhooks`);
    await page.getByText('← API reference').first().waitFor();
    await page.getByText('Retries').first().waitFor();
    const guideOverflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(guideOverflow <= 1, `the webhooks guide does not scroll sideways (${guideOverflow}px too wide)`);
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('renders a guide, linked back to the reference', async () => {
    const { page, problems } = await open('/docs/guides/webhooks', { width: 1366, height: 850 });
    await page.getByText('← API reference').first().waitFor();
    assert.ok((await page.evaluate(() => document.body.innerText)).includes('Retries'));
    await shot(page, 'docs-guide');
    assert.deepEqual(problems, []);
    await page.close();
  });
});
