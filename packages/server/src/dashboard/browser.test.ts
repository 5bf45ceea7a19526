import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { browserSkip, launchChromium } from '../testing/browser.ts';
import { freePort } from '../testing/processes.ts';
import { startReceiver, type Receiver } from '../testing/receiver.ts';
import { defaultDashboardDir } from './static.ts';

/**
 * The dashboard SPA in a real headless Chromium against a real server (and worker) on an
 * ephemeral port: sign up, the test-mode band, API keys used from the test, webhooks delivered to
 * a real receiver. It needs the build (`npm ci` makes it, or `npm run build -w packages/dashboard`);
 * without the build or Chromium the file is skipped, except in CI (CI=true). SCREENSHOT_DIR keeps
 * screenshots of every page at laptop and phone width.
 */
const built = existsSync(join(defaultDashboardDir, 'index.html'));
const skip = browserSkip
  || (!built && process.env.CI !== 'true' ? 'build the dashboard: npm run build -w packages/dashboard (npm ci does it)' : false);

let t: TestApp;
let browser: Browser;
let base: string;
let rx: Receiver;

async function shot(page: Page, name: string) {
  if (process.env.SCREENSHOT_DIR) await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/${name}.png`, fullPage: true });
}

/** A page that records console errors and failed requests the dashboard should never cause. */
async function newPage(width = 1366) {
  const page = await browser.newPage({ viewport: { width, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] });
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error' && !/status of 40[134]/.test(m.text())) problems.push(m.text()); });
  page.on('request', (r) => { if (!r.url().startsWith(base) && !r.url().startsWith('data:')) problems.push(`request to another origin: ${r.url()}`); });
  return { page, problems };
}

let signups = 0;
async function signUp(page: Page) {
  signups += 1;
  const email = `owner${signups}-${Date.now()}@example.com`;
  await page.goto(`${base}/dashboard/`);
  await page.waitForURL(/\/dashboard\/signin\?returnTo=/);
  await page.getByRole('link', { name: 'Create an account' }).click();
  await page.getByLabel('Your name').fill('Ada Owner');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByLabel('Brand name').fill('Brushwork Studio');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByTestId('test-mode-band').waitFor();
  return email;
}

/** Polls (clicking Refresh) until the delivery log shows a row with this text. */
async function waitForDeliveryRow(page: Page, text: string) {
  const row = page.getByTestId('delivery-row').filter({ hasText: text }).first();
  for (let i = 0; i < 60; i++) {
    if (await row.isVisible()) return row;
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.waitForTimeout(250);
  }
  throw new Error(`no delivery row with "${text}"`);
}

describe('the dashboard in a browser', { skip }, () => {
  before(async () => {
    // The CSRF check compares Origin with PUBLIC_URL, so PUBLIC_URL is where we listen.
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await startTestApp({ publicUrl: base, worker: true });
    await t.app.listen({ port, host: '127.0.0.1' });
    rx = await startReceiver();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await rx?.close();
    await t?.close();
  });

  it('signs up into test mode, adds a webhook, sends a test event, shows the delivery and its attempt, and resends it', async () => {
    const { page, problems } = await newPage();
    await signUp(page);
    assert.match(await page.getByTestId('test-mode-band').innerText(), /Test mode/);
    assert.equal(await page.getByRole('switch', { name: 'Test mode' }).getAttribute('aria-checked'), 'true');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
    await page.getByText('No test endpoints yet').waitFor();
    await page.getByRole('button', { name: 'Add endpoint' }).first().click();
    await page.getByLabel('Endpoint URL').fill(rx.url);
    await page.getByLabel('member.joined').check();
    await page.getByRole('dialog').getByRole('button', { name: 'Add endpoint' }).click();
    const secret = await page.getByTestId('signing-secret').innerText();
    assert.match(secret, /^whsec_/);
    assert.ok(await page.getByText("you won't see this again").isVisible());
    rx.secret = secret;
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('link', { name: rx.url }).waitFor();

    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByRole('dialog').getByLabel('Event type').click();
    await page.getByRole('option', { name: 'member.joined' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Send' }).click();
    const [first] = await rx.waitFor(1);
    assert.equal(first.json.type, 'member.joined');
    assert.ok(first.verified, 'both signatures match the secret the page showed once');

    const row = await waitForDeliveryRow(page, 'Succeeded');
    await row.getByRole('button', { name: 'member.joined' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('attempt').first().waitFor();
    assert.match(await dialog.getByTestId('attempt').first().innerText(), /#1[\s\S]*200[\s\S]*ms/);
    await dialog.getByRole('button', { name: 'Resend' }).click();
    const [, again] = await rx.waitFor(2);
    assert.equal(again.json.id, first.json.id, 'a resend carries the same event id');
    await dialog.getByTestId('attempt').nth(1).waitFor({ timeout: 10_000 });
    await shot(page, 'webhooks-delivery-1366');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // The endpoint's own page: reveal the secret it showed once.
    await page.getByRole('link', { name: rx.url }).click();
    await page.getByRole('button', { name: 'Reveal' }).click();
    await page.getByTestId('revealed-secret').filter({ hasText: secret }).waitFor();

    assert.deepEqual(problems, []);
    await page.close();
  });

  it('creates an API key shown once, copies it, uses it, rolls it with a grace period and revokes it', async () => {
    const { page, problems } = await newPage();
    await signUp(page);
    const ping = async (key: string) => (await fetch(`${base}/api/v1/ping`, { headers: { 'x-service-api': key } })).status;

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).click();
    await page.getByText('No test keys yet').waitFor();
    await page.getByRole('button', { name: 'Create key' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('Shop backend');
    await dialog.getByLabel('products:read').check();
    await dialog.getByLabel('webhooks:write').check();
    await dialog.getByRole('button', { name: 'Create key' }).click();
    const shown = await page.getByTestId('new-key').innerText();
    assert.match(shown, /^svc_test_/);
    assert.ok(await dialog.getByText("you won't see this again").isVisible());
    await dialog.getByRole('button', { name: 'Copy' }).click();
    await dialog.getByRole('button', { name: 'Copied' }).waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(copied, shown);
    await dialog.getByRole('button', { name: 'Done' }).click();

    const pinged = await fetch(`${base}/api/v1/ping`, { headers: { 'x-service-api': copied } });
    const body = await pinged.json();
    assert.equal(pinged.status, 200);
    assert.equal(body.data.mode, 'test');
    assert.deepEqual([...body.data.scopes].sort(), ['products:read', 'webhooks:write']);

    const row = page.getByRole('row').filter({ hasText: 'Shop backend' });
    assert.match(await row.innerText(), new RegExp(`${copied.slice(0, 13)}…${copied.slice(-4)}`));
    await row.getByRole('button', { name: 'Roll' }).click();
    await dialog.getByLabel('Keep the old key working for').click();
    await page.getByRole('option', { name: '1 hour' }).click();
    await dialog.getByRole('button', { name: 'Roll key' }).click();
    const rolled = await page.getByTestId('rolled-key').innerText();
    assert.notEqual(rolled, copied);
    assert.match(await dialog.innerText(), /old key keeps working until/);
    await dialog.getByRole('button', { name: 'Done' }).click();
    assert.equal(await ping(rolled), 200, 'the new key works');
    assert.equal(await ping(copied), 200, 'the old key works during its grace period');

    // Two rows now: the new key (active) and the old one (expires in an hour). Revoke the old one.
    const expiring = page.getByRole('row').filter({ hasText: 'Expires' });
    await expiring.waitFor();
    await expiring.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke key' }).click();
    await page.getByRole('row').filter({ hasText: 'Revoked' }).waitFor();
    assert.equal(await ping(copied), 401, 'a revoked key is refused at once');
    assert.equal(await ping(rolled), 200);
    await shot(page, 'api-keys-flow-1366');

    // Live mode: no band, none of the test keys, and it stays so after a reload (stored server-side).
    await page.getByRole('switch', { name: 'Test mode' }).click();
    await page.getByText('No live keys yet').waitFor();
    assert.equal(await page.getByTestId('test-mode-band').count(), 0);
    await page.reload();
    await page.getByText('No live keys yet').waitFor();
    assert.equal(await page.getByRole('switch', { name: 'Test mode' }).getAttribute('aria-checked'), 'false');
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('tells a throttled sign-in when to try again', async () => {
    const email = `throttled-${Date.now()}@example.com`;
    for (let i = 0; i < 10; i++) {
      await fetch(`${base}/dashboard/api/signin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'wrong password' }) });
    }
    const { page } = await newPage(390);
    await page.goto(`${base}/dashboard/signin`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert').filter({ hasText: /try again/i });
    await alert.waitFor();
    assert.match(await alert.innerText(), /Too many failed sign-in attempts\. Try again in/);
    await page.close();
  });

  it('lets an invited developer in to the developer settings only', async () => {
    const { page: owner } = await newPage();
    await signUp(owner);
    await owner.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Team' }).click();
    await owner.getByRole('button', { name: 'Invite' }).first().click();
    await owner.getByRole('dialog').getByRole('button', { name: 'Create link' }).click();
    const link = await owner.getByTestId('invite-link').innerText();
    assert.match(link, /\/dashboard\/invite\?token=/);
    await owner.close();

    const { page: dev, problems } = await newPage(390);
    await dev.goto(link.replace(/^https?:\/\/[^/]+/, base));
    await dev.getByLabel('Email').fill(`dev-${Date.now()}@example.com`);
    await dev.getByLabel('Password').fill('another good password');
    await dev.getByLabel('Your name (new accounts only)').fill('Grace Developer');
    await dev.getByRole('button', { name: 'Join' }).click();
    await dev.getByRole('heading', { name: 'API keys' }).waitFor();
    const nav = dev.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('button', { name: 'Menu' }).click(); // at 390 px the navigation opens from Menu
    assert.deepEqual(await nav.getByRole('link').allInnerTexts(), ['API keys', 'Webhooks', 'Events', 'Emails', 'Apps']);
    await dev.goto(`${base}/dashboard/team`);
    await dev.getByRole('heading', { name: 'API keys' }).waitFor();
    assert.deepEqual(problems, []);
    await dev.close();
  });

  it('fits every page on a laptop and a phone, with the test band on each signed-in page', async () => {
    const { page, problems } = await newPage();
    await signUp(page);
    // Something on each list: an endpoint and a test event with its delivery.
    await page.evaluate(async (url) => {
      const session = await (await fetch('/dashboard/api/session')).json();
      const headers = { 'content-type': 'application/json', 'x-csrf-token': session.data.csrfToken };
      const made = await (await fetch('/api/v1/webhooks', { method: 'POST', headers, body: JSON.stringify({ url, events: ['member.joined'], description: 'Shop backend' }) })).json();
      await fetch('/api/v1/webhooks/test', { method: 'POST', headers, body: JSON.stringify({ eventType: 'member.joined', endpointID: made.data.id }) });
    }, rx.url);
    const endpointId = (await page.evaluate(async () => (await (await fetch('/api/v1/webhooks')).json()).data.items[0].id)) as string;
    const eventId = (await page.evaluate(async () => (await (await fetch('/api/v1/events')).json()).data.items[0].id)) as string;

    const signedIn: [string, string][] = [
      ['catalog', '/dashboard/catalog'],
      ['api-keys', '/dashboard/developers/api-keys'],
      ['webhooks', '/dashboard/developers/webhooks'],
      ['webhook', `/dashboard/developers/webhooks/${endpointId}`],
      ['events', '/dashboard/developers/events'],
      ['event', `/dashboard/developers/events/${eventId}`],
      ['team', '/dashboard/team'],
      ['change-password', '/dashboard/account/password'],
      ['not-found', '/dashboard/no-such-page'],
    ];
    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: 900 });
      for (const [name, path] of signedIn) {
        await page.goto(base + path, { waitUntil: 'networkidle' });
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        assert.ok(await page.getByTestId('test-mode-band').isVisible(), `${name}: the test band`);
        const heading = (await page.getByRole('heading', { level: 1 }).first().textContent())!.trim();
        assert.equal(await page.title(), `${heading} · Dashboard`, `${name}: the tab is titled after the page`);
        await shot(page, `${name}-${width}`);
        const fits = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
        assert.ok(fits, `${name} at ${width} px: no sideways scrolling of the page`);
      }
    }
    const signedOut = await browser.newPage();
    for (const width of [1366, 390]) {
      await signedOut.setViewportSize({ width, height: 900 });
      for (const [name, path] of [['signin', '/dashboard/signin'], ['signup', '/dashboard/signup'], ['reset-password', '/dashboard/reset-password?token=abc'], ['invite', '/dashboard/invite?token=abc']]) {
        await signedOut.goto(base + path, { waitUntil: 'networkidle' });
        await signedOut.getByRole('heading', { level: 1 }).first().waitFor();
        await shot(signedOut, `${name}-${width}`);
        const fits = await signedOut.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
        assert.ok(fits, `${name} at ${width} px: no sideways scrolling of the page`);
      }
    }
    await signedOut.close();
    assert.deepEqual(problems.filter((p) => p.startsWith('page error') || p.startsWith('request to another origin')), []);
    await page.close();
  });
});
