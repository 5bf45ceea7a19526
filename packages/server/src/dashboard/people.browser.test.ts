import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import type { TestApp } from '../testing/app.ts';
import { buyPlan, buyProduct, recurringBrand } from '../testing/subscriptions.ts';
import { addUserToBrand } from '../users/service.ts';
import { axeFindings, dashboardSkip, fitsAndShoot, startBrowserApp } from '../testing/dashboard-browser.ts';

/**
 * People → Customers and Subscriptions (issue 26), in a real Chromium against a real server:
 * search a customer, open their page (lifetime value per currency, subscriptions, memberships,
 * transactions) and follow a transaction to its order page; filter subscriptions by status and
 * resume a cancelling one. Every page fits 390 px with its actions on screen, and axe finds no
 * moderate or worse violation. SCREENSHOT_DIR=… keeps them at 1366 and 390 px.
 */
const skip = dashboardSkip;

let t: TestApp;
let browser: Browser;
let base: string;

describe('customers and subscriptions in the dashboard', { skip }, () => {
  before(async () => {
    ({ t, browser, base } = await startBrowserApp());
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it('searches customers, opens one, follows a transaction, and filters and resumes subscriptions', async () => {
    const b = await recurringBrand(t);
    await t.db.transaction((tx) => addUserToBrand(tx, { brandId: b.brandId, email: 'people@example.com', name: 'Owner', password: 'correct horse battery', role: 'owner' }));
    await buyProduct(t, b, 'usd');
    await buyProduct(t, b, 'jpy');
    const monthly = await buyPlan(t, b, 'monthly');
    const yearly = await buyPlan(t, b, 'yearly');
    const cancel = await t.request({ method: 'POST', url: `/api/v1/memberships/${yearly.membershipId}/cancel`, key: b.key, payload: { atPeriodEnd: true } });
    assert.equal(cancel.statusCode, 200, cancel.body);
    const grace = (await t.request({ method: 'GET', url: '/api/v1/customers?q=grace', key: b.key })).json().data.items[0];
    assert.deepEqual(grace.lifetimeValue.map((v: any) => [v.currency, v.amount]), [['JPY', 1000], ['USD', 10]]);
    const [graceTxn] = (await t.request({ method: 'GET', url: '/api/v1/transactions?q=grace@example.com&limit=1', key: b.key })).json().data.items;

    const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, acceptDownloads: true });
    const page = await context.newPage();
    await page.goto(`${base}/dashboard/signin`);
    await page.getByLabel('Email').fill('people@example.com');
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: /sign in/i }).click();
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();

    await page.goto(`${base}/dashboard/people`);
    await page.getByRole('heading', { name: 'Customers', level: 1 }).waitFor();
    const table = page.getByRole('table', { name: 'Customers' });
    await table.getByRole('link', { name: 'Grace Hopper' }).waitFor();
    assert.equal(await table.getByRole('row').count(), 4, 'a header and three people');
    assert.equal(await page.title(), 'Customers · Dashboard');
    await page.getByLabel('Search').fill('GRACE');
    await table.getByRole('row').nth(2).waitFor({ state: 'detached' });
    assert.match(page.url(), /q=GRACE/, 'the search is in the address');
    assert.deepEqual(await axeFindings(page), []);
    // The export is the filtered list, every page of it, with lifetime value per currency in one cell.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const csv = (await readFile((await download.path())!, 'utf8')).replace(/^\uFEFF/, '').trim().split('\r\n');
    assert.equal(csv.length, 2, 'a header and Grace');
    assert.match(csv[0], /^id,name,email,status,firstSeenAt,lastActivityAt,lifetimeValue,/);
    assert.match(csv[1], new RegExp(`^${grace.id},Grace Hopper,grace@example.com,active,.*,1000 JPY; 10 USD,2,2,0,$`));
    await fitsAndShoot(page, 'dashboard-customers', { actionsInView: true });

    await table.getByRole('link', { name: 'Grace Hopper' }).click();
    await page.getByRole('heading', { name: 'Grace Hopper', level: 1 }).waitFor();
    assert.equal(await page.title(), 'Grace Hopper · Dashboard');
    const fmt = (n: number, c: string) => page.evaluate(([x, cur]) => new Intl.NumberFormat(undefined, { style: 'currency', currency: cur as string, currencyDisplay: 'code' }).format(x as number), [n, c] as const);
    assert.equal(await page.getByTestId('lifetime-value').textContent(), `${await fmt(1000, 'JPY')} · ${await fmt(10, 'USD')}`);
    await page.getByRole('list', { name: 'Memberships' }).getByText('USD guide').waitFor();
    await page.getByRole('list', { name: 'Transactions' }).getByRole('link', { name: graceTxn.txref }).waitFor();
    assert.deepEqual(await axeFindings(page), []);
    await fitsAndShoot(page, 'dashboard-customer', { actionsInView: true });
    await page.getByRole('link', { name: graceTxn.txref }).click();
    await page.getByRole('heading', { name: new RegExp(`from Grace Hopper`) }).waitFor();
    assert.match(page.url(), new RegExp(`/money/transactions/${graceTxn.txref}$`));

    await page.goto(`${base}/dashboard/people/subscriptions`);
    await page.getByRole('heading', { name: 'Subscriptions', level: 1 }).waitFor();
    const subs = page.getByRole('table', { name: 'Subscriptions' });
    await subs.getByText(monthly.email).waitFor();
    await subs.getByText(yearly.email).waitFor();
    await page.getByTestId('mrr-total').getByText(/Monthly recurring revenue: .*5\.00/).waitFor();
    await page.getByLabel('Status').selectOption('cancelling');
    await subs.getByText(monthly.email).waitFor({ state: 'detached' });
    await subs.getByText(yearly.email).waitFor();
    assert.match(page.url(), /status=cancelling/);
    assert.deepEqual(await axeFindings(page), []);
    await page.getByLabel('Status').selectOption('');
    await subs.getByText(monthly.email).waitFor();
    await fitsAndShoot(page, 'dashboard-subscriptions', { actionsInView: true });
    await page.getByLabel('Status').selectOption('cancelling');
    await subs.getByText(monthly.email).waitFor({ state: 'detached' });
    await subs.getByRole('button', { name: /^Resume/ }).click();
    await page.getByText('No cancelling subscriptions').waitFor();
    await page.getByLabel('Status').selectOption('active');
    await subs.getByText(yearly.email).waitFor();
    // The yearly plan renews again: 100 a year is 8.33 a month, beside the monthly plan's 5.
    await page.getByTestId('mrr-total').getByText(/13\.33/).waitFor();

    // Opening a subscription's customer goes to their page, with the subscription's Cancel there too.
    await subs.getByRole('link', { name: 'Ada Lovelace' }).first().click();
    await page.getByRole('list', { name: 'Subscriptions' }).getByRole('button', { name: /^Cancel/ }).waitFor();
    await context.close();
  });
});

