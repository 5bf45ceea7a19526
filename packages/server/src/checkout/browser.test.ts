import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { browserSkip, launchChromium } from '../testing/browser.ts';
import { createBrandWithCatalog } from '../testing/factories.ts';
import { freePort } from '../testing/processes.ts';
import { registerEndpoint, startReceiver, type Receiver } from '../testing/receiver.ts';
import { cards, courseBody, createLink } from '../testing/checkout-fixtures.ts';

/**
 * The hosted checkout in a real headless Chromium (Debian's `chromium` package). Without it the
 * file is skipped, except in CI (CI=true), where a missing browser must fail the run.
 * CHROMIUM_PATH points at another binary.
 */
const skip = browserSkip;

let t: TestApp;
let browser: Browser;
let rx: Receiver;
/** Stands in for the brand's own site that redirectUrl points at. */
let brandSite: Server;
let brandSiteUrl: string;

describe('checkout in a browser', () => {
  before(async () => {
    if (skip) return;
    // The link the API returns must open in the browser as is, so PUBLIC_URL is where we listen.
    const port = await freePort();
    t = await startTestApp({ publicUrl: `http://127.0.0.1:${port}`, worker: true });
    await t.app.listen({ port, host: '127.0.0.1' });
    rx = await startReceiver();
    brandSite = createServer((req, res) => res.end(`brand site: ${req.url}`));
    await new Promise<void>((resolve) => brandSite.listen(0, '127.0.0.1', resolve));
    brandSiteUrl = `http://127.0.0.1:${(brandSite.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await rx?.close();
    await new Promise<void>((resolve) => (brandSite ? brandSite.close(() => resolve()) : resolve()));
    await t?.close();
  });

  it('pays a link with a test card on a phone-sized screen; the receiver gets signed events; the lists show the purchase', { skip }, async () => {
    const { ids, testKey } = await createBrandWithCatalog(t.db);
    const endpoint = await registerEndpoint(t, testKey, rx.url, ['transaction.succeeded', 'member.joined']);
    rx.secret = endpoint.signingSecret;
    const { link } = await createLink(t, testKey, courseBody(ids, { metadata: { orderId: 'A-1' } }));

    const page = await browser.newPage({ viewport: { width: 375, height: 740 }, isMobile: true });
    await page.goto(link);
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Brushwork fundamentals');
    assert.ok(await page.getByText('Test brand').isVisible());
    assert.ok(await page.getByText('39.50 USD').first().isVisible());
    const fits = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    assert.ok(fits, 'no sideways scrolling on a phone');

    await page.getByLabel('Card number').fill(cards.ok);
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(/\/result\?txref=/);
    assert.ok(await page.getByRole('heading', { name: 'Payment successful' }).isVisible());
    const txref = new URL(page.url()).searchParams.get('txref')!;
    await page.close();

    const got = await rx.waitFor(2);
    assert.ok(got.every((d) => d.verified), 'X-Service-Signature and webhook-signature match the raw bytes');
    const byType = Object.fromEntries(got.map((d) => [d.json.type, d.json.data]));
    assert.equal(byType['transaction.succeeded'].txref, txref);
    assert.deepEqual(byType['transaction.succeeded'].metadata, { orderId: 'A-1' });
    assert.equal(byType['member.joined'].email, 'ada@example.com');

    const customers = (await t.request({ method: 'GET', url: `/api/v1/products/${ids['brush-course']}/customers`, key: testKey })).json().data.items;
    assert.deepEqual(customers.map((c: { email: string; plan: string }) => [c.email, c.plan]), [['ada@example.com', ids['brush-standard']]]);
    const txns = (await t.request({ method: 'GET', url: '/api/v1/transactions', key: testKey })).json().data.items;
    assert.deepEqual(txns.map((x: { txref: string; status: string; amount: number }) => [x.txref, x.status, x.amount]), [[txref, 'succeeded', 39.5]]);
  });

  it('shows a decline, lets the buyer try another card, then sends them to the brand\'s redirectUrl', { skip }, async () => {
    const { ids, testKey } = await createBrandWithCatalog(t.db);
    const { link } = await createLink(t, testKey, courseBody(ids, { redirectUrl: `${brandSiteUrl}/thanks?order=9` }));
    const page = await browser.newPage();
    await page.goto(link);
    await page.getByLabel('Card number').fill(cards.declined);
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL((url) => url.href.startsWith(brandSiteUrl));
    assert.equal(new URL(page.url()).searchParams.get('status'), 'failed');

    await page.goto(link);
    await page.getByLabel('Card number').fill('1234 5678');
    await page.getByRole('button', { name: 'Pay' }).click();
    assert.ok(await page.getByRole('alert').filter({ hasText: 'not a sandbox test card' }).isVisible());

    await page.getByLabel('Card number').fill(cards.ok);
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL((url) => url.href.startsWith(brandSiteUrl) && url.searchParams.get('status') === 'succeeded');
    const url = new URL(page.url());
    assert.equal(url.pathname, '/thanks');
    assert.equal(url.searchParams.get('order'), '9');
    assert.match(url.searchParams.get('txref')!, /^tx_/);
    await page.close();
  });
});
