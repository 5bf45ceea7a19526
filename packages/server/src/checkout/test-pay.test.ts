import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { Client } from '@creator-commerce/sdk';
import { loadCatalog } from '../catalog/load.ts';
import { exampleCatalogPath } from '../cli/commands.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { runCommonRouteTests } from '../testing/auth-checks.ts';
import { createBrandWithCatalog, createKey } from '../testing/factories.ts';
import { cards, courseBody, createLink, eventsOf } from '../testing/checkout-fixtures.ts';

/** Paying a test payment link from code (issue 27, item 2): the hosted page's flow, without a browser. */
let t: TestApp;
let baseUrl: string;
before(async () => {
  t = await startTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
});
after(async () => { await t.close(); });

const pay = (key: string, id: string, card: unknown) => t.request({ method: 'POST', url: `/api/v1/test/payment-links/${id}/pay`, key, payload: { card } });

describe('POST /test/payment-links/{id}/pay', () => {
  runCommonRouteTests('POST /test/payment-links/{id}/pay', {
    method: 'POST',
    scope: 'checkout:write',
    foreign: 404,
    modeScoped: true,
    async setup({ t: app, brandId, mode }) {
      const ids = await app.db.transaction((tx) => loadCatalog(tx, brandId, JSON.parse(readFileSync(exampleCatalogPath, 'utf8'))));
      const key = await createKey(app.db, brandId, { mode: 'test' });
      const link = await createLink(app, key.key, courseBody(ids));
      // A live link needs Stripe to be made; the row of one is what the check needs.
      if (mode === 'live') await app.db.query("UPDATE payment_links SET mode = 'live' WHERE id = $1", [link.id]);
      return { url: `/api/v1/test/payment-links/${link.id}/pay`, body: { card: cards.ok } };
    },
  }, () => t);

  it('pays as the hosted page does: the transaction succeeds, with its events, and a second call returns it', async () => {
    const { brand, ids, testKey } = await createBrandWithCatalog(t.db);
    const link = await createLink(t, testKey, courseBody(ids));
    const res = await pay(testKey, link.id, cards.ok);
    assert.equal(res.statusCode, 200, res.body);
    const txn = res.json().data;
    assert.equal(txn.status, 'succeeded');
    assert.equal(txn.amount, link.amount);
    assert.deepEqual((await eventsOf(t, brand.id)).map((e) => e.type), ['transaction.succeeded', 'member.joined']);
    const again = await pay(testKey, link.id, cards.ok);
    assert.equal(again.json().data.txref, txn.txref, 'a paid link returns the payment that paid it');
    assert.equal((await eventsOf(t, brand.id)).length, 2);
  });

  it('records a declined card as failed, refuses a card the sandbox does not know (400 naming card), and live keys get 404', async () => {
    const { ids, testKey, liveKey } = await createBrandWithCatalog(t.db);
    const declined = await pay(testKey, (await createLink(t, testKey, courseBody(ids))).id, cards.declined);
    assert.equal(declined.json().data.status, 'failed');
    const link = await createLink(t, testKey, courseBody(ids));
    const unknown = await pay(testKey, link.id, '1234');
    assert.equal(unknown.statusCode, 400);
    assert.equal(unknown.json().data.details[0].field, 'card');
    assert.match(unknown.json().message, /4242 4242 4242 4242/);
    assert.equal((await pay(testKey, link.id, 4242)).statusCode, 400);
    const live = await pay(liveKey, link.id, cards.ok);
    assert.equal(live.statusCode, 404);
    assert.match(live.json().message, /test mode only/);
  });

  it('is the SDK\'s client.testHelpers.payPaymentLink', async () => {
    const { ids, testKey } = await createBrandWithCatalog(t.db);
    const client = new Client({ apiKey: testKey, baseUrl });
    const link = await client.paymentLinks.create(courseBody(ids) as never);
    const txn = await client.testHelpers.payPaymentLink(link.id, { card: '4242 4242 4242 4242' });
    assert.equal(txn.status, 'succeeded');
    assert.equal((await client.transactions.get(txn.txref)).status, 'succeeded');
  });
});
