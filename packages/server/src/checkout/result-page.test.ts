import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { cards, courseBody, createLink, submitCard } from '../testing/checkout-fixtures.ts';
import { createBrandWithCatalog } from '../testing/factories.ts';

/**
 * The hosted checkout's result pages say what happens next, truthfully (issue 24): what was
 * bought, "a receipt was emailed" only when mail/ really queued one for this payment, the way to
 * the buyer portal or the link's redirectUrl; a declined card says what to do.
 */

let t: TestApp;
let shop: Awaited<ReturnType<typeof createBrandWithCatalog>>;
before(async () => {
  t = await startTestApp({ publicUrl: 'https://shop.example.com' });
  shop = await createBrandWithCatalog(t.db);
  const profile = await t.request({ method: 'PATCH', url: '/api/v1/brand', key: shop.testKey, payload: { slug: `ink-${randomBytes(4).toString('hex')}`, supportEmail: 'help@ink.example' } });
  assert.equal(profile.statusCode, 200, profile.body);
});
after(async () => { await t.close(); });

const pay = async (body: object, card = cards.ok) => {
  const link = await createLink(t, shop.testKey, body);
  const paid = await submitCard(t, link.path, card);
  assert.equal(paid.statusCode, 303, paid.body);
  return { link, location: String(paid.headers.location) };
};

describe('the result page', () => {
  it('names what was bought, says the receipt was emailed when one was queued, and leads to the buyer portal', async () => {
    const { location } = await pay(courseBody(shop.ids, { form: { formData: { fullName: 'Ada Lovelace', email: 'ada.next@example.com', experienceLevel: 'Beginner' } } }));
    const page = (await t.app.inject({ method: 'GET', url: location })).body;
    assert.ok(page.includes('Payment successful'));
    assert.ok(page.includes('Your purchase of Brushwork fundamentals (Standard) is confirmed for ada.next@example.com'), 'says what was bought');
    assert.ok(page.includes('A receipt was emailed to ada.next@example.com.'), 'the receipt was queued, so the page says so');
    assert.match(page, /<a class="button" id="portal" href="\/portal\/ink-[a-f0-9]{8}" target="_top">Go to your purchases<\/a>/);
    assert.ok(page.includes('mailto:help@ink.example'), 'says whom to ask');
    const txref = /txref=([^&]+)/.exec(location)![1];
    const [queued] = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM mail_messages WHERE brand_id = $1 AND dedupe_key = $2`, [shop.brand.id, `receipt:${txref}`]);
    assert.equal(queued.n, 1);
  });

  it('does not claim a receipt when the brand turned receipts off', async () => {
    const off = await t.request({ method: 'PATCH', url: '/api/v1/email-settings', key: shop.testKey, payload: { buyerEmails: { receipt: false } } });
    assert.equal(off.statusCode, 200, off.body);
    try {
      const { location } = await pay(courseBody(shop.ids, { form: { formData: { fullName: 'Grace Hopper', email: 'grace.next@example.com', experienceLevel: 'Beginner' } } }));
      const page = (await t.app.inject({ method: 'GET', url: location })).body;
      assert.ok(page.includes('Payment successful'));
      assert.ok(!page.includes('receipt was emailed'), 'no receipt was queued, so none is promised');
      assert.ok(page.includes('Keep the reference below'));
    } finally {
      await t.request({ method: 'PATCH', url: '/api/v1/email-settings', key: shop.testKey, payload: { buyerEmails: { receipt: true } } });
    }
  });

  it('says what to do after a declined card, and takes a retry', async () => {
    const link = await createLink(t, shop.testKey, courseBody(shop.ids));
    const declined = await submitCard(t, link.path, cards.declined);
    const page = (await t.app.inject({ method: 'GET', url: String(declined.headers.location) })).body;
    assert.ok(page.includes('Payment failed') && page.includes('No money was taken'));
    assert.ok(page.includes('What you can do') && page.includes('Try another card') && page.includes('help@ink.example'));
    assert.ok(page.includes('Pay 39.50 USD'), 'the form is there to try again');
  });
});
