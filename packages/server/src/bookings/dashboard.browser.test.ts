import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import type { TestApp } from '../testing/app.ts';
import { cards, createLink, submitCard } from '../testing/checkout-fixtures.ts';
import { createBrandWithCatalog } from '../testing/factories.ts';
import { addUserToBrand } from '../users/service.ts';
import { bookBody, createCall } from '../testing/bookings.ts';
import { dashboardSkip, fitsAndShoot, signInToDashboard, startBrowserApp } from '../testing/dashboard-browser.ts';

/**
 * Bookings in the dashboard, in a real Chromium (docs/bookings.md): the upcoming bookings of the
 * current mode, soonest first, and Cancel after a confirmation, which frees the slot. Needs the
 * dashboard build and Chromium (skips without them outside CI). SCREENSHOT_DIR=… saves the page
 * at 1366 and 390 px wide.
 */
const skip = dashboardSkip;

let t: TestApp;
let browser: Browser;
let base: string;

describe('upcoming bookings in the dashboard', () => {
  before(async () => {
    if (skip) return;
    ({ t, browser, base } = await startBrowserApp());
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it('lists paid bookings soonest first and cancels one after asking, freeing its slot', { skip }, async () => {
    const { brand, testKey } = await createBrandWithCatalog(t.db);
    await t.db.transaction((tx) => addUserToBrand(tx, { brandId: brand.id, email: 'owner@example.com', name: 'Owner', password: 'correct horse battery', role: 'owner' }));
    await t.request({ method: 'POST', url: '/api/v1/test-clock/advance', key: testKey, payload: { to: '2027-06-06T08:00:00.000Z' } });
    const call = await createCall(t, testKey);
    const buyers = [['2027-06-09T08:30:00.000Z', 'Grace Hopper'], ['2027-06-08T08:00:00.000Z', 'Ada Lovelace']] as const;
    for (const [startsAt, name] of buyers) {
      const body = bookBody(call, startsAt);
      const link = await createLink(t, testKey, { ...body, form: { formData: { fullName: name, email: `${name.split(' ')[0].toLowerCase()}@example.com` } } });
      assert.equal((await submitCard(t, link.path, cards.ok)).statusCode, 303);
    }

    const page = await browser.newPage({ viewport: { width: 1366, height: 900 }, timezoneId: 'Europe/London', locale: 'en-GB' });
    await signInToDashboard(page, base, 'owner@example.com');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Bookings' }).click();
    await page.waitForURL(/\/dashboard\/bookings$/);

    const table = page.getByRole('table', { name: 'Upcoming bookings' });
    await table.waitFor();
    const rows = table.getByRole('row');
    await rows.nth(2).waitFor();
    const texts = await rows.allInnerTexts();
    assert.match(texts[1], /Tue 8 Jun, 09:00–09:30[\s\S]*1:1 coaching call[\s\S]*Ada Lovelace/);
    assert.match(texts[2], /Wed 9 Jun, 09:30–10:00[\s\S]*Grace Hopper/);
    await fitsAndShoot(page, 'dashboard-bookings');

    await rows.nth(1).getByRole('button', { name: 'Cancel' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText(/Ada Lovelace's session on Tue 8 Jun, 09:00–09:30 is cancelled/).waitFor();
    await dialog.getByRole('button', { name: 'Cancel booking' }).click();
    await page.getByText('Booking of Ada Lovelace cancelled').first().waitFor();
    await page.getByRole('row', { name: /Ada Lovelace/ }).waitFor({ state: 'detached' });
    assert.equal(await table.getByRole('row').count(), 2, 'the header and Grace\'s booking');

    const open = await t.request({ method: 'GET', url: `/api/v1/products/${call.id}/availability?from=2027-06-08T08:00:00Z&to=2027-06-08T08:01:00Z`, key: testKey });
    assert.equal(open.json().data.slots.length, 1, 'the cancelled slot is open again');
    await page.close();
  });
});
