import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createBrandWithCatalog } from '../../server/src/testing/factories.ts';
import { startReceiver, type ReceivedDelivery, type Receiver } from '../../server/src/testing/receiver.ts';
import { Client, signTestWebhook, verifyWebhook, WebhookVerificationError, type WebhookEvent } from '../src/index.ts';
import { startLiveServer, type LiveServer } from './support.ts';

/** verifyWebhook on deliveries made by the real pipeline (worker, signing, HTTP) to a real receiver. */

let live: LiveServer;
let rx: Receiver;
let client: Client;
let secret: string;
let transaction: ReceivedDelivery;
let member: ReceivedDelivery;

before(async () => {
  live = await startLiveServer({ worker: true });
  const { testKey } = await createBrandWithCatalog(live.t.db);
  client = new Client({ apiKey: testKey, baseUrl: live.baseUrl });
  rx = await startReceiver();
  const endpoint = await client.webhooks.create({ url: rx.url, events: ['transaction.succeeded', 'member.joined'] });
  secret = endpoint.signingSecret;
  rx.secret = secret;
  await client.webhooks.test({ eventType: 'transaction.succeeded' });
  [transaction] = await rx.waitFor(1);
  await client.webhooks.test({ eventType: 'member.joined' });
  [, member] = await rx.waitFor(2);
});
after(async () => {
  await rx.close();
  await live.close();
});

const withoutStandard = (h: ReceivedDelivery['headers']) => Object.fromEntries(Object.entries(h).filter(([k]) => !k.startsWith('webhook-')));
const withoutService = (h: ReceivedDelivery['headers']) => Object.fromEntries(Object.entries(h).filter(([k]) => k !== 'x-service-signature'));

async function failure(promise: Promise<unknown>): Promise<string> {
  const err = await promise.then(() => undefined, (e: unknown) => e);
  assert.ok(err instanceof WebhookVerificationError, `expected a WebhookVerificationError, got ${String(err)}`);
  return err.message;
}

describe('verifyWebhook on real deliveries', () => {
  it('verifies a delivery and returns its event, typed by `type`', async () => {
    assert.ok(transaction.verified, 'the receiver agrees the delivery is signed');
    const event: WebhookEvent = await verifyWebhook(transaction.raw, transaction.headers, secret);
    assert.equal(event.id, transaction.headers['webhook-id']);
    if (event.type !== 'transaction.succeeded') assert.fail(`unexpected ${event.type}`);
    assert.equal(typeof event.data.txref, 'string');

    const joined = await client.webhooks.verify(member.raw.toString('utf8'), new Headers(member.headers as Record<string, string>), secret);
    assert.equal(joined.type, 'member.joined');
    if (joined.type === 'member.joined') assert.equal(typeof joined.data.membershipId, 'string');
  });

  it('accepts raw bytes as a string, a Uint8Array or an ArrayBuffer', async () => {
    const bytes = new Uint8Array(transaction.raw);
    for (const body of [transaction.raw.toString('utf8'), bytes, bytes.buffer.slice(0)]) {
      assert.equal((await verifyWebhook(body, transaction.headers, secret)).id, transaction.json.id);
    }
  });

  it('checks either signature alone when only one is present', async () => {
    await verifyWebhook(transaction.raw, withoutStandard(transaction.headers), secret);
    await verifyWebhook(transaction.raw, withoutService(transaction.headers), secret);
  });

  it('accepts a list of secrets, for the overlap while a secret is rolled', async () => {
    const old = 'whsec_' + Buffer.alloc(32, 7).toString('base64');
    assert.equal((await verifyWebhook(transaction.raw, transaction.headers, [old, secret])).id, transaction.json.id);
  });

  it('refuses a tampered body', async () => {
    const tampered = transaction.raw.toString('utf8').replace(/"amount":\s*[\d.]+/, '"amount":0.01');
    assert.notEqual(tampered, transaction.raw.toString('utf8'));
    assert.match(await failure(verifyWebhook(tampered, transaction.headers, secret)), /^Signature does not match: pass the raw request body, not parsed JSON/);
    assert.match(await failure(verifyWebhook(tampered, withoutStandard(transaction.headers), secret)), /X-Service-Signature/);
  });

  it('refuses a re-serialized body, and says to pass the raw body when given parsed JSON', async () => {
    const reserialized = JSON.stringify(transaction.json, null, 2);
    assert.match(await failure(verifyWebhook(reserialized, transaction.headers, secret)), /pass the raw request body, not parsed JSON/);
    assert.match(await failure(verifyWebhook(transaction.json as never, transaction.headers, secret)), /The body is an object: pass the raw request body/);
  });

  it('refuses a wrong secret', async () => {
    const wrong = 'whsec_' + Buffer.alloc(32, 1).toString('base64');
    assert.match(await failure(verifyWebhook(transaction.raw, transaction.headers, wrong)), /Signature does not match/);
    assert.match(await failure(verifyWebhook(transaction.raw, transaction.headers, [])), /No signing secret given/);
  });

  it('refuses an expired or future timestamp, saying by how much', async () => {
    const sent = Number(transaction.headers['webhook-timestamp']) * 1000;
    assert.match(await failure(verifyWebhook(transaction.raw, transaction.headers, secret, { now: sent + 12 * 60_000 })),
      /^Timestamp is 12 minutes old: check your clock or replay/);
    assert.match(await failure(verifyWebhook(transaction.raw, transaction.headers, secret, { now: sent - 10 * 60_000 })), /10 minutes in the future/);
    await verifyWebhook(transaction.raw, transaction.headers, secret, { now: sent + 12 * 60_000, tolerance: 15 * 60 });
  });

  it('says which header is missing', async () => {
    assert.match(await failure(verifyWebhook(transaction.raw, { 'content-type': 'application/json' }, secret)), /No signature header/);
    const noId = withoutService(transaction.headers);
    delete noId['webhook-id'];
    assert.match(await failure(verifyWebhook(transaction.raw, noId, secret)), /webhook-id or webhook-timestamp is missing/);
  });
});

describe('signTestWebhook', () => {
  it('signs a payload so that verifyWebhook accepts it, with both signatures as the server makes them', async () => {
    const event = { id: 'evt_test_1', type: 'member.joined', created: new Date().toISOString(), data: transaction.json.data } as const;
    const { body, headers } = await signTestWebhook(event as never, secret);
    assert.equal((await verifyWebhook(body, headers, secret)).id, 'evt_test_1');
    assert.equal(headers['webhook-id'], 'evt_test_1');

    // The same bytes, id and timestamp give the server's own signatures.
    const again = await signTestWebhook(transaction.raw.toString('utf8'), secret, { id: String(transaction.headers['webhook-id']), timestamp: Number(transaction.headers['webhook-timestamp']) });
    assert.equal(again.headers['x-service-signature'], transaction.headers['x-service-signature']);
    assert.ok(String(transaction.headers['webhook-signature']).split(' ').includes(again.headers['webhook-signature']));
  });
});
