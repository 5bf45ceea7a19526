import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { cards, courseBody, createLink, submitCard } from '../testing/checkout-fixtures.ts';
import type { TestApp } from '../testing/app.ts';
import { createBrandWithCatalog } from '../testing/factories.ts';
import { addUserToBrand } from '../users/service.ts';
import { axeFindings, dashboardSkip, fitsAndShoot, startBrowserApp } from '../testing/dashboard-browser.ts';

/**
 * Money → Transactions as orders (issue 26), in a real Chromium against a real server: search by
 * email, the status filter and the totals they select; a payment's page with its fee, net and
 * timeline (started, paid, a refund made from the page itself); the events page narrowed to the
 * payment by `?resourceID=`. Both pages fit 390 px with every action on screen, and axe finds no
 * moderate or worse violation. SCREENSHOT_DIR=… keeps them at 1366 and 390 px.
 */
const skip = dashboardSkip;

let t: TestApp;
let browser: Browser;
let base: string;

describe('orders in the dashboard', { skip }, () => {
  before(async () => {
    ({ t, browser, base } = await startBrowserApp());
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it('finds a payment by email and status, adds them up, and shows its timeline, fee and net with Refund', async () => {
    const { brand, ids, testKey } = await createBrandWithCatalog(t.db);
    await t.db.transaction((tx) => addUserToBrand(tx, { brandId: brand.id, email: 'orders@example.com', name: 'Owner', password: 'correct horse battery', role: 'owner' }));
    const grace = await createLink(t, testKey, courseBody(ids, { form: { formData: { fullName: 'Grace Hopper', email: 'grace@example.com', experienceLevel: 'Beginner' } } }));
    assert.equal((await submitCard(t, grace.path, cards.ok)).statusCode, 303);
    const declined = await createLink(t, testKey, courseBody(ids, { form: { formData: { fullName: 'Alan Turing', email: 'alan@example.com', experienceLevel: 'Beginner' } } }));
    await submitCard(t, declined.path, cards.declined);
    const items = (await t.request({ method: 'GET', url: '/api/v1/transactions', key: testKey })).json().data.items as any[];
    const paid = items.find((i) => i.customer.email === 'grace@example.com');
    const failed = items.find((i) => i.customer.email === 'alan@example.com');
    assert.equal(failed.status, 'failed');

    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${base}/dashboard/signin`);
    await page.getByLabel('Email').fill('orders@example.com');
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: /sign in/i }).click();
    await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();

    await page.goto(`${base}/dashboard/money`);
    await page.getByRole('row', { name: new RegExp(paid.txref) }).waitFor();
    assert.equal(await page.title(), 'Transactions · Dashboard');
    await page.getByTestId('totals').getByText(/2 transactions in USD: .*39\.50 paid/).waitFor();
    await page.getByLabel('Search').fill('GRACE@');
    await page.getByTestId('totals').getByText(/1 transaction in USD/).waitFor();
    assert.equal(await page.getByRole('row', { name: new RegExp(failed.txref) }).count(), 0);
    await page.getByLabel('Search').fill('');
    await page.getByLabel('Status').selectOption('failed');
    await page.getByRole('row', { name: new RegExp(failed.txref) }).waitFor();
    await page.getByRole('row', { name: new RegExp(paid.txref) }).waitFor({ state: 'detached' });
    assert.match(page.url(), /status=failed/, 'the filter is in the address');
    assert.deepEqual(await axeFindings(page), []);
    await page.getByLabel('Status').selectOption('');
    await page.getByRole('row', { name: new RegExp(paid.txref) }).waitFor();
    await fitsAndShoot(page, 'dashboard-transactions', { actionsInView: true });

    await page.getByRole('link', { name: paid.txref }).click();
    await page.getByRole('heading', { name: /39\.50 from Grace Hopper/ }).waitFor();
    const timeline = page.getByRole('list', { name: 'Timeline' });
    await timeline.getByText(/^Paid ·/).waitFor();
    await timeline.getByText('Payment started').waitFor();
    const fmt = (n: number) => page.evaluate((x) => new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD', currencyDisplay: 'code' }).format(x), n);
    assert.equal(await page.getByTestId('fee').textContent(), await fmt(paid.fee));
    assert.equal(await page.getByTestId('net').textContent(), await fmt(paid.net));
    await page.getByRole('button', { name: 'Refund' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(/^Amount/).fill('5');
    await dialog.getByRole('button', { name: 'Review refund' }).click();
    await dialog.getByRole('button', { name: /^Refund .*5\.00/ }).click();
    await timeline.getByText('Refund succeeded').waitFor();
    assert.equal(await page.getByTestId('net').textContent(), await fmt(paid.net - 5));
    assert.deepEqual(await axeFindings(page), []);
    await fitsAndShoot(page, 'dashboard-transaction', { actionsInView: true });

    await page.getByRole('link', { name: 'Events and deliveries' }).click();
    await page.getByTestId('resource-filter').waitFor();
    const rows = page.getByRole('row');
    await rows.filter({ hasText: 'transaction.refunded' }).first().waitFor();
    assert.equal(await rows.filter({ hasText: 'transaction.failed' }).count(), 0, 'only this payment\'s events');
    await context.close();
  });
});
