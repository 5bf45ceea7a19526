import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { advance, buyPlan, recurringBrand, sub341 } from '../testing/subscriptions.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { browserSkip, launchChromium } from '../testing/browser.ts';
import { freePort } from '../testing/processes.ts';
import { startTestSmtp, type TestSmtp } from '../testing/smtp.ts';

/**
 * A buyer whose renewal failed, in a real Chromium against a real server and SMTP server: the
 * failed-renewal mail's "Update your card" link, sign-in by the link emailed to them, a declined
 * card refused, a good one saved, and the retry that charges it (the portal then says the
 * membership renews). axe-core on every page; SCREENSHOT_DIR=… keeps them at 1366 and 390 px.
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

describe('updating the card after a failed renewal, in a browser', { skip: browserSkip }, () => {
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

  it('follows the mail\'s link, signs in by the emailed link, saves a new card, and the retry succeeds', async () => {
    const b = await recurringBrand(t);
    await t.db.query("UPDATE brands SET name = 'Inkwell Studio', slug = 'inkwell-card', accent_color = '#6b21a8', support_email = 'hello@inkwell.example' WHERE id = $1", [b.brandId]);
    const { membershipId, email } = await buyPlan(t, b, 'monthly', sub341);
    const [sub] = await t.db.query<{ current_period_end: Date }>('SELECT current_period_end FROM subscriptions WHERE brand_id = $1', [b.brandId]);
    await advance(t, b.key, { to: new Date(sub.current_period_end.getTime() + 60_000).toISOString() });
    const waitMail = async (subject: RegExp, text = /./) => {
      for (let waited = 0; waited < 20_000; waited += 50) {
        const found = smtp.received.find((m) => m.envelope.to.includes(email) && subject.test(String(m.parsed.subject)) && text.test(m.parsed.text ?? ''));
        if (found) return found;
        await new Promise((r) => setTimeout(r, 50));
      }
      return assert.fail(`no mail matching ${subject}`);
    };
    const failed = await waitMail(/renewal payment failed/);
    const cardUrl = /Update your card: (\S+)/.exec(failed.parsed.text ?? '')![1];
    assert.equal(cardUrl, `${base}/portal/inkwell-card/memberships/${membershipId}/card`);

    const found: string[] = [];
    const shot = async (page: Page, name: string) => { if (shotDir) await page.screenshot({ path: join(shotDir, `${name}.png`), fullPage: true }); };
    const ctx = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    const page = await ctx.newPage();
    await page.goto(cardUrl);
    await page.getByRole('heading', { name: 'Sign in with your email' }).waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await page.getByText('a sign-in link is on its way').waitFor();
    const signIn = await waitMail(/sign-in link/);
    await page.goto(/(http:\/\/127\.0\.0\.1:\d+\/portal\/inkwell-card\/enter\?token=[\w-]+)/.exec(signIn.parsed.text ?? '')![1]);
    await page.getByText('Payment failed').waitFor();
    assert.ok(await page.getByText(/We could not charge your card for the renewal/).isVisible());
    assert.ok(await page.getByRole('button', { name: 'Stop retrying and end my membership' }).isVisible());
    found.push(...await seriousViolations(page, 'payment failed'));
    await shot(page, 'portal-payment-failed-1366');
    if (shotDir) {
      const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, storageState: await ctx.storageState() });
      const p = await phone.newPage();
      await p.goto(`${base}/portal/inkwell-card`);
      await p.getByText('Payment failed').waitFor();
      await shot(p, 'portal-payment-failed-390');
      await phone.close();
    }

    await page.getByRole('link', { name: 'Update card' }).click();
    await page.getByRole('heading', { name: 'Update your card' }).waitFor();
    found.push(...await seriousViolations(page, 'card form'));
    await shot(page, 'portal-card-1366');
    await page.getByLabel('Card number').fill('4000 0000 0000 0002');
    await page.getByRole('button', { name: 'Save card' }).click();
    await page.getByText('The card was declined. Try another card.').waitFor();
    found.push(...await seriousViolations(page, 'card declined'));
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Save card' }).click();
    await page.getByText('Your card is updated.').waitFor();

    // The worker charges the new card at once; the portal then shows the membership renewing.
    for (let waited = 0; waited < 20_000; waited += 200) {
      const [s] = await t.db.query<{ status: string; periods_paid: number }>('SELECT status, periods_paid FROM subscriptions WHERE brand_id = $1', [b.brandId]);
      if (s.status === 'active' && s.periods_paid === 2) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    await page.reload();
    await page.getByText(/Renews on/).waitFor();
    assert.equal(await page.getByText('Payment failed').count(), 0);
    await shot(page, 'portal-card-updated-1366');
    await waitMail(/receipt/, /Your membership renewed/);

    if (shotDir) {
      // The same pages at a phone's width, for docs/portal.md.
      const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, storageState: await ctx.storageState() });
      const p = await phone.newPage();
      await p.goto(cardUrl);
      await p.getByRole('heading', { name: 'Update your card' }).waitFor();
      await shot(p, 'portal-card-390');
      await phone.close();
    }
    await ctx.close();
    assert.deepEqual(found, []);
  });
});
