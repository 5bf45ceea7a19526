import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { checkoutEventOf } from '@creator-commerce/sdk';
import { loadCatalog } from '../catalog/load.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { browserSkip, launchChromium } from '../testing/browser.ts';
import { cards } from '../testing/checkout-fixtures.ts';
import { createBrandWithCatalog } from '../testing/factories.ts';
import { freePort } from '../testing/processes.ts';

/**
 * The embeddable overlay (issue 24, item 6; docs/checkout.md "Embedding the checkout"): /embed.js,
 * the brand's allow-list of sites (`embedOrigins` on PATCH /brand) answered as CSP
 * `frame-ancestors`, and the typed `postMessage` events. The browser test serves a creator's page
 * from other local ports (other origins): the allowed one opens the overlay, pays with the sandbox
 * card and receives checkout.opened, checkout.completed and checkout.closed; the other is refused
 * by the browser. SCREENSHOT_DIR=… keeps the overlay at 1366 and 390 px.
 */

let t: TestApp;
let base: string;
let shop: Awaited<ReturnType<typeof createBrandWithCatalog>>;

const simpleProduct = { products: [{ ref: 'zine', type: 'digital', title: 'Ink zine, issue 4', description: 'Forty pages of brush studies, as a PDF.',
  tiers: [{ ref: 'pdf', name: 'PDF', price: { amount: 12, currency: 'USD' } }] }] };

async function makeCheckoutLink(key: string, brandId: string) {
  const refs = await loadCatalog(t.db, brandId, simpleProduct);
  const res = await t.request({ method: 'POST', url: '/api/v1/checkout-links', key, payload: { items: [{ id: refs.zine, plan: refs.pdf }], redirectUrl: 'https://ink.example/thanks' } });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().data as { id: string; url: string };
}

const patchBrand = (payload: object, key = shop.testKey) => t.request({ method: 'PATCH', url: '/api/v1/brand', key, payload });

before(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await startTestApp({ publicUrl: base });
  await t.app.listen({ port, host: '127.0.0.1' });
  shop = await createBrandWithCatalog(t.db);
});
after(async () => { await t?.close(); });

describe('embedOrigins on the brand profile', () => {
  it('keeps the sites as origins and refuses anything else, naming the entry', async () => {
    const saved = await patchBrand({ embedOrigins: ['https://Ink-Studio.example/', 'http://localhost:8080', 'https://ink-studio.example'] });
    assert.equal(saved.statusCode, 200, saved.body);
    assert.deepEqual(saved.json().data.embedOrigins, ['https://ink-studio.example', 'http://localhost:8080']);
    assert.deepEqual((await t.request({ method: 'GET', url: '/api/v1/brand', key: shop.testKey })).json().data.embedOrigins,
      ['https://ink-studio.example', 'http://localhost:8080']);
    for (const [bad, field] of [
      [['https://ink.example', 'https://ink.example/shop'], 'embedOrigins[1]'],
      [['ftp://ink.example'], 'embedOrigins[0]'],
      [['https://*.ink.example'], 'embedOrigins[0]'],
      [['ink.example'], 'embedOrigins[0]'],
      ['https://ink.example', 'embedOrigins'],
    ] as const) {
      const res = await patchBrand({ embedOrigins: bad });
      assert.equal(res.statusCode, 400, res.body);
      assert.ok(res.json().message.includes(`\`${field}\``), res.json().message);
    }
    assert.deepEqual((await patchBrand({ embedOrigins: null })).json().data.embedOrigins, []);
  });
});

describe('who may frame the checkout', () => {
  it('answers the brand\'s sites as frame-ancestors on the checkout pages, and none anywhere else', async () => {
    const other = await createBrandWithCatalog(t.db);
    const link = await makeCheckoutLink(other.testKey, other.brand.id);
    const path = new URL(link.url).pathname;
    const csp = (res: { headers: Record<string, unknown> }) => String(res.headers['content-security-policy']);

    const before = await t.app.inject({ method: 'GET', url: path });
    assert.match(csp(before), /frame-ancestors 'none'/);
    assert.equal(before.headers['x-frame-options'], 'DENY');

    assert.equal((await patchBrand({ embedOrigins: ['https://ink.example'] }, other.testKey)).statusCode, 200);
    const form = await t.app.inject({ method: 'GET', url: `${path}?embed=${encodeURIComponent('https://ink.example')}` });
    assert.equal(form.statusCode, 200);
    assert.match(csp(form), /frame-ancestors https:\/\/ink\.example;/);
    assert.equal(form.headers['x-frame-options'], undefined);
    assert.match(csp(form), /default-src 'none'/);
    assert.doesNotMatch(csp(form), /script-src/, 'the form runs no script');
    assert.ok(form.body.includes(`action="${path}?embed=https%3A%2F%2Fink.example"`), 'the form keeps the overlay\'s site');

    // The form is still allowed to be framed by the brand's sites only; a site that is not listed gets no special treatment.
    const stranger = await t.app.inject({ method: 'GET', url: `${path}?embed=${encodeURIComponent('https://evil.example')}` });
    assert.match(csp(stranger), /frame-ancestors https:\/\/ink\.example;/);
    assert.ok(stranger.body.includes(`action="${path}"`));

    const storefront = await t.app.inject({ method: 'GET', url: `/s/${other.brand.id}` });
    assert.match(csp(storefront), /frame-ancestors 'none'/);
  });

  it('serves /embed.js as a small script with no framework, under 10 KB gzipped', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/embed.js' });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/javascript/);
    const gz = gzipSync(res.rawPayload, { level: 9 }).length;
    assert.ok(gz < 10 * 1024, `embed.js is ${gz} bytes gzipped`);
    assert.ok(res.body.includes('checkout.opened') && res.body.includes('checkout.closed'));
    const compressed = await t.app.inject({ method: 'GET', url: '/embed.js', headers: { 'accept-encoding': 'gzip' } });
    if (compressed.headers['content-encoding']) assert.ok(compressed.rawPayload.length < 10 * 1024);
  });
});

const skip = browserSkip;
describe('the overlay in a browser, on the creator\'s own site', { skip }, () => {
  let browser: Browser;
  const sites: Server[] = [];
  const shotDir = process.env.SCREENSHOT_DIR;

  /** A creator's page on another origin: the script, a Buy link, and every event the page receives. */
  async function site(checkoutUrl: string): Promise<string> {
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Ink Studio</title>
<style>body{font:18px/1.5 Georgia,serif;margin:0;padding:2rem;background:#fffaf0;color:#222}a.buy{display:inline-block;background:#6b21a8;color:#fff;padding:.8rem 1.4rem;border-radius:8px;text-decoration:none}</style>
<script>window.events = []; addEventListener('message', function (e) { if (e.data && e.data.source === 'creator-commerce-checkout') window.events.push({ origin: e.origin, data: e.data }); });</script>
<script src="${base}/embed.js" defer></script></head>
<body><h1>Ink Studio</h1><p>Issue 4 of the zine is out: forty pages of brush studies.</p>
<p><a class="buy" href="${checkoutUrl}" data-checkout-overlay>Buy the zine, 12 USD</a></p></body></html>`;
    const port = await freePort();
    const server = createServer((_req, res) => { res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }); res.end(html); });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    sites.push(server);
    return `http://127.0.0.1:${port}`;
  }

  const events = (page: Page) => page.evaluate(() => (window as unknown as { events: { origin: string; data: Record<string, unknown> }[] }).events);

  async function eventArrives(page: Page, type: string) {
    const deadline = Date.now() + 15_000;
    while (!(await events(page)).some((e) => e.data.type === type)) {
      if (Date.now() > deadline) throw new Error(`no ${type} event; got ${JSON.stringify(await events(page))}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  before(async () => {
    browser = await launchChromium();
    if (shotDir) await mkdir(shotDir, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    for (const s of sites) await new Promise((r) => s.close(r));
  });

  it('opens the checkout over an allowed site, pays with the sandbox card and posts opened, completed and closed', async () => {
    const owner = await createBrandWithCatalog(t.db);
    const link = await makeCheckoutLink(owner.testKey, owner.brand.id);
    const allowed = await site(link.url);
    assert.equal((await patchBrand({ embedOrigins: [allowed], displayName: 'Ink Studio', accentColor: '#6b21a8' }, owner.testKey)).statusCode, 200);

    for (const width of [1366, 390]) {
      const ctx = await browser.newContext({ viewport: { width, height: width > 500 ? 900 : 844 } });
      const page = await ctx.newPage();
      await page.goto(allowed);
      await page.getByRole('link', { name: /Buy the zine/ }).click();
      const overlay = page.frameLocator('iframe[title="Checkout"]');
      await overlay.getByLabel('Full name').waitFor();
      if (shotDir) await page.screenshot({ path: join(shotDir, `embed-overlay-${width}.png`) });
      if (width === 1366) {
        // Focus starts on the close button, so Escape closes the overlay before the buyer tabs into the form.
        await page.keyboard.press('Escape');
        assert.equal(await page.locator('[data-checkout-overlay-root]').count(), 0);
        await ctx.close();
        continue;
      }

      await overlay.getByLabel('Full name').fill('Mary Shelley');
      await overlay.getByLabel('Email', { exact: true }).fill('mary@example.com');
      await overlay.getByLabel('Country code').fill('GB');
      await overlay.getByRole('button', { name: 'Continue to payment' }).click();
      await overlay.getByLabel('Card number').fill(cards.ok);
      await overlay.getByRole('button', { name: 'Pay 12.00 USD' }).click();
      await overlay.getByRole('heading', { name: 'Payment successful' }).waitFor();
      await eventArrives(page, 'checkout.completed');
      if (shotDir) await page.screenshot({ path: join(shotDir, `embed-overlay-paid-${width}.png`) });
      await page.getByRole('button', { name: 'Close checkout' }).click();
      await eventArrives(page, 'checkout.closed');
      assert.equal(await page.locator('[data-checkout-overlay-root]').count(), 0, 'the overlay is gone');

      const got = await events(page);
      // Two opens (the laptop's context is another page): this page saw one open, one completion, one close.
      assert.deepEqual(got.map((e) => e.data.type), ['checkout.opened', 'checkout.completed', 'checkout.closed']);
      assert.deepEqual(got.map((e) => e.origin), [allowed, base, allowed], 'completed comes from the service, the others from the site\'s own script');
      const completed = got[1].data;
      assert.match(String(completed.txref), /^tx_/);
      assert.equal(completed.amount, 1200);
      assert.equal(completed.currency, 'USD');
      assert.match(String(completed.redirectUrl), /^https:\/\/ink\.example\/thanks\?txref=tx_.+&status=succeeded$/);
      assert.equal(got[2].data.completed, true);
      assert.equal(got[0].data.url, link.url);
      // The SDK's typed reader takes each from where it must come, and not a completion the page forged itself.
      assert.deepEqual(got.map((e) => checkoutEventOf(e, base, allowed)?.type), ['checkout.opened', 'checkout.completed', 'checkout.closed']);
      assert.equal(checkoutEventOf({ origin: allowed, data: completed }, base, allowed), undefined);

      const tx = await t.request({ method: 'POST', url: '/api/v1/payments/verify', key: owner.testKey, payload: { txref: completed.txref } });
      assert.equal(tx.statusCode, 200, tx.body);
      assert.equal(tx.json().data.status, 'succeeded');
      await ctx.close();
    }
  });

  it('is refused by the browser on a site the brand did not list', async () => {
    const owner = await createBrandWithCatalog(t.db);
    const link = await makeCheckoutLink(owner.testKey, owner.brand.id);
    const listed = await site(link.url);
    const stranger = await site(link.url);
    assert.equal((await patchBrand({ embedOrigins: [listed] }, owner.testKey)).statusCode, 200);

    const ctx = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    const page = await ctx.newPage();
    const refusals: string[] = [];
    page.on('console', (m) => { if (/frame-ancestors/.test(m.text())) refusals.push(m.text()); });
    await page.goto(stranger);
    const framed = page.waitForEvent('framenavigated', { predicate: (f) => f !== page.mainFrame() });
    await page.getByRole('link', { name: /Buy the zine/ }).click();
    const frame = await framed;
    await frame.waitForLoadState('load').catch(() => {});
    await page.waitForTimeout(300);
    // Chromium shows its own error page instead of the checkout: nothing of ours is in the frame.
    assert.equal(await page.frameLocator('iframe[title="Checkout"]').getByLabel('Full name').count(), 0);
    assert.ok(refusals.length > 0 || frame.url().startsWith('chrome-error:'), `frame at ${frame.url()}`);
    const got = await events(page);
    assert.deepEqual(got.map((e) => e.data.type), ['checkout.opened']);
    await ctx.close();
  });
});
