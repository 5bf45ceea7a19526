import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { courseBody, createLink } from '../../testing/checkout-fixtures.ts';
import { startTestApp, type TestApp } from '../../testing/app.ts';
import { browserSkip, launchChromium } from '../../testing/browser.ts';
import { createBrandWithCatalog } from '../../testing/factories.ts';
import { freePort } from '../../testing/processes.ts';
import { startStripeFake, type StripeFake } from '../../testing/stripe-fake.ts';

/**
 * The live checkout page in a real Chromium: its button must take the buyer to Stripe's page
 * (the page's CSP allows Stripe Checkout's origin as a form target, redirects included), and
 * Stripe's cancel link must bring them back to a page that says nothing was charged.
 * SCREENSHOT_DIR keeps screenshots at 1366 and 390 px for a person to look at.
 */
const skip = browserSkip;
let t: TestApp;
let stripe: StripeFake;
let browser: Browser;

describe('live checkout in a browser', () => {
  before(async () => {
    if (skip) return;
    const port = await freePort();
    stripe = await startStripeFake();
    t = await startTestApp({ publicUrl: `http://127.0.0.1:${port}`, stripe: stripe.appSettings });
    await t.app.listen({ port, host: '127.0.0.1' });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    await stripe?.close();
  });

  for (const width of [1366, 390]) {
    it(`sends the buyer on to Stripe Checkout and back on a ${width} px screen`, { skip }, async () => {
      const { ids, liveKey } = await createBrandWithCatalog(t.db);
      const { link } = await createLink(t, liveKey, courseBody(ids));
      const page = await browser.newPage({ viewport: { width, height: 800 }, isMobile: width < 500 });
      await page.goto(link);
      assert.ok(await page.getByText('Stripe\'s secure page').isVisible());
      assert.equal(await page.locator('input').count(), 0, 'no card input on our page');
      const fits = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
      assert.ok(fits, 'no sideways scrolling');
      if (process.env.SCREENSHOT_DIR) await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/stripe-checkout-${width}.png`, fullPage: true });

      await page.getByRole('button', { name: 'Continue to payment' }).click();
      await page.waitForURL(`${stripe.origin}/c/pay/**`);
      assert.match(await page.locator('h1').textContent() ?? '', /Pay 3950 usd/);

      // Stripe's cancel link.
      const [session] = [...stripe.sessions.values()].filter((s) => s.url === page.url());
      await page.goto(session.cancel_url);
      assert.ok(await page.getByText('nothing was charged').isVisible());
      if (process.env.SCREENSHOT_DIR) await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/stripe-cancelled-${width}.png`, fullPage: true });

      // Paid on Stripe's page; Stripe sends the buyer to our return page before its webhook arrives.
      stripe.complete(session.id);
      await page.goto(session.success_url);
      assert.ok(await page.getByRole('heading', { name: 'Payment successful' }).isVisible());
      if (process.env.SCREENSHOT_DIR) await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/stripe-returned-${width}.png`, fullPage: true });
      await page.close();
    });
  }
});
