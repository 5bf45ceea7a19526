import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { browserSkip, launchChromium } from '../testing/browser.ts';
import { createBrandWithCatalog, createKey, createMembership } from '../testing/factories.ts';
import { freePort } from '../testing/processes.ts';
import { addUserToBrand } from '../users/service.ts';
import { cards, courseBody, createLink, submitCard } from '../testing/checkout-fixtures.ts';
import { defaultDashboardDir } from './static.ts';

/**
 * The dashboard's catalog and people/money pages in a real Chromium against a real server on an
 * ephemeral port, signed in through the pages themselves. Needs the dashboard build
 * (packages/dashboard/dist, made by `npm ci` or `npm run build -w packages/dashboard`); skips
 * without it or without Chromium, except in CI. SCREENSHOT_DIR=… saves every page at laptop
 * (1366) and phone (390) width there.
 */
const built = await readFile(join(defaultDashboardDir, 'index.html'), 'utf8').then(() => true, () => false);
const skip = browserSkip || (!built && process.env.CI !== 'true' ? 'build the dashboard: npm run build -w packages/dashboard' : false);
const shotDir = process.env.SCREENSHOT_DIR;

let t: TestApp;
let browser: Browser;
let base: string;

/** Both widths, after the page has settled; a phone-width page must not scroll sideways. */
async function shots(page: Page, name: string) {
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.waitForTimeout(150);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 1, `${name} at ${width}px scrolls sideways by ${overflow}px`);
    if (shotDir) await page.screenshot({ path: join(shotDir, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

async function signUp(page: Page, email: string) {
  await page.goto(`${base}/dashboard/signup`);
  await page.getByLabel('Your name').fill('Ada Maker');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByLabel('Brand name').fill('Ada Studio');
  await page.getByRole('button', { name: /sign up|create/i }).click();
  await page.waitForURL((u) => !u.pathname.startsWith('/dashboard/signup'));
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto(`${base}/dashboard/signin`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: /sign in/i }).click();
  await page.waitForURL((u) => !u.pathname.startsWith('/dashboard/signin'));
}

/** The current session's brand, read as the SPA reads it. */
const sessionBrand = (page: Page) =>
  page.evaluate(async () => (await (await fetch('/dashboard/api/session')).json()).data.brand.id as string);

async function pick(page: Page, label: string, option: string | RegExp) {
  await page.getByLabel(label, { exact: true }).click();
  await page.getByRole('option', { name: option }).click();
}

describe('dashboard catalog and people pages in a browser', () => {
  before(async () => {
    if (skip) return;
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

  it('signs up, creates a product with two tiers and a checkout field, shows an API error beside its field, edits a tier, makes a payment link', { skip }, async () => {
    const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    await signUp(page, 'ada.maker@example.com');
    const brandId = await sessionBrand(page);

    await page.goto(`${base}/dashboard/catalog/products`);
    await page.getByText('No products yet').waitFor();
    await shots(page, 'catalog-products-empty');
    await page.getByRole('link', { name: 'New product' }).first().click();
    await page.getByLabel('Title').fill('Watercolour basics');
    await page.getByLabel('Description').fill('Six lessons, from paper to palette.');
    await page.getByLabel('Tier name').first().fill('Standard');
    await page.locator('#tier-0-price').fill('49.5');
    await page.getByRole('button', { name: 'Add tier' }).click();
    await page.locator('#tier-1-name').fill('Pro');
    await page.locator('#tier-1-price').fill('-5');
    await page.getByRole('button', { name: 'Add checkout field' }).click();
    await page.locator('#field-0-label').fill('Company name');
    assert.equal(await page.getByTestId('field-0-derived-id').textContent(), 'companyName', 'the id derived from the label shows as it is typed');
    await page.getByLabel('Required').check();
    await shots(page, 'catalog-product-new');
    await page.getByRole('button', { name: 'Create product' }).click();

    // The API's message for tiers[1].price.amount sits under that input, which is marked invalid.
    const priceError = page.locator('#tier-1-price-error');
    await priceError.waitFor();
    assert.match(await priceError.textContent() ?? '', /0|minimum|>=/);
    assert.equal(await page.locator('#tier-1-price').getAttribute('aria-invalid'), 'true');
    assert.equal(await page.locator('#tier-0-price').getAttribute('aria-invalid'), null);
    await shots(page, 'catalog-product-error');

    await page.locator('#tier-1-price').fill('99');
    await page.getByRole('button', { name: 'Create product' }).click();
    await page.waitForURL(/\/dashboard\/catalog\/products\/prod_/);
    const productId = new URL(page.url()).pathname.split('/').at(-1)!;
    await page.getByRole('heading', { name: 'Watercolour basics' }).waitFor();

    const key = await createKey(t.db, brandId, { mode: 'test' });
    const read = async () => (await t.request({ method: 'GET', url: `/api/v1/products/${productId}`, key: key.key })).json().data;
    const saved = await read();
    assert.deepEqual(saved.tiers.map((x: any) => [x.name, x.price.amount]), [['Standard', 49.5], ['Pro', 99]]);
    assert.deepEqual(saved.checkoutFields.map((f: any) => [f.id, f.label, f.type, f.required]), [['companyName', 'Company name', 'text', true]]);
    assert.equal(saved.description, 'Six lessons, from paper to palette.');
    // The form shows what was saved, read back from the API.
    assert.equal(await page.locator('#tier-1-name').inputValue(), 'Pro');
    await shots(page, 'catalog-product-edit');

    await page.locator('#tier-1-name').fill('Pro plus');
    await page.locator('#tier-1-perks').fill('Feedback on two paintings\nRecordings');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved', { exact: true }).first().waitFor();
    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      const save = (await page.getByRole('button', { name: 'Save changes' }).boundingBox())!;
      const toast = (await page.locator('li[data-state="open"]', { hasText: 'Saved' }).first().boundingBox())!;
      const overlaps = save.x < toast.x + toast.width && toast.x < save.x + save.width && save.y < toast.y + toast.height && toast.y < save.y + save.height;
      assert.equal(overlaps, false, `at ${width}px the Saved toast covers Save changes`);
    }
    await page.setViewportSize({ width: 1366, height: 900 });
    const edited = await read();
    assert.equal(edited.tiers[1].name, 'Pro plus');
    assert.deepEqual(edited.tiers[1].perks, ['Feedback on two paintings', 'Recordings']);
    assert.equal(edited.tiers[1].id, saved.tiers[1].id, 'the tier was edited in place, matched by id');
    await page.reload();
    assert.equal(await page.locator('#tier-1-name').inputValue(), 'Pro plus');

    await page.getByRole('tab', { name: 'Payment link' }).click();
    await pick(page, 'Tier', /Pro plus/);
    await page.getByLabel('Buyer name').fill('Grace Hopper');
    await page.getByLabel('Buyer email').fill('grace@example.com');
    await page.getByLabel('Company name').fill('Navy');
    await page.getByRole('button', { name: 'Make payment link' }).click();
    const link = page.locator('#made-link');
    await link.waitFor();
    const url = await link.inputValue();
    assert.match(url, new RegExp(`^${base}/checkout/`));
    await shots(page, 'catalog-product-link');
    // The link opens the hosted checkout for that tier.
    const checkout = await browser.newPage();
    await checkout.goto(url);
    assert.equal(await checkout.getByRole('heading', { level: 1 }).textContent(), 'Watercolour basics');
    await checkout.close();

    await page.goto(`${base}/dashboard/catalog/products`);
    await page.getByRole('link', { name: 'Watercolour basics' }).waitFor();
    await shots(page, 'catalog-products');
    await page.close();
  });

  it('shows a purchase made through the API as a customer and a transaction, filters, and exports CSV', { skip }, async () => {
    const { brand, ids, testKey } = await createBrandWithCatalog(t.db);
    await t.db.transaction((tx) => addUserToBrand(tx, { brandId: brand.id, email: 'owner@example.com', name: 'Owner', password: 'correct horse battery', role: 'owner' }));
    const { path } = await createLink(t, testKey, courseBody(ids, { form: { formData: { fullName: 'Ada, "the" Countess', email: 'ada@example.com', experienceLevel: 'Beginner' } } }));
    const paid = await submitCard(t, path, cards.ok);
    assert.ok(paid.statusCode < 400, paid.body);
    const [txn] = (await t.request({ method: 'GET', url: '/api/v1/transactions', key: testKey })).json().data.items;
    assert.equal(txn.status, 'succeeded');

    const page = await browser.newPage({ viewport: { width: 1366, height: 900 }, acceptDownloads: true });
    await signIn(page, 'owner@example.com', 'correct horse battery');

    await page.goto(`${base}/dashboard/people?product=${ids['brush-course']}`);
    await page.getByRole('cell', { name: 'ada@example.com' }).waitFor();
    await shots(page, 'people-customers');
    await page.getByLabel('Find by email').fill('nobody@example.com');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('No customers with the email nobody@example.com').waitFor();
    await page.getByLabel('Find by email').fill('ADA@example.com');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('cell', { name: 'ada@example.com' }).waitFor();
    await pick(page, 'Status', 'Cancelled');
    await page.getByText(/No customers with the email/).waitFor();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      (async () => {
        await page.getByRole('button', { name: 'Clear' }).click();
        await pick(page, 'Status', 'Active');
        await page.getByRole('cell', { name: 'ada@example.com' }).waitFor();
        await page.getByRole('button', { name: 'Export CSV' }).click();
      })(),
    ]);
    const csv = (await readFile(await download.path())).toString('utf8').replace(/^\uFEFF/, '');
    const [header, row] = csv.split('\r\n');
    assert.match(header, /^membershipId,name,email,/);
    assert.ok(row.includes('"Ada, ""the"" Countess",ada@example.com,'), row);

    await page.goto(`${base}/dashboard/money`);
    const txRow = page.getByRole('row', { name: new RegExp(txn.txref) });
    await txRow.waitFor();
    assert.match(await txRow.textContent() ?? '', /succeeded/);
    const events = txRow.getByRole('link', { name: 'Events and deliveries' });
    assert.equal(await events.getAttribute('href'), `/dashboard/developers/events?resourceID=${txn.txref}`);
    await shots(page, 'money-transactions');
    const [txCsv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const txText = (await readFile(await txCsv.path())).toString('utf8');
    assert.ok(txText.includes(`${txn.txref},purchase,succeeded,39.5,USD,"Ada, ""the"" Countess",ada@example.com`), txText);
    // The fee and what the creator nets go out with each payment, as the API shows them.
    const [head, line] = txText.replace(/^\uFEFF/, '').split('\r\n');
    // Counted from the end of the row: the quoted customer name before these holds a comma.
    const cell = (name: string) => {
      const columns = head!.split(','), parts = line!.split(',');
      return parts[parts.length - columns.length + columns.indexOf(name)];
    };
    assert.ok(txn.fee > 0, 'the payment has a fee');
    assert.deepEqual([Number(cell('fee')), Number(cell('net'))], [txn.fee, txn.net]);

    await page.goto(`${base}/dashboard/money/payouts`);
    await page.getByText('No payouts yet').waitFor();
    await shots(page, 'money-payouts');

    // A hub member, removed after a confirmation; the list keeps them as removed.
    const member = await createMembership(t.db, { brandId: brand.id, hubId: ids['studio-club'], name: 'Grace Hopper', email: 'grace@example.com', plan: ids['club-free'] });
    await page.goto(`${base}/dashboard/people?hub=${ids['studio-club']}`);
    const memberRow = page.getByRole('row', { name: /grace@example\.com/ });
    await memberRow.waitFor();
    await shots(page, 'people-members');
    for (const width of [1366, 1024]) {
      await page.setViewportSize({ width, height: 900 });
      const box = (await memberRow.getByRole('button', { name: 'Remove' }).boundingBox())!;
      assert.ok(box.x >= 0 && box.x + box.width <= width, `at ${width}px Remove is on screen (${Math.round(box.x)}–${Math.round(box.x + box.width)})`);
    }
    await page.setViewportSize({ width: 1366, height: 900 });
    await memberRow.getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remove member' }).click();
    await memberRow.getByText('removed', { exact: true }).waitFor();
    const removed = (await t.request({ method: 'GET', url: `/api/v1/hubs/${ids['studio-club']}/members/${member.id}`, key: testKey })).json().data;
    assert.equal(removed.status, 'removed');

    // A member paying monthly: cancel their subscription at the period end.
    const sub = await createLink(t, testKey, {
      items: [{ id: ids['studio-club'], plan: ids['club-pro'], type: 'membership' }],
      form: { formData: { fullName: 'Linus Pauling', email: 'linus@example.com' } },
    });
    assert.ok((await submitCard(t, sub.path, cards.ok)).statusCode < 400);
    await page.reload();
    const subRow = page.getByRole('row', { name: /linus@example\.com/ });
    await subRow.getByText(/renews/).waitFor();
    await subRow.getByRole('button', { name: 'Cancel subscription' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel at period end' }).click();
    await subRow.getByText(/ends /).waitFor();
    const linus = (await t.request({ method: 'GET', url: `/api/v1/hubs/${ids['studio-club']}/members?email=linus%40example.com`, key: testKey })).json().data.items[0];
    assert.equal(linus.status, 'active');
    assert.equal(linus.subscription.cancelAtPeriodEnd, true);

    await page.goto(`${base}/dashboard/catalog/hubs`);
    await page.getByRole('link', { name: 'Studio Club' }).click();
    await page.getByRole('heading', { name: 'Studio Club' }).waitFor();
    assert.equal(await page.locator('#hub-name').inputValue(), 'Studio Club');
    await shots(page, 'catalog-hub-edit');
    await page.goto(`${base}/dashboard/catalog/hubs`);
    await shots(page, 'catalog-hubs');
    await page.close();
  });
});
