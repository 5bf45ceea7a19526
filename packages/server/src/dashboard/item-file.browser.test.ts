import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { loadCatalog } from '../catalog/load.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { browserSkip, launchChromium } from '../testing/browser.ts';
import { signUp } from '../testing/dashboard.ts';
import { createLink, submitCard } from '../testing/checkout-fixtures.ts';
import { createKey } from '../testing/factories.ts';
import { freePort } from '../testing/processes.ts';
import { defaultDashboardDir } from './static.ts';

/**
 * A creator uploads an item's file in the dashboard's product editor (docs/files.md), sees its
 * progress and the stored version, replaces it, and the API serves the new bytes.
 * SCREENSHOT_DIR=… keeps the editor at 1366 and 390 px.
 */
const built = await readFile(join(defaultDashboardDir, 'index.html'), 'utf8').then(() => true, () => false);
const skip = browserSkip || (!built && process.env.CI !== 'true' ? 'build the dashboard: npm run build -w packages/dashboard' : false);
const shotDir = process.env.SCREENSHOT_DIR;

let t: TestApp;
let browser: Browser;
let base: string;

describe('an item\'s file in the dashboard', { skip }, () => {
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

  it('uploads with progress, shows the stored version, and replaces it', async () => {
    const owner = await signUp(t, { brandName: 'Inkwell Studio' });
    const brandId = owner.brand.id as string;
    const ids = await t.db.transaction((tx) => loadCatalog(tx, brandId, { products: [{
      ref: 'guide', type: 'digital', title: 'Ink basics workbook',
      items: [{ ref: 'pdf', type: 'pdf', title: 'Workbook (PDF)' }],
      tiers: [{ ref: 't', name: 'Standard', price: { amount: 12, currency: 'USD' }, items: ['pdf'] }],
    }] }));
    const ctx = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    const page = await ctx.newPage();
    await page.goto(`${base}/dashboard/signin`);
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: /sign in/i }).click();
    await page.waitForURL((u) => !u.pathname.startsWith('/dashboard/signin'));
    await page.goto(`${base}/dashboard/catalog/products/${ids.guide}`);
    const current = page.getByTestId(`item-file-${ids.pdf}-current`);
    await current.filter({ hasText: 'No file yet.' }).waitFor();

    const first = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(3 * 1024 * 1024, 0x41)]);
    await page.getByLabel(/File buyers download/).setInputFiles({ name: 'ink-basics.pdf', mimeType: 'application/pdf', buffer: first });
    await current.filter({ hasText: 'ink-basics.pdf · 3.0 MB · version 1' }).waitFor();
    if (shotDir) await page.screenshot({ path: join(shotDir, 'dashboard-item-file-1366.png'), fullPage: true });

    // A buyer who agreed to the brand's mail hears of the new version when the creator ticks the box (docs/email.md, Marketing mail).
    const testKey = (await createKey(t.db, brandId, { mode: 'test' })).key;
    const link = await createLink(t, testKey, { items: [{ id: ids.guide, plan: ids.t, type: 'digital' }], form: { formData: { fullName: 'Ada Lovelace', email: 'ada@example.com' } }, receive_emails: true });
    assert.equal((await submitCard(t, link.path, '4242 4242 4242 4242')).statusCode, 303);
    await page.getByLabel('Email buyers about the new file').check();
    const second = Buffer.from('%PDF-1.7\n% second edition\n');
    await page.getByLabel(/File buyers download/).setInputFiles({ name: 'ink-basics-2.pdf', mimeType: 'application/pdf', buffer: second });
    await current.filter({ hasText: 'ink-basics-2.pdf · 1 KB · version 2' }).waitFor();
    const news = await t.db.query<{ to_address: string; subject: string }>('SELECT to_address, subject FROM mail_messages WHERE brand_id = $1 AND kind = \'new_content\'', [brandId]);
    assert.deepEqual(news.map((m) => [m.to_address, m.subject]), [['ada@example.com', 'New in Ink basics workbook: Workbook (PDF)']]);
    assert.equal(await page.getByLabel('Email buyers about the new file').isChecked(), false, 'the next upload is not announced unless asked again');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId(`item-file-${ids.pdf}`).scrollIntoViewIfNeeded();
    if (shotDir) await page.screenshot({ path: join(shotDir, 'dashboard-item-file-390.png') });

    // A kind of file an item cannot hold: the server's words, in the page.
    await page.getByLabel(/File buyers download/).setInputFiles({ name: 'notes.html', mimeType: 'text/html', buffer: Buffer.from('<p>hi</p>') });
    await page.getByRole('alert').filter({ hasText: 'text/html is not a kind of file' }).waitFor();

    const key = (await createKey(t.db, brandId, { scopes: ['products:read'] })).key;
    const served = await t.request({ method: 'GET', url: `/api/v1/products/${ids.guide}/items/${ids.pdf}/file`, key });
    assert.deepEqual(served.rawPayload, second);
    await ctx.close();
  });
});
