import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { loadCatalog } from '../catalog/load.ts';
import { createLink, submitCard } from '../testing/checkout-fixtures.ts';
import { defaultDashboardDir } from '../dashboard/static.ts';
import { recurringCatalog } from '../testing/subscriptions.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { browserSkip, launchChromium } from '../testing/browser.ts';
import { createKey } from '../testing/factories.ts';
import { freePort } from '../testing/processes.ts';

/**
 * Developers → Emails and Settings → Email in a real Chromium against a real server: a receipt
 * kept unsent (no SMTP_URL) is listed, opens rendered with its text part, and a buyer kind
 * turned off in Settings stops the next receipt. Skips without Chromium or the dashboard build,
 * except in CI.
 */
const built = await readFile(join(defaultDashboardDir, 'index.html'), 'utf8').then(() => true, () => false);
const skip = browserSkip || (!built && process.env.CI !== 'true' ? 'build the dashboard: npm run build -w packages/dashboard' : false);

let t: TestApp;
let browser: Browser;
let base: string;

async function signUp(page: Page, email: string) {
  await page.goto(`${base}/dashboard/signup`);
  await page.getByLabel('Your name').fill('Ada Maker');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByLabel('Brand name').fill('Mail Studio');
  await page.getByRole('button', { name: /sign up|create/i }).click();
  await page.waitForURL((u) => !u.pathname.startsWith('/dashboard/signup'));
  return page.evaluate(async () => (await (await fetch('/dashboard/api/session')).json()).data.brand.id as string);
}

describe('the Emails pages in a browser', () => {
  before(async () => {
    if (skip) return;
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await startTestApp({ publicUrl: base, worker: true });
    await t.app.listen({ port, host: '127.0.0.1' });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it('lists a receipt kept unsent, opens it rendered with its text part, and turning receipts off in Settings stops the next one', { skip }, async () => {
    const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
    const brandId = await signUp(page, 'mail.maker@example.com');
    const ids = await t.db.transaction((tx) => loadCatalog(tx, brandId, recurringCatalog));
    const key = (await createKey(t.db, brandId, { mode: 'test' })).key;
    const buy = async (email: string) => {
      const link = await createLink(t, key, { items: [{ id: ids.usd, plan: ids['usd-t'], type: 'digital' }], form: { formData: { fullName: 'Ada Buyer', email } } });
      assert.equal((await submitCard(t, link.path, '4242 4242 4242 4242')).statusCode, 303);
    };
    await buy('first.buyer@example.com');

    await page.goto(`${base}/dashboard/developers/emails`);
    const row = page.getByRole('link', { name: 'Your receipt from Mail Studio' });
    await row.waitFor();
    await page.getByText('not sent').first().waitFor({ timeout: 10_000 }).catch(async () => { await page.reload(); await page.getByText('not sent').first().waitFor(); });
    await row.click();
    const frame = page.frameLocator('[data-testid=email-html]');
    await frame.getByText('Thank you for your purchase').waitFor();
    assert.ok(await frame.getByText('USD guide').count() > 0, 'the rendered message names what was bought');
    await page.getByRole('tab', { name: 'Text part' }).click();
    assert.match(await page.getByTestId('email-text').textContent() ?? '', /Total: +\$10\.00/);
    await page.getByText('not sent: no mail server (SMTP_URL is not set)').first().waitFor();

    await page.goto(`${base}/dashboard/settings`);
    await page.getByLabel('Receipts for payments and renewals').click();
    await page.getByRole('button', { name: 'Save email settings' }).click();
    await page.getByText('Email settings saved').first().waitFor();
    await buy('second.buyer@example.com');
    await new Promise((r) => setTimeout(r, 300));
    const rows = await t.db.query('SELECT 1 FROM mail_messages WHERE brand_id = $1 AND to_address = $2', [brandId, 'second.buyer@example.com']);
    assert.equal(rows.length, 0, 'no receipt once receipts are off');
    await page.close();
  });
});
