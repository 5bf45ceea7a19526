import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { cards, courseBody, createLink, submitCard } from '../testing/checkout-fixtures.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { createBrandWithCatalog } from '../testing/factories.ts';
import { registerEndpoint, startReceiver, type Receiver } from '../testing/receiver.ts';

/**
 * transaction.refunded goes through the same pipeline as every event: recorded with the refund,
 * delivered by the worker to a real receiver, signed over the raw bytes. The receiver checks the
 * signature with the `standardwebhooks` library, as a brand's own server would.
 */
let t: TestApp;
let rx: Receiver;
before(async () => {
  t = await startTestApp({ worker: true });
  rx = await startReceiver();
});
after(async () => {
  await rx.close();
  await t.close();
});

describe('transaction.refunded delivery', () => {
  it('delivers transaction.refunded and member.removed, verified with the standardwebhooks library', async () => {
    const { brand, ids, testKey } = await createBrandWithCatalog(t.db);
    const ep = await registerEndpoint(t, testKey, rx.url, ['transaction.refunded', 'member.removed']);
    rx.secret = ep.signingSecret;
    const link = await createLink(t, testKey, courseBody(ids));
    await submitCard(t, link.path, cards.ok);
    const [{ txref }] = await t.db.query<{ txref: string }>('SELECT txref FROM transactions WHERE brand_id = $1 AND payment_link_id = $2', [brand.id, link.id]);
    const res = await t.request({ method: 'POST', url: `/api/v1/transactions/${txref}/refund`, key: testKey, payload: { reason: 'Duplicate order' } });
    assert.equal(res.statusCode, 200, res.body);

    const deliveries = await rx.waitFor(2);
    const verifier = new Webhook(ep.signingSecret);
    for (const d of deliveries) {
      const headers = Object.fromEntries(['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((h) => [h, String(d.headers[h])]));
      // Throws WebhookVerificationError unless the signature matches these exact bytes.
      verifier.verify(d.raw.toString('utf8'), headers);
      assert.ok(d.verified, 'X-Service-Signature matches too');
    }
    const refunded = deliveries.find((d) => d.json.type === 'transaction.refunded')!;
    assert.ok(refunded, 'transaction.refunded arrived');
    const transaction = res.json().data;
    assert.equal(refunded.json.data.txref, txref);
    assert.equal(refunded.json.data.status, 'refunded');
    assert.equal(refunded.json.data.refundedAmount, 39.5);
    assert.deepEqual(refunded.json.data.refund, transaction.refunds[0]);
    assert.equal(refunded.json.data.refund.reason, 'Duplicate order');
    assert.ok(deliveries.some((d) => d.json.type === 'member.removed'));

    const tampered = Buffer.from(refunded.raw.toString('utf8').replace('39.5', '395'));
    assert.throws(() => verifier.verify(tampered.toString('utf8'), {
      'webhook-id': String(refunded.headers['webhook-id']),
      'webhook-timestamp': String(refunded.headers['webhook-timestamp']),
      'webhook-signature': String(refunded.headers['webhook-signature']),
    }));
  });

  it('sends a typed transaction.refunded test event', async () => {
    const { testKey } = await createBrandWithCatalog(t.db);
    const res = await t.request({ method: 'POST', url: '/api/v1/webhooks/test', key: testKey, payload: { eventType: 'transaction.refunded' } });
    assert.equal(res.statusCode, 200, res.body);
  });
});
