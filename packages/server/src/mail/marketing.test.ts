import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadCatalog } from '../catalog/load.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { createLink, submitCard } from '../testing/checkout-fixtures.ts';
import { createBrand, createKey } from '../testing/factories.ts';
import { startTestSmtp, type ReceivedMail, type TestSmtp } from '../testing/smtp.ts';
import { until } from '../testing/until.ts';

/**
 * Marketing mail through a real SMTP server (docs/email.md, Marketing mail): "new in <product>"
 * when a creator replaces an item's file or gives it a link and asks to tell buyers, only to
 * buyers who can open the item and said yes at checkout (`receive_emails`), with
 * List-Unsubscribe and one-click List-Unsubscribe-Post (RFC 8058); the signed unsubscribe address
 * turns the consent off with one POST and refuses a bad signature. Transactional mail carries
 * neither header and ignores the consent.
 */
let t: TestApp;
let smtp: TestSmtp;
before(async () => {
  smtp = await startTestSmtp();
  t = await startTestApp({ publicUrl: 'http://shop.test', worker: true, mail: { smtpUrl: smtp.url, from: 'news@shop.test', retryScheduleMs: [50] } });
});
after(async () => {
  await t?.close();
  await smtp?.stop();
});

const catalog = {
  products: [
    {
      ref: 'guide', type: 'digital', title: 'Ink basics workbook',
      items: [{ ref: 'pdf', type: 'pdf', title: 'Workbook (PDF)' }, { ref: 'video', type: 'video', title: 'Lesson video' }],
      tiers: [{ ref: 'guide-t', name: 'Standard', price: { amount: 12, currency: 'USD' }, items: ['pdf', 'video'] },
        { ref: 'guide-lite', name: 'Video only', price: { amount: 5, currency: 'USD' }, items: ['video'] }],
    },
    { ref: 'other', type: 'digital', title: 'Another guide', tiers: [{ ref: 'other-t', name: 'Std', price: { amount: 3, currency: 'USD' } }] },
  ],
};

const header = (m: ReceivedMail, name: string) => m.parsed.headerLines.find((h) => h.key === name)?.line.replace(/^[^:]+:\s*/, '');

describe('marketing mail: new in <product>', () => {
  it('goes only to buyers with access who opted in, carries one-click List-Unsubscribe, and one POST turns the consent off', async () => {
    const brand = await createBrand(t.db, { name: 'Inkwell Studio' });
    const ids = await t.db.transaction((tx) => loadCatalog(tx, brand.id, catalog));
    const key = (await createKey(t.db, brand.id, { mode: 'test' })).key;
    const upload = (version: string, notify: boolean) => t.request({
      method: 'PUT', url: `/api/v1/products/${ids.guide}/items/${ids.pdf}/file?filename=workbook.pdf${notify ? '&notifyBuyers=true' : ''}`,
      key, headers: { 'content-type': 'application/pdf' }, payload: Buffer.from(`%PDF-1.7 ${version}`),
    });
    assert.equal((await upload('first edition', false)).statusCode, 200);
    const buy = async (email: string, plan: string, product: string, consent: boolean) => {
      const link = await createLink(t, key, { items: [{ id: product, plan, type: 'digital' }], form: { formData: { fullName: email.split('@')[0], email } }, ...(consent ? { receive_emails: true } : {}) });
      assert.equal((await submitCard(t, link.path, '4242 4242 4242 4242')).statusCode, 303);
    };
    const ada = 'ada@example.com';
    await buy(ada, ids['guide-t'], ids.guide, true);
    await buy('bob@example.com', ids['guide-t'], ids.guide, false); // has access, said no
    await buy('cy@example.com', ids['guide-lite'], ids.guide, true); // said yes, but the tier has no PDF
    await buy('di@example.com', ids['other-t'], ids.other, true); // said yes to another product only
    const receipt = await until('Ada\'s receipt', () => smtp.received.find((m) => m.envelope.to.includes(ada) && /receipt/.test(String(m.parsed.subject))));
    assert.equal(header(receipt, 'list-unsubscribe'), undefined, 'a receipt carries no List-Unsubscribe');
    assert.equal(header(receipt, 'list-unsubscribe-post'), undefined);

    const news = () => t.db.query<{ to_address: string }>('SELECT to_address FROM mail_messages WHERE brand_id = $1 AND kind = \'new_content\'', [brand.id]);
    assert.deepEqual(await news(), [], 'an upload without notifyBuyers tells nobody');
    const replaced = await upload('second edition', true);
    assert.equal(replaced.statusCode, 200, replaced.body);
    assert.deepEqual((await news()).map((r) => r.to_address), [ada], 'queued for Ada alone');
    const mail = await until('the news mail', () => smtp.received.find((m) => m.envelope.to.includes(ada) && /New in/.test(String(m.parsed.subject))));
    assert.equal(mail.parsed.subject, 'New in Ink basics workbook: Workbook (PDF)');
    assert.match(mail.parsed.text ?? '', /published a new version of Workbook \(PDF\)/);
    assert.match(mail.parsed.text ?? '', /http:\/\/shop\.test\/portal\//);
    const listUnsubscribe = header(mail, 'list-unsubscribe');
    const url = /^<(http:\/\/shop\.test\/mail\/unsubscribe\/[\w.-]+)>$/.exec(listUnsubscribe ?? '')?.[1];
    assert.ok(url, `List-Unsubscribe: ${listUnsubscribe}`);
    assert.equal(header(mail, 'list-unsubscribe-post'), 'List-Unsubscribe=One-Click');
    assert.ok((mail.parsed.text ?? '').includes(`Unsubscribe: ${url}`), 'the text part links it too');
    assert.ok(String(mail.parsed.html).includes(`href="${url}"`), 'and the HTML part');
    // The same version again tells nobody twice.
    const again = await t.request({ method: 'PUT', url: `/api/v1/products/${ids.guide}/items/${ids.pdf}/file?notifyBuyers=true`, key, headers: { 'content-type': 'application/pdf' }, payload: Buffer.from('%PDF-1.7 x') });
    assert.equal(again.statusCode, 200, again.body);
    assert.equal((await news()).length, 2, 'a new version is news again');

    const path = new URL(url).pathname;
    const member = async () => {
      const list = (await t.request({ method: 'GET', url: `/api/v1/products/${ids.guide}/customers`, key })).json().data;
      return list.items.find((m: { email: string }) => m.email === ada);
    };
    assert.equal((await member()).receiveEmails, true);
    // A bad signature is refused and changes nothing.
    const forged = await t.app.inject({ method: 'POST', url: `${path.slice(0, -4)}AAAA`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
    assert.equal(forged.statusCode, 404);
    const otherBody = Buffer.from(JSON.stringify([brand.id, 'test', 'bob@example.com'])).toString('base64url');
    const swapped = await t.app.inject({ method: 'POST', url: `/mail/unsubscribe/${otherBody}.${path.split('.').pop()}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
    assert.equal(swapped.statusCode, 404, 'a signature for Ada does not unsubscribe Bob');
    // Opening it in a browser shows a button and changes nothing (link scanners follow GETs).
    const shown = await t.app.inject({ method: 'GET', url: path });
    assert.equal(shown.statusCode, 200);
    assert.match(shown.body, /<button type="submit">Unsubscribe<\/button>/);
    assert.equal((await member()).receiveEmails, true);
    // The mail program's one-click POST (RFC 8058): no cookie, no page, just the form field.
    const oneClick = await t.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
    assert.equal(oneClick.statusCode, 200, oneClick.body);
    assert.match(oneClick.body, /You are unsubscribed/);
    assert.equal((await member()).receiveEmails, false, 'the consent is off, in the API');
    assert.equal((await t.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'multipart/form-data; boundary=x' }, payload: '--x\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--x--\r\n' })).statusCode, 200, 'again, as multipart: still fine');

    // The next news goes to nobody; transactional mail still comes.
    const before = (await news()).length;
    assert.equal((await upload('third edition', true)).statusCode, 200);
    assert.equal((await news()).length, before, 'an opted-out buyer gets no marketing mail');
    await buy(ada, ids['other-t'], ids.other, false);
    await until('Ada\'s second receipt', () => smtp.received.filter((m) => m.envelope.to.includes(ada) && /receipt/.test(String(m.parsed.subject))).length === 2);
  });

  it('does not send news queued before the buyer unsubscribed', async () => {
    // An app whose worker starts only when asked: the news waits in the outbox while the buyer unsubscribes.
    const idle = await startTestApp({ publicUrl: 'http://shop.test', mail: { smtpUrl: smtp.url, from: 'news@shop.test', retryScheduleMs: [50] } });
    try {
      const brand = await createBrand(idle.db, { name: 'Inkwell Studio' });
      const ids = await idle.db.transaction((tx) => loadCatalog(tx, brand.id, catalog));
      const key = (await createKey(idle.db, brand.id, { mode: 'test' })).key;
      const link = await createLink(idle, key, { items: [{ id: ids.guide, plan: ids['guide-t'], type: 'digital' }], form: { formData: { fullName: 'Fay', email: 'fay@example.com' } }, receive_emails: true });
      assert.equal((await submitCard(idle, link.path, '4242 4242 4242 4242')).statusCode, 303);
      const set = await idle.request({ method: 'PUT', url: `/api/v1/products/${ids.guide}/items/${ids.video}/content?notifyBuyers=true`, key, payload: { url: 'https://video.example.com/lesson-1' } });
      assert.equal(set.statusCode, 200, set.body);
      const [queued] = await idle.db.query<{ id: string; data: { unsubscribeUrl: string } }>('SELECT id, data FROM mail_messages WHERE brand_id = $1 AND kind = \'new_content\'', [brand.id]);
      const off = await idle.app.inject({ method: 'POST', url: new URL(queued.data.unsubscribeUrl).pathname, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
      assert.equal(off.statusCode, 200);
      await idle.startWorker();
      const news = await until('the news to be settled', async () => {
        const [row] = await idle.db.query<{ status: string; status_detail: string }>('SELECT status, status_detail FROM mail_messages WHERE brand_id = $1 AND id = $2', [brand.id, queued.id]);
        return row.status === 'unsent' || row.status === 'sent' ? row : undefined;
      });
      assert.deepEqual(news, { status: 'unsent', status_detail: 'not sent: the buyer unsubscribed after it was queued' });
      assert.equal(smtp.received.filter((m) => m.envelope.to.includes('fay@example.com') && /New in/.test(String(m.parsed.subject))).length, 0);
    } finally {
      await idle.close();
    }
  });

  it('tells buyers of a link given to an item that had no content, and refuses a bad notifyBuyers', async () => {
    const brand = await createBrand(t.db, { name: 'Inkwell Studio' });
    const ids = await t.db.transaction((tx) => loadCatalog(tx, brand.id, catalog));
    const key = (await createKey(t.db, brand.id, { mode: 'test' })).key;
    const link = await createLink(t, key, { items: [{ id: ids.guide, plan: ids['guide-t'], type: 'digital' }], form: { formData: { fullName: 'Eve', email: 'eve@example.com' } }, receive_emails: true });
    assert.equal((await submitCard(t, link.path, '4242 4242 4242 4242')).statusCode, 303);
    const set = await t.request({ method: 'PUT', url: `/api/v1/products/${ids.guide}/items/${ids.video}/content?notifyBuyers=true`, key, payload: { url: 'https://video.example.com/lesson-1' } });
    assert.equal(set.statusCode, 200, set.body);
    const mail = await until('the news mail', () => smtp.received.find((m) => m.envelope.to.includes('eve@example.com') && /New in/.test(String(m.parsed.subject))));
    assert.match(mail.parsed.text ?? '', /added Lesson video to Ink basics workbook/);
    const bad = await t.request({ method: 'PUT', url: `/api/v1/products/${ids.guide}/items/${ids.video}/content?notifyBuyers=maybe`, key, payload: { url: 'https://video.example.com/lesson-2' } });
    assert.equal(bad.statusCode, 400);
    assert.match(bad.body, /notifyBuyers/);
  });
});
