import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { createCall, bookBody } from '../testing/bookings.ts';
import { newId } from '../ids.ts';
import { insertPayout } from '../payouts/repository.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { browserSkip, launchChromium } from '../testing/browser.ts';
import { cards, createLink, submitCard } from '../testing/checkout-fixtures.ts';
import { createBrandWithCatalog, createMembership } from '../testing/factories.ts';
import { freePort } from '../testing/processes.ts';
import { startReceiver, type Receiver } from '../testing/receiver.ts';
import { addUserToBrand } from '../users/service.ts';
import { defaultDashboardDir } from './static.ts';

/**
 * The dashboard's lists on a phone (issue 26, item 6): below 768 px every table shows its rows as
 * cards, so no status, link or button sits off-screen or inside a box that scrolls sideways.
 * Each list is given rows through the API first, then opened at 390 px in a real Chromium, and
 * every cell, link and button of its table must lie inside the viewport. SCREENSHOT_DIR=… saves
 * each at 1366 and 390 px.
 */
const built = existsSync(join(defaultDashboardDir, 'index.html'));
const skip = browserSkip || (!built && process.env.CI !== 'true' ? 'build the dashboard: npm run build -w packages/dashboard' : false);
const shotDir = process.env.SCREENSHOT_DIR;

let t: TestApp;
let browser: Browser;
let base: string;
let rx: Receiver;

/** What of the page's tables lies outside 0…width, and the table boxes that scroll sideways. */
async function offScreen(page: Page, width: number): Promise<string[]> {
  return page.evaluate((w) => {
    const problems: string[] = [];
    for (const box of document.querySelectorAll<HTMLElement>('[data-slot="table-container"]')) {
      if (box.scrollWidth > box.clientWidth + 1) problems.push(`a table box scrolls sideways by ${box.scrollWidth - box.clientWidth}px`);
    }
    for (const el of document.querySelectorAll<HTMLElement>('[data-slot="table"] tbody td, [data-slot="table"] tbody a, [data-slot="table"] tbody button, [data-slot="table"] tbody [data-slot="badge"]')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      if (r.left < -0.5 || r.right > w + 0.5) problems.push(`${el.tagName.toLowerCase()} "${(el.textContent || el.getAttribute('aria-label') || '').trim().slice(0, 40)}" spans ${Math.round(r.left)}…${Math.round(r.right)}px`);
    }
    return problems;
  }, width);
}

describe('dashboard lists on a phone', { skip }, () => {
  before(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await startTestApp({ publicUrl: base });
    await t.app.listen({ port, host: '127.0.0.1' });
    rx = await startReceiver();
    browser = await launchChromium();
    if (shotDir) await mkdir(shotDir, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await rx?.close();
    await t?.close();
  });

  it('shows every list as cards at 390 px, with statuses and actions inside the screen', async () => {
    const { brand, testKey } = await createBrandWithCatalog(t.db);
    await t.db.transaction((tx) => addUserToBrand(tx, { brandId: brand.id, email: 'owner.phone@example.com', name: 'Owner', password: 'correct horse battery', role: 'owner' }));
    const api = async (method: 'POST' | 'GET', url: string, payload?: unknown) => {
      const res = await t.request({ method, url: `/api/v1${url}`, key: testKey, ...(payload ? { payload } : {}) });
      assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`);
      return res.json().data;
    };
    // Rows for every list: a booking (its purchase gives a transaction, events and an email), a
    // hub with a member, a coupon, an affiliate, an endpoint with deliveries, a payout.
    await api('POST', '/test-clock/advance', { to: '2027-06-06T08:00:00.000Z' });
    const call = await createCall(t, testKey);
    const link = await createLink(t, testKey, { ...bookBody(call, '2027-06-08T08:00:00.000Z'), form: { formData: { fullName: 'Grace Hopper', email: 'grace.hopper.phone@example.com' } } });
    assert.equal((await submitCard(t, link.path, cards.ok)).statusCode, 303);
    const hub = await api('POST', '/hubs', { name: 'Night owls', description: 'Late-night inking club', tiers: [{ name: 'Member', price: { amount: 0, currency: 'USD' } }] });
    await createMembership(t.db, { brandId: brand.id, hubId: hub.id, plan: hub.tiers[0].id, name: 'Katherine Johnson-Longname', email: 'katherine.johnson.longname@example.com' });
    await api('POST', '/coupons', { code: 'SPRINGTIME2027', name: 'Spring newsletter readers', percentOff: 20, duration: 'once' });
    await api('POST', '/affiliates', { name: 'Rita Levi-Montalcini', email: 'rita@example.com', code: 'rita10', commissionPercent: 10 });
    const endpoint = await api('POST', '/webhooks', { url: rx.url, events: ['member.joined'], description: 'Shop backend on the studio server' });
    await api('POST', '/webhooks/test', { eventType: 'member.joined', endpointID: endpoint.id });
    await insertPayout(t.db, {
      brand_id: brand.id, id: newId('po'), mode: 'test', currency: 'USD', amount: 920, fee: 80, transaction_count: 1,
      period_start: new Date('2027-06-01T00:00:00Z'), period_end: new Date('2027-06-02T00:00:00Z'), settled_at: new Date('2027-06-02T00:00:00Z'),
    });

    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(`${base}/dashboard/signin`);
    await page.getByLabel('Email').fill('owner.phone@example.com');
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: /sign in/i }).click();
    await page.waitForURL((u) => !u.pathname.startsWith('/dashboard/signin'));

    const lists: [string, string][] = [
      ['products', '/catalog/products'],
      ['hubs', '/catalog/hubs'],
      ['members', `/people?hub=${hub.id}`],
      ['discounts', '/catalog/discounts'],
      ['affiliates', '/catalog/affiliates'],
      ['bookings', '/bookings'],
      ['transactions', '/money'],
      ['payouts', '/money/payouts'],
      ['api-keys', '/developers/api-keys'],
      ['webhooks', '/developers/webhooks'],
      ['deliveries', `/developers/webhooks/${endpoint.id}`],
      ['events', '/developers/events'],
      ['emails', '/developers/emails'],
    ];
    const problems: string[] = [];
    for (const [name, path] of lists) {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${base}/dashboard${path}`);
      await page.locator('[data-slot="table"] tbody tr').first().waitFor({ state: 'attached' });
      await page.getByText('Loading…').first().waitFor({ state: 'detached', timeout: 10_000 }).catch(() => {});
      // Cards, not a table: the header row is there for screen readers only, and each cell says its column.
      assert.equal(await page.locator('[data-slot="table"] thead').first().evaluate((h) => getComputedStyle(h).position), 'absolute', `${name}: the header is hidden at 390 px`);
      problems.push(...(await offScreen(page, 390)).map((p) => `${name}: ${p}`));
      if (shotDir) await page.screenshot({ path: join(shotDir, `dashboard-${name}-390.png`), fullPage: true });
      // On a laptop the table is a table again, and fits its box too.
      await page.setViewportSize({ width: 1366, height: 900 });
      await page.waitForTimeout(100);
      problems.push(...(await offScreen(page, 1366)).map((p) => `${name} at 1366 px: ${p}`));
      if (shotDir) await page.screenshot({ path: join(shotDir, `dashboard-${name}-1366.png`), fullPage: true });
    }
    assert.deepEqual(problems, []);
    // Each card names its lines: a cell under a named column carries that name.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${base}/dashboard/money/payouts`);
    await page.locator('[data-slot="table"] tbody td[data-label]').first().waitFor();
    await page.close();
  });
});
