import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { TestApp } from '../testing/app.ts';
import { createKey } from '../testing/factories.ts';
import { axeFindings, dashboardSkip, fitsAndShoot, startBrowserApp } from '../testing/dashboard-browser.ts';

/**
 * The catalog editors as a creator meets them (issue 26, item 5), in a real Chromium against a
 * real server: the API's refusals read as sentences beside their fields, the currency is picked
 * from the ISO 4217 list, the product type decides which fields show, archiving is a button, and
 * a toast says its words once. axe finds nothing serious, critical or moderate on the refused
 * form. Needs the dashboard build; skips without it or without Chromium, except in CI.
 * SCREENSHOT_DIR=… saves the pages at 1366 and 390 px.
 */
const skip = dashboardSkip;

const onePixelPng = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

let t: TestApp;
let browser: Browser;
let base: string;

async function signUp(page: Page, email: string) {
  await page.goto(`${base}/dashboard/signup`);
  await page.getByLabel('Your name').fill('Ada Maker');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByLabel('Brand name').fill('Ada Studio');
  await page.getByRole('button', { name: /sign up|create/i }).click();
  await page.waitForURL((u) => !u.pathname.startsWith('/dashboard/signup'));
}

async function pick(page: Page, label: string, option: string | RegExp) {
  await page.getByLabel(label, { exact: true }).click();
  await page.getByRole('option', { name: option }).click();
}

/** The serious, critical and moderate axe findings, one line each. */
describe('dashboard catalog editors in plain words', { skip }, () => {
  before(async () => {
    ({ t, browser, base } = await startBrowserApp());
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it('puts the refusals in words beside their fields, shows the chosen type\'s fields, archives with a button', async () => {
    // axe opens a page of its own in the context, which pages from browser.newPage() cannot do.
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    await signUp(page, 'ada.editors@example.com');
    await page.goto(`${base}/dashboard/catalog/products/new`);
    await page.getByRole('heading', { name: 'New product' }).waitFor();

    // A digital download: no event card, no tickets, no durations.
    assert.equal(await page.getByLabel('Starts').count(), 0);
    assert.equal(await page.getByLabel('Tickets per purchase').count(), 0);
    await page.getByRole('button', { name: 'Add file' }).click();
    assert.equal(await page.getByLabel('Duration (minutes)').count(), 0);
    await page.getByRole('button', { name: 'Remove item 1' }).click();

    // Nothing typed, a negative price: the API refuses, and each refusal sits under its input in words.
    await page.locator('#tier-0-price').fill('-5');
    await page.getByRole('button', { name: 'Create product' }).click();
    await page.locator('#product-title-error').waitFor();
    assert.equal(await page.locator('#product-title-error').textContent(), 'Enter a title');
    assert.equal(await page.locator('#product-title').getAttribute('aria-invalid'), 'true');
    assert.equal(await page.locator('#tier-0-price-error').textContent(), 'The price must be 0 or more');
    assert.equal(await page.getByRole('alert').first().textContent(), '2 fields need a change: see the messages beside them.');
    const shown = await page.locator('[data-field-error], [role="alert"]').allTextContents();
    for (const text of shown) assert.doesNotMatch(text, /must NOT|>=|pattern|\[\d+\]|Invalid body/, `raw validator text on the page: ${text}`);
    assert.deepEqual(await axeFindings(page), []);
    await fitsAndShoot(page, 'dashboard-product-errors');

    // An event: date, place and tickets show; the currency comes from the ISO 4217 list.
    await pick(page, 'Type', 'Event');
    await page.getByLabel('Starts').waitFor();
    await page.locator('#tier-0-tickets').waitFor();
    await page.locator('#tier-0-currency').click();
    await page.getByRole('option', { name: /^EUR · / }).click();
    assert.match(await page.locator('#tier-0-currency').textContent() ?? '', /EUR/);
    await page.getByLabel('Title').fill('Ink night');
    await page.locator('#tier-0-price').fill('25');
    await page.getByRole('button', { name: 'Create product' }).click();
    // An event without its date: asked for in words beside the date.
    await page.locator('#event-start-error').waitFor();
    assert.equal(await page.locator('#event-start-error').textContent(), 'Enter a start date and time');
    await page.getByLabel('Starts').fill('2031-05-04T19:30');
    await pick(page, 'Where', /^In person$/);
    await page.getByLabel('Venue').fill('The Print Room, 4 Mill Lane');

    // A course instead: lessons with durations in minutes, no event card unless one was typed.
    await pick(page, 'Type', 'Course');
    await page.getByRole('button', { name: 'Add lesson' }).click();
    await page.getByLabel('Item title').fill('Holding the pen');
    await page.getByLabel('Duration (minutes)').fill('12.5');
    // The image lives on the creator's own host, outside the service: the browser is given one
    // there, and an address nothing answers at says so instead of showing a broken picture.
    await page.route('https://images.ada.example/**', (route) => route.fulfill({ contentType: 'image/png', body: onePixelPng }));
    await page.locator('#product-image').fill('https://nothing-here.invalid/ink.png');
    await page.getByText('No image could be loaded from this address').waitFor();
    await page.locator('#product-image').fill('https://images.ada.example/ink.png');
    await page.getByTestId('product-image-preview').waitFor();
    // The element is there before the picture has loaded: wait for the browser to have drawn it.
    await page.waitForFunction(() => (document.querySelector('[data-testid="product-image-preview"]') as HTMLImageElement | null)?.complete === true);
    assert.equal(await page.getByTestId('product-image-preview').evaluate((img: HTMLImageElement) => img.naturalWidth), 1);
    await pick(page, 'Type', 'Event');
    await page.getByRole('button', { name: 'Create product' }).click();
    await page.waitForURL(/\/dashboard\/catalog\/products\/prod_/);
    const productId = new URL(page.url()).pathname.split('/').at(-1)!;
    await page.getByRole('heading', { name: 'Ink night' }).waitFor();
    assert.equal(await page.getByText(productId).count(), 0, 'the product id is in no label');

    const brandId = await page.evaluate(async () => (await (await fetch('/dashboard/api/session')).json()).data.brand.id as string);
    const key = await createKey(t.db, brandId, { mode: 'test' });
    const read = async () => (await t.request({ method: 'GET', url: `/api/v1/products/${productId}`, key: key.key })).json().data;
    const saved = await read();
    assert.equal(saved.type, 'event');
    assert.equal(saved.tiers[0].price.currency, 'EUR');
    assert.equal(saved.items[0].duration, 750, '12.5 minutes are stored as seconds');
    assert.equal(saved.imageUrl, 'https://images.ada.example/ink.png');
    assert.equal(new Date(saved.event.dateTime).getFullYear(), 2031);
    await fitsAndShoot(page, 'dashboard-product-event');

    // Save shows one "Saved", and the toast keeps clear of the Save button.
    await page.locator('#product-title').fill('Ink night, spring');
    await page.getByRole('button', { name: 'Save changes' }).click();
    const toast = page.locator('li[data-state="open"]', { hasText: 'Saved' });
    await toast.waitFor();
    // Radix's toast copied the text into a hidden announcer as well ("Notification Saved").
    assert.equal(await page.evaluate(() => document.body.innerText.split('Saved').length - 1), 1, 'the toast says its words once');
    assert.equal(await page.getByRole('status').filter({ hasText: 'Saved' }).count(), 1, 'one live region reads it');

    // Archive is a button that asks first; Restore brings it back as a draft.
    await page.getByRole('button', { name: 'Archive', exact: true }).click();
    await page.getByRole('button', { name: 'Archive product' }).click();
    await page.getByRole('button', { name: 'Restore' }).waitFor();
    assert.equal((await read()).status, 'archived');
    await page.getByRole('button', { name: 'Restore' }).click();
    await page.getByRole('button', { name: 'Archive', exact: true }).waitFor();
    assert.equal((await read()).status, 'draft');
    await context.close();
  });

  it('words the coupon and hub editors\' refusals too, with the currency from the list', async () => {
    const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    await signUp(page, 'ada.coupons@example.com');
    await page.goto(`${base}/dashboard/catalog/discounts/new`);
    await page.locator('#coupon-code').waitFor();
    await page.getByRole('button', { name: /create/i }).click();
    await page.locator('#coupon-code-error').waitFor();
    assert.equal(await page.locator('#coupon-code-error').textContent(), 'The code needs at least 2 characters');
    await pick(page, 'Type', 'Fixed amount off');
    await pick(page, 'Currency', /^JPY · /);
    assert.match(await page.locator('#coupon-amount-0-currency').textContent() ?? '', /JPY/);

    await page.goto(`${base}/dashboard/catalog/hubs/new`);
    await page.locator('#hub-name').waitFor();
    await page.locator('#tier-0-name').fill('');
    await page.getByRole('button', { name: /create/i }).click();
    await page.locator('#hub-name-error').waitFor();
    assert.equal(await page.locator('#hub-name-error').textContent(), 'Enter a name');
    assert.equal(await page.locator('#tier-0-name-error').textContent(), 'Enter a name');
    await fitsAndShoot(page, 'dashboard-hub-errors');
    await page.close();
  });
});
