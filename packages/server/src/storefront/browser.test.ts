import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { loadCatalog } from '../catalog/load.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { browserSkip, launchChromium } from '../testing/browser.ts';
import { signUp } from '../testing/dashboard.ts';
import { createKey } from '../testing/factories.ts';
import { cards, submitCard } from '../testing/checkout-fixtures.ts';
import { freePort } from '../testing/processes.ts';
import { defaultDashboardDir } from '../dashboard/static.ts';

/**
 * The whole sale in a real Chromium against a real server: a creator sets the brand profile and
 * makes a product's share link in the dashboard; a buyer on a phone-sized page opens it from an
 * ad, fills every kind of checkout field, names a guest, adds an add-on, pays with the sandbox
 * card; the API then shows the transaction, membership, consent and attribution. axe-core runs on
 * every public page (no serious or critical violation). SCREENSHOT_DIR=… keeps the pages at 1366
 * and 390 px.
 */
const built = existsSync(join(defaultDashboardDir, 'index.html'));
const skip = browserSkip
  || (!built && process.env.CI !== 'true' ? 'build the dashboard: npm run build -w packages/dashboard (npm ci does it)' : false);
const shotDir = process.env.SCREENSHOT_DIR;

let t: TestApp;
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

// A small cover image carried in the page itself (the test machine reaches no other site).
const cover = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="600"><defs><linearGradient id="g" x1="0" x2="1" y1="0" y2="1"><stop offset="0" stop-color="#312e81"/><stop offset="1" stop-color="#9d174d"/></linearGradient></defs><rect width="1200" height="600" fill="url(#g)"/><circle cx="900" cy="220" r="120" fill="#fbbf24" opacity=".85"/><path d="M0 480 Q300 360 600 470 T1200 430 V600 H0Z" fill="#111827" opacity=".55"/></svg>')}`;

const catalog = {
  hubs: [{ ref: 'club', name: 'Night Sketch Club', description: 'Draw together every week, online.',
    tiers: [{ ref: 'club-member', name: 'Member', price: { amount: 8, currency: 'USD' }, recurrence: { periodic: 'monthly' }, perks: ['Weekly live session', 'Critique channel'] }] }],
  products: [{
    ref: 'workshop', type: 'event', title: 'Ink night: a live workshop', imageUrl: cover, keywords: ['ink', 'workshop', 'beginners'],
    description: 'Three hours of brush pens and ink washes, in the studio or online. All levels welcome.',
    event: { eventType: 'hybrid', venue: 'The Studio, 12 Canal St, Lisbon', dateTime: '2030-05-16T18:30:00.000Z', endDate: '2030-05-16T21:30:00.000Z' },
    items: [
      { ref: 'warmup', type: 'lesson', title: 'Warm-up sketches', duration: 1200 },
      { ref: 'inking', type: 'lesson', title: 'Inking technique', duration: 3600 },
      { ref: 'kit', type: 'addon', title: 'Ink starter kit', isAddon: true, price: { amount: 9, currency: 'USD' } },
    ],
    tiers: [
      { ref: 'pair', name: 'Pair ticket', price: { amount: 50, currency: 'USD' }, noOfTickets: 2, slots: 12, timeBound: '2030-05-15T12:00:00.000Z', perks: ['Two seats', 'Recording for a week'], items: ['warmup', 'inking'], isDefault: true },
      { ref: 'single', name: 'Single ticket', price: { amount: 30, currency: 'USD' }, discount: { amount: 5 }, slots: 20, items: ['warmup', 'inking'] },
    ],
    checkoutFields: [
      { label: 'Company', type: 'text' },
      { label: 'Work email', type: 'email' },
      { label: 'Emergency phone', type: 'phone' },
      { label: 'Years drawing', type: 'number' },
      { label: 'Experience level', type: 'select', required: true, options: ['Beginner', 'Intermediate', 'Advanced'] },
      { label: 'I agree to the studio rules', type: 'checkbox', required: true },
      { label: 'Date of birth', type: 'date' },
    ],
  }],
};

describe('storefront and web checkout in a browser', { skip }, () => {
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

  it('a creator shares a product; a buyer on a phone fills the form and pays; the API shows it all', async () => {
    const owner = await signUp(t, { brandName: 'Inkwell Studio' });
    const brandId = owner.brand.id as string;
    const ids = await t.db.transaction((tx) => loadCatalog(tx, brandId, catalog));
    const found: string[] = [];

    // The creator: brand profile in Settings, then the product's Share tab.
    const creator = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    const dash = await creator.newPage();
    await dash.goto(`${base}/dashboard/signin`);
    await dash.getByLabel('Email').fill(owner.email);
    await dash.getByLabel('Password').fill(owner.password);
    await dash.getByRole('button', { name: /sign in/i }).click();
    await dash.waitForURL((u) => !u.pathname.startsWith('/dashboard/signin'));
    await dash.goto(`${base}/dashboard/settings`);
    await dash.getByLabel('Storefront address (slug)').fill('inkwell-studio');
    await dash.getByLabel('Accent colour').fill('#6b21a8');
    await dash.getByLabel('Time zone').fill('Europe/Lisbon');
    await dash.getByLabel('Support email').fill('hello@inkwell.example');
    await dash.getByLabel('Sites that may embed your checkout').fill('https://inkwell.example\nhttps://shop.inkwell.example');
    await dash.getByRole('button', { name: 'Save profile' }).click();
    await dash.getByTestId('storefront-url').filter({ hasText: '/s/inkwell-studio' }).waitFor();
    await shot(dash, 'dashboard-brand-profile-1366');

    await dash.goto(`${base}/dashboard/catalog/products/${ids.workshop}`);
    await dash.getByRole('tab', { name: 'Share' }).click();
    await dash.getByRole('button', { name: 'Create share link' }).click();
    const shareBox = dash.getByTestId('share-url').filter({ hasText: '/buy/' });
    await shareBox.waitFor();
    const shareUrl = (await shareBox.textContent())!;
    assert.match(shareUrl, new RegExp(`^${base}/buy/${brandId}/clink_`));
    await dash.getByTestId('share-qr').first().waitFor();
    assert.ok(await dash.getByRole('button', { name: 'Copy link' }).first().isVisible());
    await shot(dash, 'dashboard-share-1366');
    await dash.setViewportSize({ width: 390, height: 844 });
    await shot(dash, 'dashboard-share-390');
    await creator.close();

    // The public pages at laptop and phone width, with axe.
    for (const width of [1366, 390]) {
      const ctx = await browser.newContext({ viewport: { width, height: width > 500 ? 900 : 844 } });
      const page = await ctx.newPage();
      await page.goto(`${base}/s/inkwell-studio`);
      assert.ok(await page.getByRole('heading', { name: 'Ink night: a live workshop' }).isVisible());
      found.push(...await seriousViolations(page, `storefront ${width}`));
      await shot(page, `storefront-${width}`);
      await page.getByRole('link', { name: 'Ink night: a live workshop' }).click();
      await page.getByRole('heading', { name: 'Ink night: a live workshop', level: 1 }).waitFor();
      assert.ok(await page.getByText('12 left').isVisible());
      assert.ok(await page.getByText(/Sales end Wednesday, 15 May 2030/).isVisible());
      found.push(...await seriousViolations(page, `product page ${width}`));
      await shot(page, `product-page-${width}`);
      await page.goto(`${base}/s/inkwell-studio/h/${ids.club}`);
      found.push(...await seriousViolations(page, `hub page ${width}`));
      await shot(page, `hub-page-${width}`);
      await ctx.close();
    }

    // The buyer, on a phone, from an ad.
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'pt-PT' });
    const page = await phone.newPage();
    await page.goto(`${shareUrl}?utm_source=instagram&utm_medium=bio&utm_campaign=may&fbclid=FB.123`);
    await page.getByRole('heading', { name: 'Ink night: a live workshop' }).waitFor();
    found.push(...await seriousViolations(page, 'checkout form'));
    await shot(page, 'checkout-form-390');
    await page.getByRole('button', { name: /Continue to pay/ }).click();
    await page.getByRole('alert').waitFor();
    assert.ok(await page.getByText('Full name is required').first().isVisible());
    assert.ok(await page.getByText(/Experience level is required/).first().isVisible());
    assert.ok(await page.getByText(/Guest 1 name is required/).first().isVisible());
    found.push(...await seriousViolations(page, 'checkout form with errors'));
    await shot(page, 'checkout-form-errors-390');

    await page.getByLabel('Full name').fill('Ada Buyer');
    await page.getByLabel('Email', { exact: true }).fill('ada.buyer@example.com');
    await page.getByLabel(/^Phone/).fill('+351 912 345 678');
    await page.getByLabel(/^Company/).fill('Ink & Co');
    await page.getByLabel(/^Work email/).fill('ada@inkco.example');
    await page.getByLabel(/^Emergency phone/).fill('+351 913 000 111');
    await page.getByLabel(/^Years drawing/).fill('4');
    await page.getByLabel('Experience level').selectOption('Intermediate');
    await page.getByLabel('I agree to the studio rules').check();
    await page.getByLabel(/^Date of birth/).fill('1990-02-03');
    await page.getByLabel('Guest 1 name').fill('Grace Guest');
    await page.getByLabel('Guest 1 email').fill('grace@example.com');
    await page.getByLabel(/Ink starter kit/).check();
    assert.equal(await page.getByLabel('Country code').inputValue(), 'PT', 'pre-filled from the browser');
    assert.equal(await page.getByLabel(/Email me news/).isChecked(), false, 'the opt-in starts unticked');
    await page.getByLabel(/Email me news/).check();
    await page.getByRole('button', { name: /Continue to pay/ }).click();

    await page.getByRole('button', { name: 'Pay 59.00 USD' }).waitFor();
    found.push(...await seriousViolations(page, 'hosted payment page'));
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await shot(page, 'checkout-pay-390');
    await page.getByRole('button', { name: 'Pay 59.00 USD' }).click();
    await page.getByRole('heading', { name: 'Payment successful' }).waitFor();
    assert.ok(await page.getByRole('heading', { name: 'What happens next' }).isVisible());
    found.push(...await seriousViolations(page, 'success page'));
    await shot(page, 'checkout-success-390');
    const txref = (await page.locator('#txref').textContent())!;
    await phone.close();

    assert.deepEqual(found, []);

    // Everything the buyer gave, through the API.
    const { key } = await createKey(t.db, brandId, { mode: 'test' });
    const tx = (await t.request({ method: 'GET', url: `/api/v1/transactions/${txref}`, key })).json().data;
    assert.equal(tx.status, 'succeeded');
    assert.equal(tx.amount, 59);
    assert.deepEqual(tx.attribution, { utmRef: 'utm_source=instagram&utm_medium=bio&utm_campaign=may', adClickID: 'FB.123', adType: 'facebook' });
    const [member] = (await t.request({ method: 'GET', url: `/api/v1/products/${ids.workshop}/customers?email=ada.buyer@example.com`, key })).json().data.items;
    assert.equal(member.status, 'active');
    assert.equal(member.plan, ids.pair);
    assert.equal(member.phone, '+351 912 345 678');
    assert.equal(member.receiveEmails, true);
    const [link] = await t.db.query<{ form_data: Record<string, unknown>; guests: unknown[]; extras: Record<string, unknown> }>(
      'SELECT form_data, guests, extras FROM payment_links WHERE brand_id = $1 AND transaction_id IS NOT NULL', [brandId]);
    assert.deepEqual(link.form_data, { company: 'Ink & Co', workEmail: 'ada@inkco.example', emergencyPhone: '+351 913 000 111', yearsDrawing: 4,
      experienceLevel: 'Intermediate', iAgreeToTheStudioRules: true, dateOfBirth: '1990-02-03' });
    assert.deepEqual(link.guests, [{ id: 'guest-1', fullName: 'Grace Guest', email: 'grace@example.com' }]);
    assert.equal(link.extras.countryCode, 'PT');
    // One of the pair's 12 places is taken (a pair ticket is one purchase).
    assert.ok((await t.app.inject({ method: 'GET', url: `/s/inkwell-studio/p/${ids.workshop}` })).body.includes('11 left'));

    // The creator sees where the sale came from and the consent, in the dashboard and in its CSV exports.
    const back = await browser.newContext({ viewport: { width: 1366, height: 900 }, acceptDownloads: true });
    const sales = await back.newPage();
    await sales.goto(`${base}/dashboard/signin`);
    await sales.getByLabel('Email').fill(owner.email);
    await sales.getByLabel('Password').fill(owner.password);
    await sales.getByRole('button', { name: /sign in/i }).click();
    await sales.waitForURL((u) => !u.pathname.startsWith('/dashboard/signin'));
    await sales.goto(`${base}/dashboard/money`);
    const row = sales.getByRole('row', { name: new RegExp(txref) });
    await row.getByTestId('attribution').filter({ hasText: 'From Facebook ad · source instagram, medium bio, campaign may' }).waitFor();
    await shot(sales, 'dashboard-sales-attribution-1366');
    const csvOf = async (button: string) => {
      const [download] = await Promise.all([sales.waitForEvent('download'), sales.getByRole('button', { name: button }).click()]);
      const [header, line] = (await readFile(await download.path())).toString('utf8').replace(/^\uFEFF/, '').split('\r\n');
      return { header, line };
    };
    const txCsv = await csvOf('Export CSV');
    assert.match(txCsv.header, /,utmRef,adClickID,adType$/);
    assert.match(txCsv.line, /,"?utm_source=instagram&utm_medium=bio&utm_campaign=may"?,FB\.123,facebook$/);
    await sales.goto(`${base}/dashboard/people?product=${ids.workshop}`);
    await sales.getByRole('row', { name: /ada\.buyer@example\.com/ }).getByTestId('receive-emails').waitFor();
    const memberCsv = await csvOf('Export CSV');
    assert.match(memberCsv.header, /,receiveEmails$/);
    assert.match(memberCsv.line, /^[^,]+,Ada Buyer,ada\.buyer@example\.com,.*,true$/);
    await back.close();
  });

  it('renders the laptop checkout and success pages, with no serious axe violation', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    const page = await ctx.newPage();
    const found: string[] = [];
    const [row] = await t.db.query<{ brand_id: string; id: string }>('SELECT brand_id, id FROM checkout_links ORDER BY created_at DESC LIMIT 1');
    await page.goto(`${base}/buy/${row.brand_id}/${row.id}`);
    found.push(...await seriousViolations(page, 'checkout form 1366'));
    await shot(page, 'checkout-form-1366');
    const [paid] = await t.db.query<{ brand_id: string; id: string; txref: string }>(
      `SELECT p.brand_id, p.id, t.txref FROM payment_links p JOIN transactions t ON t.brand_id = p.brand_id AND t.id = p.transaction_id ORDER BY p.created_at DESC LIMIT 1`);
    await page.goto(`${base}/checkout/${paid.brand_id}/${paid.id}/result?txref=${paid.txref}`);
    found.push(...await seriousViolations(page, 'success page 1366'));
    await shot(page, 'checkout-success-1366');
    await ctx.close();
    assert.deepEqual(found, []);
  });

  it('passes axe on the sold-out, sales-ended and declined pages at laptop and phone width', async () => {
    const owner = await signUp(t, { brandName: 'Last Seats Press' });
    const brandId = owner.brand.id as string;
    const ids = await t.db.transaction((tx) => loadCatalog(tx, brandId, { products: [{
      ref: 'talk', type: 'event', title: 'Evening talk: drawing cities', imageUrl: cover, description: 'An hour on urban sketching, with questions.',
      event: { eventType: 'in_person', venue: 'The Studio, 12 Canal St, Lisbon', dateTime: '2030-06-20T18:00:00.000Z' },
      tiers: [
        { ref: 'seat', name: 'Front row', price: { amount: 15, currency: 'USD' }, slots: 1 },
        { ref: 'early', name: 'Early bird', price: { amount: 10, currency: 'USD' }, timeBound: '2030-01-01T00:00:00.000Z' },
        { ref: 'standing', name: 'Standing', price: { amount: 8, currency: 'USD' } },
      ],
    }] }));
    // The early-bird offer ended yesterday.
    await t.db.query(`UPDATE tiers SET time_bound = now() - interval '1 day' WHERE brand_id = $1 AND id = $2`, [brandId, ids.early]);
    const { key } = await createKey(t.db, brandId, { mode: 'test' });
    assert.equal((await t.request({ method: 'PATCH', url: '/api/v1/brand', key, payload: { slug: 'last-seats', accentColor: '#9a3412' } })).statusCode, 200);
    const link = async (plan: string) => {
      const res = await t.request({ method: 'POST', url: '/api/v1/checkout-links', key, payload: { items: [{ id: ids.talk, plan }], expiresAt: '2031-01-01T00:00:00Z' } });
      assert.equal(res.statusCode, 200, res.body);
      return new URL(res.json().data.url).pathname;
    };
    const [seat, standing, ended] = [await link(ids.seat), await link(ids.standing), await link(ids.standing)];
    await t.db.query(`UPDATE checkout_links SET expires_at = now() - interval '1 minute' WHERE brand_id = $1 AND id = $2`, [brandId, ended.split('/').pop()]);
    const form = (path: string, email: string) => t.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ fullName: 'Rosa Buyer', email, countryCode: 'PT' }).toString() });
    const soldTo = await form(seat, 'first@example.com');
    assert.equal((await submitCard(t, String(soldTo.headers.location), cards.ok)).statusCode, 303, 'the one front-row seat is sold');
    const declinedAt = await form(standing, 'rosa@example.com');
    const declined = await submitCard(t, String(declinedAt.headers.location), cards.declined);
    assert.equal(declined.statusCode, 303);

    const pages = [
      { name: 'product-soldout-ended', path: `/s/last-seats/p/${ids.talk}`, expect: /Sales have ended/ },
      { name: 'checkout-soldout', path: seat, expect: /Sold out: "Front row" has no places left/ },
      { name: 'checkout-sales-ended', path: ended, expect: /Sales through this link ended/ },
      { name: 'checkout-declined', path: String(declined.headers.location), expect: /Payment failed: .*No money was taken/ },
    ];
    const found: string[] = [];
    for (const width of [1366, 390]) {
      const ctx = await browser.newContext({ viewport: { width, height: width > 500 ? 900 : 844 } });
      const page = await ctx.newPage();
      for (const p of pages) {
        await page.goto(`${base}${p.path}`);
        await page.getByText(p.expect).first().waitFor();
        found.push(...await seriousViolations(page, `${p.name} ${width}`));
        await shot(page, `${p.name}-${width}`);
      }
      await ctx.close();
    }
    assert.deepEqual(found, []);
  });
});
