import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { loadCatalog } from '../catalog/load.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { browserSkip, launchChromium } from '../testing/browser.ts';
import { createLink, submitCard } from '../testing/checkout-fixtures.ts';
import { createBrand, createKey } from '../testing/factories.ts';
import { freePort } from '../testing/processes.ts';
import { startTestSmtp, type TestSmtp } from '../testing/smtp.ts';
import { signDownload } from './tokens.ts';

/**
 * The buyer portal in a real Chromium against a real server and a real SMTP server: the buyer
 * asks for a sign-in link, follows the one that arrived by mail, downloads what they bought,
 * cancels their membership at period end and keeps it again; another buyer's membership and an
 * expired or used link are refused. axe-core runs on every portal page (no serious or critical
 * violation). SCREENSHOT_DIR=… keeps the pages at 1366 and 390 px.
 */
const shotDir = process.env.SCREENSHOT_DIR;
let t: TestApp;
let smtp: TestSmtp;
let browser: Browser;
let base: string;

async function seriousViolations(page: Page, name: string): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${name}: ${v.id} (${v.impact}) ${v.help}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
}

async function shot(page: Page, name: string) {
  if (shotDir) await page.screenshot({ path: join(shotDir, `${name}.png`), fullPage: true });
}

const catalog = {
  hubs: [{ ref: 'club', name: 'Night Sketch Club', tiers: [{ ref: 'monthly', name: 'Monthly', price: { amount: 8, currency: 'USD' }, recurrence: { periodic: 'monthly', interval: 1, count: 0 } }] }],
  products: [{
    ref: 'guide', type: 'digital', title: 'Ink basics workbook',
    items: [{ ref: 'pdf', type: 'pdf', title: 'Workbook (PDF)' }, { ref: 'video', type: 'video', title: 'Lesson 1: holding the brush' }],
    tiers: [{ ref: 'guide-t', name: 'Standard', price: { amount: 12, currency: 'USD' }, items: ['pdf', 'video'] }],
  }],
};

describe('the buyer portal in a browser', { skip: browserSkip }, () => {
  before(async () => {
    smtp = await startTestSmtp();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await startTestApp({ publicUrl: base, worker: true, mail: { smtpUrl: smtp.url, from: 'receipts@inkwell.example', retryScheduleMs: [50] } });
    await t.app.listen({ port, host: '127.0.0.1' });
    browser = await launchChromium();
    if (shotDir) await mkdir(shotDir, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    await smtp?.stop();
  });

  it('signs in by the emailed link, downloads, cancels and keeps; refuses another buyer\'s data and used or expired links', async () => {
    const brand = await createBrand(t.db, { name: 'Inkwell Studio' });
    await t.db.query("UPDATE brands SET slug = 'inkwell', accent_color = '#6b21a8', support_email = 'hello@inkwell.example' WHERE id = $1", [brand.id]);
    const ids = await t.db.transaction((tx) => loadCatalog(tx, brand.id, catalog));
    const key = (await createKey(t.db, brand.id, { mode: 'test' })).key;
    const pdf = Buffer.from('%PDF-1.7\n% Ink basics workbook, first edition\n');
    assert.equal((await t.request({ method: 'PUT', url: `/api/v1/products/${ids.guide}/items/${ids.pdf}/file?filename=ink-basics.pdf`, key, headers: { 'content-type': 'application/pdf' }, payload: pdf })).statusCode, 200);
    await t.request({ method: 'PUT', url: `/api/v1/products/${ids.guide}/items/${ids.video}/content`, key, payload: { url: 'https://video.example.com/lesson-1' } });
    const buy = async (email: string, item: Record<string, string>) => {
      const link = await createLink(t, key, { items: [item], form: { formData: { fullName: 'Ada Lovelace', email } } });
      assert.equal((await submitCard(t, link.path, '4242 4242 4242 4242')).statusCode, 303);
    };
    const email = 'ada@example.com';
    await buy(email, { id: ids.guide, plan: ids['guide-t'], type: 'digital' });
    await buy(email, { id: ids.club, plan: ids.monthly, type: 'membership' });
    await buy('grace@example.com', { id: ids.club, plan: ids.monthly, type: 'membership' });
    const [{ id: membershipId }] = await t.db.query<{ id: string }>('SELECT id FROM memberships WHERE brand_id = $1 AND email = $2 AND hub_id IS NOT NULL', [brand.id, email]);
    const [{ id: otherId }] = await t.db.query<{ id: string }>('SELECT id FROM memberships WHERE brand_id = $1 AND email = $2', [brand.id, 'grace@example.com']);
    const found: string[] = [];

    const ctx = await browser.newContext({ viewport: { width: 1366, height: 900 }, acceptDownloads: true });
    const page = await ctx.newPage();
    await page.goto(`${base}/portal/inkwell`);
    await page.getByRole('heading', { name: 'Sign in with your email' }).waitFor();
    found.push(...await seriousViolations(page, 'sign-in'));
    await shot(page, 'portal-sign-in-1366');
    const before = smtp.received.length;
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await page.getByText('a sign-in link is on its way').waitFor();
    found.push(...await seriousViolations(page, 'link sent'));
    await shot(page, 'portal-link-sent-1366');

    const signInMail = () => smtp.received.slice(before).find((m) => m.envelope.to.includes(email) && /sign-in link/.test(String(m.parsed.subject)));
    for (let waited = 0; !signInMail() && waited < 15_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    const mail = signInMail();
    assert.ok(mail, 'the sign-in mail arrived at the SMTP server');
    const url = /(http:\/\/127\.0\.0\.1:\d+\/portal\/inkwell\/enter\?token=[\w-]+)/.exec(mail.parsed.text ?? '')![1];
    await page.goto(url);
    await page.getByRole('heading', { name: 'Memberships and purchases' }).waitFor();
    assert.ok(await page.getByText('Night Sketch Club').isVisible());
    assert.ok(await page.getByText('Ink basics workbook').isVisible());
    assert.equal(await page.getByText('grace@example.com').count(), 0);
    found.push(...await seriousViolations(page, 'home'));
    await shot(page, 'portal-home-1366');

    // Download the file the buyer bought.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: /Download Workbook/ }).click()]);
    assert.equal(download.suggestedFilename(), 'ink-basics.pdf');
    assert.deepEqual(await readFile((await download.path())!), pdf);
    const [{ count }] = await t.db.query<{ count: number }>('SELECT count FROM item_downloads WHERE brand_id = $1 AND item_id = $2', [brand.id, ids.pdf]);
    assert.equal(count, 1, 'the download was counted');

    // Cancel at period end, then keep.
    await page.getByRole('button', { name: 'Cancel at period end' }).click();
    await page.getByText('Your membership will end at the end of the period').waitFor();
    assert.ok(await page.getByRole('button', { name: 'Keep my membership' }).isVisible());
    found.push(...await seriousViolations(page, 'cancelled'));
    await shot(page, 'portal-cancelled-1366');
    let m = (await t.request({ method: 'GET', url: `/api/v1/hubs/${ids.club}/members/${membershipId}`, key })).json().data;
    assert.equal(m.subscription.cancelAtPeriodEnd, true);
    await page.getByRole('button', { name: 'Keep my membership' }).click();
    await page.getByText('Your membership continues').waitFor();
    m = (await t.request({ method: 'GET', url: `/api/v1/hubs/${ids.club}/members/${membershipId}`, key })).json().data;
    assert.equal(m.subscription.cancelAtPeriodEnd, false);

    // Another buyer's membership, through the same session (a hand-made form post).
    const foreign = await page.request.post(`${base}/portal/inkwell/memberships/${otherId}/cancel`, { headers: { origin: base }, maxRedirects: 0 });
    assert.equal(foreign.status(), 404);
    const other = (await t.request({ method: 'GET', url: `/api/v1/hubs/${ids.club}/members/${otherId}`, key })).json().data;
    assert.equal(other.subscription.cancelAtPeriodEnd, false, 'the other buyer\'s membership is untouched');

    // An expired download link, and the used sign-in link.
    const expired = signDownload(t.deps.secrets.webhookKey, { brandId: brand.id, mode: 'test', email, itemId: ids.pdf, exp: Date.now() - 1000 });
    await page.goto(`${base}/portal/inkwell/files/${expired}`);
    await page.getByRole('heading', { name: 'Link expired' }).waitFor();
    const fresh = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const phone = await fresh.newPage();
    await phone.goto(url);
    await phone.getByText('That sign-in link has expired or was already used').waitFor();
    found.push(...await seriousViolations(phone, 'used link'));
    await shot(phone, 'portal-link-used-390');
    await phone.goto(`${base}/portal/inkwell`);
    await shot(phone, 'portal-sign-in-390');

    // The home page at phone width, signed in through a link the brand's developer made; the
    // Status column does not fit, so a payment that did not simply succeed says so under its amount.
    const [{ txref: guideTxref }] = await t.db.query<{ txref: string }>(
      "SELECT txref FROM transactions WHERE brand_id = $1 AND customer_email = $2 AND status = 'succeeded' ORDER BY created_at LIMIT 1", [brand.id, email]);
    assert.equal((await t.request({ method: 'POST', url: `/api/v1/transactions/${guideTxref}/refund`, key, payload: { reason: 'Bought twice by mistake' } })).statusCode, 200);
    const minted = (await t.request({ method: 'POST', url: '/api/v1/customer-sessions', key, payload: { email, deepLink: membershipId, returnUrl: 'https://inkwell.example.com/account' } })).json().data;
    await phone.goto(minted.url);
    await phone.getByRole('heading', { name: 'Memberships and purchases' }).waitFor();
    assert.ok(await phone.getByRole('link', { name: /Back to Inkwell Studio/ }).isVisible());
    assert.equal(await phone.getByRole('columnheader', { name: 'Status' }).isVisible(), false);
    assert.match(await phone.locator(`tr[id="${guideTxref}"]`).innerText(), /refunded/);
    assert.ok(await phone.locator(`tr[id="${guideTxref}"] .st-note`).isVisible());
    await shot(phone, 'portal-home-390');
    await fresh.close();
    await ctx.close();
    assert.deepEqual(found, []);
  });
});
