import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadCatalog } from '../catalog/load.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { runCommonRouteTests } from '../testing/auth-checks.ts';
import { createLink, submitCard } from '../testing/checkout-fixtures.ts';
import { createBrand, createKey } from '../testing/factories.ts';
import { startTestSmtp, type TestSmtp } from '../testing/smtp.ts';

/**
 * The buyer portal through HTTP (the browser test drives the same pages in Chromium): customer
 * sessions minted by the API, the emailed sign-in link received by a real SMTP server, what a
 * buyer sees and downloads, cancelling and keeping a membership with the same services and
 * events as the API, and everything refused that must be.
 */
let t: TestApp;
let smtp: TestSmtp;
before(async () => {
  smtp = await startTestSmtp();
  t = await startTestApp({ publicUrl: 'http://portal.test', worker: true, mail: { smtpUrl: smtp.url, from: 'receipts@portal.test', retryScheduleMs: [50] } });
});
after(async () => {
  await t?.close();
  await smtp?.stop();
});

const catalog = {
  hubs: [{ ref: 'club', name: 'Night Sketch Club', tiers: [{ ref: 'monthly', name: 'Monthly', price: { amount: 8, currency: 'USD' }, recurrence: { periodic: 'monthly', interval: 1, count: 0 } }] }],
  products: [{
    ref: 'guide', type: 'digital', title: 'Ink basics workbook',
    items: [{ ref: 'pdf', type: 'pdf', title: 'Workbook (PDF)' }, { ref: 'video', type: 'video', title: 'Lesson video' }],
    tiers: [{ ref: 'guide-t', name: 'Standard', price: { amount: 12, currency: 'USD' }, items: ['pdf', 'video'] }],
  }],
};

let n = 0;
async function shop() {
  const brand = await createBrand(t.db, { name: 'Inkwell Studio' });
  const ids = await t.db.transaction((tx) => loadCatalog(tx, brand.id, catalog));
  const key = (await createKey(t.db, brand.id, { mode: 'test' })).key;
  const up = await t.request({ method: 'PUT', url: `/api/v1/products/${ids.guide}/items/${ids.pdf}/file?filename=workbook.pdf`, key, headers: { 'content-type': 'application/pdf' }, payload: Buffer.from('%PDF-1.7 the workbook') });
  assert.equal(up.statusCode, 200, up.body);
  const link = await t.request({ method: 'PUT', url: `/api/v1/products/${ids.guide}/items/${ids.video}/content`, key, payload: { url: 'https://video.example.com/lesson-1' } });
  assert.equal(link.statusCode, 200, link.body);
  return { brandId: brand.id, ids, key };
}

async function buy(s: Awaited<ReturnType<typeof shop>>, email: string, what: 'club' | 'guide') {
  const link = await createLink(t, s.key, {
    items: [what === 'club' ? { id: s.ids.club, plan: s.ids.monthly, type: 'membership' } : { id: s.ids.guide, plan: s.ids['guide-t'], type: 'digital' }],
    form: { formData: { fullName: 'Ada Lovelace', email } },
  });
  const paid = await submitCard(t, link.path, '4242 4242 4242 4242');
  assert.equal(paid.statusCode, 303, paid.body);
  const [m] = await t.db.query<{ id: string }>('SELECT id FROM memberships WHERE brand_id = $1 AND email = $2 AND ($3 = \'club\' AND hub_id IS NOT NULL OR $3 = \'guide\' AND product_id IS NOT NULL)', [s.brandId, email, what]);
  return m.id;
}

async function session(s: { key: string }, body: Record<string, unknown>) {
  const res = await t.request({ method: 'POST', url: '/api/v1/customer-sessions', key: s.key, payload: body });
  return res;
}

/** Follows a one-time URL: the session cookie it sets. */
async function enter(url: string) {
  const res = await t.app.inject({ method: 'GET', url: new URL(url).pathname + new URL(url).search });
  const cookie = String(res.headers['set-cookie'] ?? '');
  return { res, cookie: cookie.split(';')[0], raw: cookie };
}

const page = (path: string, cookie: string) => t.app.inject({ method: 'GET', url: path, headers: { cookie } });
const post = (path: string, cookie: string, origin = 'http://portal.test') =>
  t.app.inject({ method: 'POST', url: path, headers: { cookie, origin, 'content-type': 'application/x-www-form-urlencoded' }, payload: '' });

describe('POST /customer-sessions', () => {
  it('mints a one-time URL that opens the buyer\'s portal once, deep-linked, with an HttpOnly cookie', async () => {
    const s = await shop();
    const email = `ada${++n}@example.com`;
    const membershipId = await buy(s, email, 'club');
    const res = await session(s, { email: email.toUpperCase(), deepLink: membershipId, returnUrl: 'https://inkwell.example.com/account' });
    assert.equal(res.statusCode, 200, res.body);
    const data = res.json().data;
    assert.match(data.url, /^http:\/\/portal\.test\/portal\/[^/]+\/enter\?token=/);
    assert.equal(data.mode, 'test');
    const minutes = (Date.parse(data.expiresAt) - Date.now()) / 60_000;
    assert.ok(minutes > 14 && minutes <= 15, `valid 15 minutes, got ${minutes}`);

    const first = await enter(data.url);
    assert.equal(first.res.statusCode, 303);
    assert.match(String(first.res.headers.location), new RegExp(`focus=${membershipId}`));
    assert.match(first.raw, /HttpOnly/i);
    assert.match(first.raw, /SameSite=Lax/i);
    assert.match(first.raw, /Path=\/portal\//);
    const home = await page(new URL(String(first.res.headers.location)).pathname + new URL(String(first.res.headers.location)).search, first.cookie);
    assert.equal(home.statusCode, 200);
    assert.match(home.body, /Night Sketch Club/);
    assert.match(home.body, /Cancel at period end/);
    assert.match(home.body, /Back to Inkwell Studio/);
    assert.match(home.body, new RegExp(`class="card focus" id="${membershipId}"`));

    const again = await enter(data.url);
    assert.equal(again.res.statusCode, 410, 'the link works once');
    assert.equal(again.cookie, '');
  });

  it('refuses an address that bought nothing (404), a deep link that is not theirs and a bad return URL (400)', async () => {
    const s = await shop();
    const other = await shop();
    const email = `bea${++n}@example.com`;
    await buy(s, email, 'guide');
    const theirs = await buy(other, `cy${++n}@example.com`, 'club');
    assert.equal((await session(s, { email: 'nobody@example.com' })).statusCode, 404);
    const deep = await session(s, { email, deepLink: theirs });
    assert.equal(deep.statusCode, 400);
    assert.match(deep.json().message, /`deepLink`/);
    const back = await session(s, { email, returnUrl: 'javascript:alert(1)' });
    assert.equal(back.statusCode, 400);
    assert.match(back.json().message, /`returnUrl`/);
    const live = await createKey(t.db, s.brandId, { mode: 'live' });
    assert.equal((await session({ key: live.key }, { email })).statusCode, 404, 'a test-mode buyer is not a live one');
  });

  runCommonRouteTests('POST /customer-sessions', {
    method: 'POST', scope: 'customers:write', foreign: 404, modeScoped: true,
    async setup({ t: app, brandId, mode }) {
      const email = `route${++n}@example.com`;
      await app.db.query(`INSERT INTO memberships (brand_id, id, mode, product_id, name, email, status, joined_at)
        SELECT $1, 'mem_' || substr(md5(random()::text), 1, 20), $2, NULL, 'Route', $3, 'active', now() WHERE false`, [brandId, mode, email]);
      await app.db.query(`INSERT INTO transactions (brand_id, id, txref, mode, type, status, amount, currency, customer_name, customer_email)
        VALUES ($1, 'tx_' || substr(md5(random()::text), 1, 20), 'txr_' || substr(md5(random()::text), 1, 20), $2, 'purchase', 'succeeded', 100, 'USD', 'Route', $3)`, [brandId, mode, email]);
      return { url: '/api/v1/customer-sessions', body: { email }, marker: email };
    },
  }, () => t);
});

describe('the portal', () => {
  it('shows the buyer what they bought and downloads the file through a signed URL, counted', async () => {
    const s = await shop();
    const email = `dee${++n}@example.com`;
    await buy(s, email, 'guide');
    const { cookie, res } = await enter((await session(s, { email })).json().data.url);
    const home = await page(new URL(String(res.headers.location)).pathname, cookie);
    assert.match(home.body, /Ink basics workbook/);
    assert.match(home.body, /href="https:\/\/video\.example\.com\/lesson-1"/);
    const href = /href="http:\/\/portal\.test(\/portal\/[^"]+\/files\/[^"]+)"/.exec(home.body)?.[1];
    assert.ok(href, 'a download link');
    const file = await t.app.inject({ method: 'GET', url: href });
    assert.equal(file.statusCode, 200);
    assert.equal(file.body, '%PDF-1.7 the workbook');
    assert.match(String(file.headers['content-disposition']), /workbook\.pdf/);
    await t.app.inject({ method: 'GET', url: href });
    const [count] = await t.db.query<{ count: number }>('SELECT count FROM item_downloads WHERE brand_id = $1 AND email = $2 AND item_id = $3', [s.brandId, email, s.ids.pdf]);
    assert.equal(count.count, 2);

    // The creator replaces the file: the buyer gets the new version.
    await t.request({ method: 'PUT', url: `/api/v1/products/${s.ids.guide}/items/${s.ids.pdf}/file?filename=workbook.pdf`, key: s.key, headers: { 'content-type': 'application/pdf' }, payload: Buffer.from('%PDF-1.7 second edition') });
    assert.equal((await t.app.inject({ method: 'GET', url: href })).body, '%PDF-1.7 second edition');

    // A tampered URL is unknown; another buyer's session does not make it theirs.
    assert.equal((await t.app.inject({ method: 'GET', url: `${href.slice(0, -3)}abc` })).statusCode, 404);
  });

  it('refuses the download once the membership was removed, and an expired signed URL', async () => {
    const s = await shop();
    const email = `eve${++n}@example.com`;
    const membershipId = await buy(s, email, 'guide');
    const { cookie, res } = await enter((await session(s, { email })).json().data.url);
    const home = await page(new URL(String(res.headers.location)).pathname, cookie);
    const href = /href="http:\/\/portal\.test(\/portal\/[^"]+\/files\/[^"]+)"/.exec(home.body)![1];
    const cancel = await t.request({ method: 'POST', url: `/api/v1/memberships/${membershipId}/cancel`, key: s.key, payload: { atPeriodEnd: false } });
    assert.equal(cancel.statusCode, 200, cancel.body);
    assert.equal((await t.app.inject({ method: 'GET', url: href })).statusCode, 404, 'a removed member is refused');

    const expired = await t.app.inject({ method: 'GET', url: href.replace(/\/files\/.*/, `/files/${(await import('./tokens.ts')).signDownload(t.deps.secrets.webhookKey, { brandId: s.brandId, mode: 'test', email, itemId: s.ids.pdf, exp: Date.now() - 1 })}`) });
    assert.equal(expired.statusCode, 410);
  });

  it('cancels at period end and keeps the membership, as the API does, and never touches another buyer\'s', async () => {
    const s = await shop();
    const email = `fay${++n}@example.com`;
    const membershipId = await buy(s, email, 'club');
    const otherEmail = `gus${++n}@example.com`;
    const otherId = await buy(s, otherEmail, 'club');
    const mine = await enter((await session(s, { email })).json().data.url);
    const slugPath = new URL(String(mine.res.headers.location)).pathname;

    const cancelled = await post(`${slugPath}/memberships/${membershipId}/cancel`, mine.cookie);
    assert.equal(cancelled.statusCode, 303, cancelled.body);
    let m = (await t.request({ method: 'GET', url: `/api/v1/hubs/${s.ids.club}/members/${membershipId}`, key: s.key })).json().data;
    assert.equal(m.subscription.cancelAtPeriodEnd, true);
    const home = await page(`${slugPath}?done=cancelled`, mine.cookie);
    assert.match(home.body, /Keep my membership/);
    assert.match(home.body, /will not be charged again/);

    const kept = await post(`${slugPath}/memberships/${membershipId}/resume`, mine.cookie);
    assert.equal(kept.statusCode, 303);
    m = (await t.request({ method: 'GET', url: `/api/v1/hubs/${s.ids.club}/members/${membershipId}`, key: s.key })).json().data;
    assert.equal(m.subscription.cancelAtPeriodEnd, false);

    const foreign = await post(`${slugPath}/memberships/${otherId}/cancel`, mine.cookie);
    assert.equal(foreign.statusCode, 404);
    const other = (await t.request({ method: 'GET', url: `/api/v1/hubs/${s.ids.club}/members/${otherId}`, key: s.key })).json().data;
    assert.equal(other.subscription.cancelAtPeriodEnd, false);
    assert.doesNotMatch((await page(slugPath, mine.cookie)).body, new RegExp(otherId));

    const forged = await post(`${slugPath}/memberships/${membershipId}/cancel`, mine.cookie, 'https://evil.example.com');
    assert.equal(forged.statusCode, 403, 'a form from another site changes nothing');
    const signedOut = await post(`${slugPath}/memberships/${membershipId}/cancel`, '');
    assert.equal(signedOut.statusCode, 401);
  });

  it('serves the buyer\'s invoice, and not another buyer\'s', async () => {
    const s = await shop();
    const email = `hal${++n}@example.com`;
    await buy(s, email, 'guide');
    await buy(s, `ivy${++n}@example.com`, 'guide');
    const { cookie, res } = await enter((await session(s, { email })).json().data.url);
    const slugPath = new URL(String(res.headers.location)).pathname;
    const [mine] = await t.db.query<{ txref: string }>('SELECT txref FROM transactions WHERE brand_id = $1 AND customer_email = $2', [s.brandId, email]);
    const [theirs] = await t.db.query<{ txref: string }>('SELECT txref FROM transactions WHERE brand_id = $1 AND customer_email <> $2', [s.brandId, email]);
    const pdf = await page(`${slugPath}/invoices/${mine.txref}`, cookie);
    assert.equal(pdf.statusCode, 200, pdf.body);
    assert.equal(pdf.headers['content-type'], 'application/pdf');
    assert.equal(pdf.rawPayload.subarray(0, 5).toString(), '%PDF-');
    assert.equal((await page(`${slugPath}/invoices/${theirs.txref}`, cookie)).statusCode, 404);
  });

  it('emails a one-time sign-in link through SMTP that signs the buyer in, at most 5 in 15 minutes, and says the same for strangers', async () => {
    const s = await shop();
    const email = `jo${++n}@example.com`;
    await buy(s, email, 'guide');
    const slugPath = (await t.db.query<{ slug: string | null }>('SELECT slug FROM brands WHERE id = $1', [s.brandId]))[0].slug ?? s.brandId;
    const ask = (address: string) => t.app.inject({ method: 'POST', url: `/portal/${slugPath}/sign-in`, headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://portal.test' }, payload: new URLSearchParams({ email: address }).toString() });
    const before = smtp.received.length;
    const asked = await ask(email);
    assert.equal(asked.statusCode, 200);
    assert.match(asked.body, /a sign-in link is on its way/);
    const stranger = await ask('stranger@example.com');
    assert.equal(stranger.body.replace('stranger@example.com', email), asked.body, 'no hint whether the address bought anything');
    // The purchase's receipt may arrive first: wait for the sign-in mail itself.
    const signInMail = () => smtp.received.slice(before).find((m) => m.envelope.to.includes(email) && /sign-in link/.test(String(m.parsed.subject)));
    for (let waited = 0; !signInMail() && waited < 15_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    const mail = signInMail()!;
    assert.ok(mail, 'the buyer got the mail');
    const receipt = smtp.received.find((m) => m.envelope.to.includes(email) && /receipt/i.test(String(m.parsed.subject)));
    assert.ok(receipt, 'the purchase\'s receipt arrived too');
    assert.ok(receipt.parsed.text?.includes(`http://portal.test/portal/${slugPath}`), `the receipt links the portal: ${receipt.parsed.text}`);
    assert.match(String(mail.parsed.subject), /sign-in link for Inkwell Studio/);
    const url = /(http:\/\/portal\.test\/portal\/\S+\/enter\?token=[\w-]+)/.exec(mail.parsed.text ?? '')?.[1];
    assert.ok(url, `a link in the text part: ${mail.parsed.text}`);
    const { res, cookie } = await enter(url);
    assert.equal(res.statusCode, 303);
    assert.match((await page(`/portal/${slugPath}`, cookie)).body, /Ink basics workbook/);

    for (let i = 0; i < 6; i++) await ask(email);
    const [{ count }] = await t.db.query<{ count: string }>('SELECT count(*) FROM portal_links WHERE brand_id = $1 AND email = $2', [s.brandId, email]);
    assert.equal(Number(count), 5, 'no more than 5 links in 15 minutes');
    assert.equal((await ask('not an address')).statusCode, 400);
  });
});
