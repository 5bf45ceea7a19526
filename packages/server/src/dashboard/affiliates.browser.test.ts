import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { loadCatalog } from '../catalog/load.ts';
import type { TestApp } from '../testing/app.ts';
import { createKey } from '../testing/factories.ts';
import { createLink, submitCard } from '../testing/checkout-fixtures.ts';
import { dashboardSkip, fitsAndShoot, startBrowserApp } from '../testing/dashboard-browser.ts';

/**
 * The dashboard's Affiliates pages (Catalog → Affiliates; docs/affiliates.md) and the payout
 * breakdown on Money → Payouts, in a real Chromium against a real server, signed in through the
 * pages. Needs the dashboard build and Chromium (skips without them, except in CI).
 * SCREENSHOT_DIR=… saves each page at 1366 and 390 px.
 */
const skip = dashboardSkip;

let t: TestApp;
let browser: Browser;
let base: string;

describe('dashboard affiliates pages in a browser', () => {
  before(async () => {
    if (skip) return;
    ({ t, browser, base } = await startBrowserApp());
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it('creates an affiliate (an API error beside its field), shows its sales and commission, edits and archives it', { skip }, async () => {
    const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    await page.goto(`${base}/dashboard/signup`);
    await page.getByLabel('Your name').fill('Ada Maker');
    await page.getByLabel('Email').fill('ada.affiliates@example.com');
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByLabel('Brand name').fill('Ada Studio');
    await page.getByRole('button', { name: /sign up|create/i }).click();
    await page.waitForURL((u) => !u.pathname.startsWith('/dashboard/signup'));
    const brandId = await page.evaluate(async () => (await (await fetch('/dashboard/api/session')).json()).data.brand.id as string);

    await page.goto(`${base}/dashboard/catalog/affiliates`);
    await page.getByText('No affiliates yet').waitFor();
    await page.getByRole('link', { name: 'New affiliate' }).first().click();
    await page.getByLabel('Name').fill('Rita Inks');
    await page.getByLabel('Email').fill('rita@example.com');
    await page.getByLabel('Code').fill('RITA 10');
    await page.getByLabel('Commission (%)').fill('20');
    await page.getByLabel('Earns on subscription renewals too').check();
    await page.getByRole('button', { name: 'Create affiliate' }).click();
    const codeError = page.locator('#aff-code-error');
    await codeError.waitFor();
    assert.equal(await page.locator('#aff-code').getAttribute('aria-invalid'), 'true');
    await fitsAndShoot(page, 'catalog-affiliate-new-error');
    await page.getByLabel('Code').fill('RITA10');
    await page.getByRole('button', { name: 'Create affiliate' }).click();
    await page.waitForURL(/\/catalog\/affiliates\/aff_/);
    await page.getByText('No sales attributed yet.').waitFor();

    // Two sales with the code (test mode, as the dashboard's session): 10.00 USD and 7.35 EUR at 20% of net.
    const key = (await createKey(t.db, brandId, { mode: 'test' })).key;
    const ids = await t.db.transaction((tx) => loadCatalog(tx, brandId, { products: [
      { ref: 'usd', type: 'digital', title: 'Brush guide', status: 'published', tiers: [{ ref: 'usd-t', name: 'Std', price: { amount: 10, currency: 'USD' } }] },
      { ref: 'eur', type: 'digital', title: 'Ink guide', status: 'published', tiers: [{ ref: 'eur-t', name: 'Std', price: { amount: 7.35, currency: 'EUR' } }] },
    ] }));
    for (const ref of ['usd', 'eur']) {
      const link = await createLink(t, key, { items: [{ id: ids[ref], plan: ids[`${ref}-t`], type: 'digital', affiliate: 'rita10' }], form: { formData: { fullName: 'Grace Hopper', email: 'grace@example.com' } } });
      assert.equal((await submitCard(t, link.path, '4242 4242 4242 4242')).statusCode, 303);
    }
    await page.reload();
    const stats = page.getByRole('table', { name: 'Commission by currency' });
    await stats.waitFor();
    const text = await stats.textContent() ?? '';
    assert.match(text, /USD.*1.*10\.00.*1\.84/s);
    assert.match(text, /EUR.*1.*7\.35.*1\.34/s);
    await fitsAndShoot(page, 'catalog-affiliate-detail');

    await page.getByLabel('Commission (%)').fill('25');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved').first().waitFor();
    await page.goto(`${base}/dashboard/catalog/affiliates`);
    const row = page.getByRole('row', { name: /Rita Inks/ });
    await row.waitFor();
    assert.match(await row.textContent() ?? '', /RITA10.*25%, renewals too.*2/s);
    await fitsAndShoot(page, 'catalog-affiliates');

    // A payout run: the payments, their fees and (none yet, in their hold) commissions beside each net amount.
    assert.equal((await t.request({ method: 'POST', url: '/api/v1/test-clock/advance', key, payload: { by: '1d' } })).statusCode, 200);
    await page.goto(`${base}/dashboard/money/payouts`);
    const usd = page.getByRole('row', { name: /USD/ });
    await usd.waitFor();
    assert.match(await usd.textContent() ?? '', /USD\s9\.20.*USD\s10\.00.*−USD\s0\.80/s);
    await fitsAndShoot(page, 'money-payouts-lines');

    // The payout's own page: each line, signed, adding up to what was paid out.
    await usd.getByRole('link', { name: /^po_/ }).click();
    const lines = page.getByRole('table', { name: 'Payout lines' });
    await lines.waitFor();
    const rows = (await lines.getByRole('row').allTextContents()).slice(1);
    assert.match(rows[0]!, /^Payment.*tx_.*USD\s10\.00$/);
    assert.match(rows[1]!, /^Platform fee.*tx_.*-USD\s0\.80$/);
    assert.match(rows.at(-1)!, /^Paid out.*USD\s9\.20$/);
    const payoutId = new URL(page.url()).pathname.split('/').pop()!;
    const detail = (await t.request({ method: 'GET', url: `/api/v1/payouts/${payoutId}`, key })).json().data;
    assert.equal(rows.length, detail.lines.length + 1, 'every line of GET /payouts/{id}, and the total');
    assert.equal(Math.round(detail.lines.reduce((s: number, l: { amount: number }) => s + l.amount, 0) * 100), Math.round(detail.amount * 100), 'to the cent');
    await fitsAndShoot(page, 'money-payout-detail');

    await page.goto(`${base}/dashboard/catalog/affiliates`);
    await row.getByRole('link', { name: 'Rita Inks' }).click();
    await page.getByRole('button', { name: 'Archive' }).click();
    await page.getByRole('button', { name: 'Restore' }).waitFor();
    const res = await t.request({ method: 'GET', url: '/api/v1/affiliates', key });
    assert.equal(res.json().data.items[0].status, 'archived');
    await page.close();
  });
});
