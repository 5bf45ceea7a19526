import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { cards, courseBody, createLink } from '../testing/checkout-fixtures.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { createBrand, createBrandWithCatalog, createKey } from '../testing/factories.ts';
import { forbiddenAddress } from './url-guard.ts';

let t: TestApp;
before(async () => { t = await startTestApp(); });
after(async () => { await t.close(); });

describe('where webhooks may go', () => {
  it('refuses every IPv6 form of a private or loopback address, and takes public ones', () => {
    for (const address of ['::7f00:1', '::ffff:0:7f00:1', '64:ff9b:1::7f00:1', '64:ff9b::a00:1', '::ffff:127.0.0.1', '::ffff:10.0.0.5',
      '::1', '::', 'fe80::1', 'fd12::1', '2002:7f00:1::1', '2001::1', '2001:db8::1', '100.64.0.1', '169.254.169.254', '0.0.0.0', '255.255.255.255']) {
      assert.ok(forbiddenAddress(address), `${address} is refused`);
    }
    for (const address of ['1.1.1.1', '8.8.8.8', '2606:4700:4700::1111', '::ffff:1.1.1.1']) assert.equal(forbiddenAddress(address), undefined, address);
  });

  it('refuses, in live mode, webhook URLs that name such addresses', async () => {
    const brand = await createBrand(t.db);
    const key = (await createKey(t.db, brand.id, { mode: 'live' })).key;
    for (const url of ['https://[::7f00:1]/x', 'https://[::ffff:0:7f00:1]/x', 'https://[64:ff9b:1::7f00:1]/x', 'https://[::ffff:a00:5]/x']) {
      const res = await t.request({ method: 'POST', url: '/api/v1/webhooks', key, payload: { url, events: ['member.joined'] } });
      assert.equal(res.statusCode, 400, url);
      assert.match(res.json().message, /private, loopback, link-local or reserved/);
    }
  });

  it('refuses credentials and control characters in webhook URLs and in redirectUrl', async () => {
    const shop = await createBrandWithCatalog(t.db);
    for (const url of ['https://user:pass@hooks.example.com/x', 'https://hooks.example.com/x\r\nX-Injected: 1', 'https://hooks.example.com/\tx']) {
      const hook = await t.request({ method: 'POST', url: '/api/v1/webhooks', key: shop.liveKey, payload: { url, events: ['member.joined'] } });
      assert.equal(hook.statusCode, 400, url);
      assert.match(hook.json().message, /user name or password|control character/);
      const link = await t.request({ method: 'POST', url: '/api/v1/payment-links', key: shop.testKey, payload: courseBody(shop.ids, { redirectUrl: url }) });
      assert.equal(link.statusCode, 400, url);
      assert.equal(link.json().data.details[0].field, 'redirectUrl');
    }
  });
});

describe('the hosted checkout form', () => {
  it('takes no payment from a form posted by another website', async () => {
    const shop = await createBrandWithCatalog(t.db);
    const link = await createLink(t, shop.testKey, courseBody(shop.ids));
    const post = (origin?: string) => t.app.inject({
      method: 'POST',
      url: `${link.path}/pay`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(origin ? { origin } : {}) },
      payload: new URLSearchParams({ card: cards.ok }).toString(),
    });
    const forged = await post('https://evil.example');
    assert.equal(forged.statusCode, 403);
    assert.match(forged.body, /another website/);
    const [none] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM transactions WHERE payment_link_id = $1', [link.id]);
    assert.equal(none.n, 0, 'nothing was recorded');
    assert.equal((await post(new URL(t.config.publicUrl).origin)).statusCode, 303, 'our own page pays');
  });
});
