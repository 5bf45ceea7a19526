import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { recordEvent } from '../events/service.ts';
import type { Mode } from '../auth/principal.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { runCommonRouteTests } from '../testing/auth-checks.ts';
import { createBrand, createKey } from '../testing/factories.ts';
import { registerEndpoint, startReceiver, type Receiver, type ReceiverAnswer } from '../testing/receiver.ts';
import Value from 'typebox/value';
import { eventPayloads } from './payloads.ts';
import type { EventType } from '../events/types.ts';
import { until } from '../testing/until.ts';

let t: TestApp;
const receivers: Receiver[] = [];
// DNS as a table the tests can change between registration and delivery.
const dns: Record<string, string> = {};
before(async () => {
  t = await startTestApp({
    worker: true,
    // A receiver timeout a loaded machine's receivers still meet (a late answer would be a retry),
    // and a lease well past it, so slow recording never re-sends a delivery.
    webhooks: { timeoutMs: 1500, claimLeaseMs: 10_000 },
    lookup: async (host) => (dns[host] ? [{ address: dns[host], family: 4 }] : Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }))),
  });
});
after(async () => {
  await t.close();
  await Promise.all(receivers.map((r) => r.close()));
});

async function owner(mode: Mode = 'test') {
  const brand = await createBrand(t.db);
  const key = await createKey(t.db, brand.id, { mode });
  return { brandId: brand.id, key: key.key };
}

async function receiver(respond?: (n: number) => ReceiverAnswer) {
  const rx = await startReceiver({ respond });
  receivers.push(rx);
  return rx;
}

/** A brand with a test key, a receiver and an endpoint pointing at it, ready to verify signatures. */
async function setup(events = ['transaction.succeeded', 'member.joined'], respond?: (n: number) => ReceiverAnswer) {
  const o = await owner();
  const rx = await receiver(respond);
  const ep = await registerEndpoint(t, o.key, rx.url, events);
  rx.secret = ep.signingSecret;
  return { ...o, rx, ep };
}

const sendTest = (key: string, body: object) => t.request({ method: 'POST', url: '/api/v1/webhooks/test', key, payload: body });
const delivery = async (key: string, id: string) => (await t.request({ method: 'GET', url: `/api/v1/webhooks/deliveries/${id}`, key })).json().data;
const deliveries = async (key: string, query = '') => (await t.request({ method: 'GET', url: `/api/v1/webhooks/deliveries${query}`, key })).json().data;

const settled = (key: string, status: string) =>
  until(`a ${status} delivery`, async () => (await deliveries(key)).items.find((d: any) => d.status === status));

describe('delivery pipeline', () => {
  it('POSTs {id, type, created, data} signed over the raw bytes, both ways', async () => {
    const { key, rx, ep } = await setup();
    const res = await sendTest(key, { eventType: 'transaction.succeeded' });
    assert.deepEqual(res.json().data, { created: 1 });
    const [got] = await rx.waitFor(1);
    assert.ok(got.verified, 'X-Service-Signature and webhook-signature verify over the raw body');
    assert.equal(got.headers['content-type'], 'application/json');
    assert.match(String(got.headers['x-service-signature']), /^sha256=[0-9a-f]{64}$/);
    assert.match(String(got.headers['webhook-signature']), /^v1,[A-Za-z0-9+/]+=*$/);
    assert.equal(got.headers['webhook-id'], got.json.id);
    assert.ok(Math.abs(Number(got.headers['webhook-timestamp']) - Date.now() / 1000) < 10);
    assert.deepEqual(Object.keys(got.json), ['id', 'type', 'created', 'data']);
    assert.match(got.json.id, /^evt_/);
    assert.equal(got.json.type, 'transaction.succeeded');
    assert.match(got.json.created, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    // The sample's data is shaped like a real Transaction.
    for (const field of ['txref', 'type', 'status', 'amount', 'currency', 'customer', 'createdAt', 'metadata']) assert.ok(field in got.json.data, field);
    const d = await settled(key, 'succeeded');
    assert.equal(d.endpointID, ep.id);
    assert.equal(d.eventID, got.json.id);
    assert.equal(d.eventType, 'transaction.succeeded');
    assert.equal(d.resourceType, 'transaction');
    assert.equal(d.resourceID, got.json.data.txref);
    assert.equal(d.attempts, 1);
    assert.equal(d.responseCode, 200);
    assert.equal(d.mode, 'test');
    assert.match(d.id, /^whd_/);
    assert.ok(d.deliveredAt && d.createdAt);
    const detail = await delivery(key, d.id);
    assert.equal(detail.attemptLog.length, 1);
    assert.equal(detail.attemptLog[0].responseCode, 200);
    assert.equal(detail.attemptLog[0].responseBody, 'ok');
    assert.equal(typeof detail.attemptLog[0].durationMs, 'number');
  });

  it('retries a receiver that fails twice, then records three attempts and success', async () => {
    const { key, rx } = await setup(['member.joined'], (n) => (n <= 2 ? { status: 500, body: `boom ${n}` } : { status: 204 }));
    await sendTest(key, { eventType: 'member.joined' });
    const got = await rx.waitFor(3);
    assert.ok(got.every((g) => g.verified));
    assert.equal(new Set(got.map((g) => g.json.id)).size, 1, 'every retry carries the same event id');
    assert.ok(got[1].raw.equals(got[0].raw) && got[2].raw.equals(got[0].raw), 'and the same bytes');
    const d = await settled(key, 'succeeded');
    assert.equal(d.attempts, 3);
    assert.equal(d.responseCode, 204);
    const detail = await delivery(key, d.id);
    assert.deepEqual(detail.attemptLog.map((a: any) => a.responseCode), [500, 500, 204]);
    assert.equal(detail.attemptLog[0].responseBody, 'boom 1');
    assert.ok(got[1].at - got[0].at >= 45, 'waits for the schedule between attempts');
  });

  it('records a timeout for a receiver that never answers, and gives up after the last attempt', async () => {
    const { key, rx } = await setup(['member.joined'], () => ({ hang: true }));
    await sendTest(key, { eventType: 'member.joined' });
    await rx.waitFor(4, 20_000);
    const d = await until('the delivery failed', async () => {
      const [row] = (await t.request({ method: 'GET', url: '/api/v1/webhooks/deliveries?status=failed', key })).json().data.items;
      return row;
    }, 20_000);
    assert.equal(d.attempts, 4, 'the first try and three retries');
    assert.equal(d.failureReason, 'attempts_exhausted');
    assert.equal(d.responseCode, undefined);
    const detail = await delivery(key, d.id);
    for (const a of detail.attemptLog) {
      assert.match(a.error, /^timeout/);
      assert.ok(a.durationMs >= 1490);
    }
  });

  it('keeps the first 1 KB of any answer, binary included', async () => {
    const { key, rx } = await setup(['member.joined'], () => ({ status: 200, body: `\u0000bin${'x'.repeat(3000)}` }));
    await sendTest(key, { eventType: 'member.joined' });
    await rx.waitFor(1);
    const d = await settled(key, 'succeeded');
    const [attempt] = (await delivery(key, d.id)).attemptLog;
    assert.equal(attempt.responseBody.length, 1024);
    assert.ok(attempt.responseBody.startsWith('\uFFFDbin'));
  });

  it('treats a redirect as a failure and does not follow it', async () => {
    const { key, rx } = await setup(['member.joined'], (n) => (n === 1 ? { status: 302, headers: { location: 'http://127.0.0.1:9/elsewhere' } } : { status: 200 }));
    await sendTest(key, { eventType: 'member.joined' });
    await rx.waitFor(2);
    const d = await settled(key, 'succeeded');
    const detail = await delivery(key, d.id);
    assert.deepEqual(detail.attemptLog.map((a: any) => a.responseCode), [302, 200]);
  });

  it('honours Retry-After on 429', async () => {
    const { key, rx } = await setup(['member.joined'], (n) => (n === 1 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200 }));
    await sendTest(key, { eventType: 'member.joined' });
    const got = await rx.waitFor(2);
    assert.ok(got[1].at - got[0].at >= 950, `waited ${got[1].at - got[0].at} ms, not the 50 ms schedule`);
  });

  it('disables the endpoint on 410 Gone and says why', async () => {
    const { key, rx, ep } = await setup(['member.joined'], () => ({ status: 410 }));
    await sendTest(key, { eventType: 'member.joined' });
    await rx.waitFor(1);
    const d = await settled(key, 'failed');
    assert.equal(d.failureReason, 'endpoint_gone');
    assert.equal(d.attempts, 1);
    const endpoint = (await t.request({ method: 'GET', url: `/api/v1/webhooks/${ep.id}`, key })).json().data;
    assert.equal(endpoint.status, 'disabled');
    assert.match(endpoint.disabledReason, /410/);
    assert.deepEqual((await sendTest(key, { eventType: 'member.joined' })).json().data, { created: 0 }, 'a disabled endpoint gets no new deliveries');
  });

  it('disables an endpoint whose deliveries have failed for five days in a row', async () => {
    const { key, rx, ep, brandId } = await setup(['member.joined'], () => ({ status: 500 }));
    await sendTest(key, { eventType: 'member.joined' });
    await rx.waitFor(1);
    await until('the failure streak to start', async () => (await t.db.query<{ failing_since: Date | null }>('SELECT failing_since FROM webhook_endpoints WHERE brand_id = $1 AND id = $2', [brandId, ep.id]))[0].failing_since);
    // Pretend the streak began five days and a minute ago; the next failed attempt ends it.
    await t.db.query(`UPDATE webhook_endpoints SET failing_since = now() - interval '5 days 1 minute' WHERE brand_id = $1 AND id = $2`, [brandId, ep.id]);
    await rx.waitFor(2);
    const endpoint = await until('the endpoint to be disabled', async () => {
      const e = (await t.request({ method: 'GET', url: `/api/v1/webhooks/${ep.id}`, key })).json().data;
      return e.status === 'disabled' && e;
    });
    assert.match(endpoint.disabledReason, /^failing: every delivery attempt since/);
    const enabled = (await t.request({ method: 'PATCH', url: `/api/v1/webhooks/${ep.id}`, key, payload: { status: 'active' } })).json().data;
    assert.equal(enabled.disabledReason, undefined, 'enabling clears the reason');
  });

  it('fans an event out to each active endpoint of the brand and mode subscribed to its type', async () => {
    const { key, brandId, rx } = await setup(['member.joined']);
    const other = await receiver();
    const second = await registerEndpoint(t, key, other.url, ['member.joined', 'member.removed']);
    other.secret = second.signingSecret;
    await registerEndpoint(t, key, other.url, ['transaction.failed']); // not subscribed
    const disabled = await registerEndpoint(t, key, other.url, ['member.joined']);
    await t.request({ method: 'PATCH', url: `/api/v1/webhooks/${disabled.id}`, key, payload: { status: 'disabled' } });
    const live = await createKey(t.db, brandId, { mode: 'live' });
    await registerEndpoint(t, live.key, 'https://hooks.example.com/x', ['member.joined']).catch(() => undefined);
    const event = await t.db.transaction((tx) => recordEvent(tx, { brandId, mode: 'test', type: 'member.joined', data: { membershipId: 'mem_x', name: 'A', email: 'a@example.com', status: 'active', joinedAt: new Date().toISOString(), version: 1, updatedAt: new Date().toISOString() } }));
    const [queued] = await t.db.query<{ count: number }>('SELECT count(*)::int AS count FROM webhook_deliveries WHERE brand_id = $1 AND event_id = $2', [brandId, event.id]);
    assert.equal(queued.count, 2);
    const [a] = await rx.waitFor(1);
    const [b] = await other.waitFor(1);
    assert.equal(a.json.id, event.id);
    assert.equal(b.json.id, event.id);
    assert.ok(a.verified && b.verified, 'each signed with its own endpoint\'s secret');
    await new Promise((r) => setTimeout(r, 150));
    assert.equal(other.received.length, 1);
  });

  it('writes nothing when the change rolls back', async () => {
    const { key, brandId } = await setup(['member.joined']);
    await assert.rejects(t.db.transaction(async (tx) => {
      await recordEvent(tx, { brandId, mode: 'test', type: 'member.joined', data: { membershipId: 'mem_rollback' } as never });
      throw new Error('the change failed');
    }));
    assert.equal((await deliveries(key)).items.length, 0);
  });

  it('refuses at delivery time a name that now resolves to a private address (DNS rebinding)', async () => {
    const { brandId } = await owner('live');
    const live = await createKey(t.db, brandId, { mode: 'live' });
    dns['rebinding.example.com'] = '93.184.215.14';
    const ep = await registerEndpoint(t, live.key, 'https://rebinding.example.com/hook', ['member.joined']);
    dns['rebinding.example.com'] = '127.0.0.1';
    await sendTest(live.key, { eventType: 'member.joined', endpointID: ep.id });
    const d = await until('a refused attempt', async () => {
      const items = (await deliveries(live.key)).items;
      return items[0]?.attempts >= 1 && items[0];
    });
    const detail = await delivery(live.key, d.id);
    assert.match(detail.attemptLog[0].error, /^refused: rebinding\.example\.com resolves to 127\.0\.0\.1/);
    assert.equal(detail.attemptLog[0].responseCode, undefined);
  });
});

describe('POST /webhooks/test', () => {
  runCommonRouteTests('POST /webhooks/test', {
    method: 'POST', scope: 'webhooks:write', foreign: 'none', modeScoped: true,
    async setup() { return { url: '/api/v1/webhooks/test', body: { eventType: 'member.joined' } }; },
  }, () => t);

  it('sends to exactly the named endpoint, whatever it subscribes to', async () => {
    const { key, rx } = await setup(['transaction.succeeded']);
    const other = await receiver();
    await registerEndpoint(t, key, other.url, ['payout.settled']);
    const target = await registerEndpoint(t, key, rx.url, ['member.joined']);
    rx.secret = target.signingSecret;
    const res = await sendTest(key, { eventType: 'payout.settled', endpointID: target.id });
    assert.deepEqual(res.json().data, { created: 1 });
    const [got] = await rx.waitFor(1);
    assert.ok(got.verified);
    assert.equal(got.json.type, 'payout.settled');
    assert.equal(other.received.length, 0);
  });

  it('answers 404 for an unknown or another brand\'s endpoint and 400 for an unknown type', async () => {
    const { key } = await setup();
    const stranger = await setup();
    assert.equal((await sendTest(key, { eventType: 'member.joined', endpointID: 'we_nope' })).statusCode, 404);
    assert.equal((await sendTest(key, { eventType: 'member.joined', endpointID: stranger.ep.id })).statusCode, 404);
    const bad = await sendTest(key, { eventType: 'invoice.paid' });
    assert.equal(bad.statusCode, 400);
    assert.match(bad.json().message, /eventType.*invoice\.paid/);
    assert.equal((await sendTest(key, {})).statusCode, 400);
  });

  it('sends every event type with data shaped like the real one', async () => {
    const { key, rx } = await setup(['transaction.succeeded', 'transaction.failed', 'payout.settled', 'subscription.renewed', 'subscription.expired', 'subscription.completed', 'member.joined', 'member.removed']);
    const types = ['transaction.succeeded', 'transaction.failed', 'payout.settled', 'subscription.renewed', 'subscription.expired', 'subscription.completed', 'member.joined', 'member.removed'];
    for (const eventType of types) assert.deepEqual((await sendTest(key, { eventType })).json().data, { created: 1 });
    const got = await rx.waitFor(types.length);
    for (const g of got) {
      assert.ok(g.verified);
      // webhooks/payloads.ts is the shape of every event's data; the samples follow it.
      assert.ok(Value.Check(eventPayloads[g.json.type as EventType], g.json.data), `${g.json.type} data matches its payload schema`);
    }
    assert.deepEqual(new Set(got.map((g) => g.json.type)), new Set(types));
  });
});

describe('the delivery log', () => {
  const deliveryFor = async (ctx: { t: TestApp; brandId: string; mode: Mode }) => {
    const k = await createKey(ctx.t.db, ctx.brandId, { mode: ctx.mode });
    const ep = await registerEndpoint(ctx.t, k.key, ctx.mode === 'live' ? 'https://unresolvable.example.com/x' : 'http://127.0.0.1:9/x', ['member.joined']);
    const ev = await ctx.t.db.transaction((tx) => recordEvent(tx, { brandId: ctx.brandId, mode: ctx.mode, type: 'member.joined', data: { membershipId: 'mem_log' } as never }));
    const [row] = await ctx.t.db.query<{ id: string }>('SELECT id FROM webhook_deliveries WHERE brand_id = $1 AND event_id = $2', [ctx.brandId, ev.id]);
    void ep;
    return row.id;
  };
  runCommonRouteTests('GET /webhooks/deliveries', {
    method: 'GET', scope: 'webhooks:write', foreign: 'hidden', modeScoped: true,
    async setup(ctx) { const id = await deliveryFor(ctx); return { url: '/api/v1/webhooks/deliveries', marker: id }; },
  }, () => t);
  runCommonRouteTests('GET /webhooks/deliveries/{id}', {
    method: 'GET', scope: 'webhooks:write', foreign: 404, modeScoped: true,
    async setup(ctx) { const id = await deliveryFor(ctx); return { url: `/api/v1/webhooks/deliveries/${id}`, marker: id }; },
  }, () => t);

  it('lists newest first, pages, and filters by status, endpointID and eventType', async () => {
    const { key, rx, ep } = await setup(['member.joined', 'member.removed']);
    const failing = await receiver(() => ({ status: 410 }));
    const gone = await registerEndpoint(t, key, failing.url, ['member.joined']);
    await sendTest(key, { eventType: 'member.joined' });
    await sendTest(key, { eventType: 'member.removed' });
    await rx.waitFor(2);
    await failing.waitFor(1);
    await until('all settled', async () => (await deliveries(key)).items.every((d: any) => d.status !== 'pending'));
    const all = (await deliveries(key)).items;
    assert.equal(all.length, 3);
    assert.equal(all[0].eventType, 'member.removed', 'newest first');
    const page1 = await deliveries(key, '?limit=2');
    assert.equal(page1.items.length, 2);
    assert.equal(page1.hasMore, true);
    const page2 = await deliveries(key, `?limit=2&cursor=${page1.nextCursor}`);
    assert.deepEqual([...page1.items, ...page2.items].map((d: any) => d.id), all.map((d: any) => d.id));
    assert.deepEqual((await deliveries(key, '?status=failed')).items.map((d: any) => d.endpointID), [gone.id]);
    assert.equal((await deliveries(key, `?endpointID=${ep.id}`)).items.length, 2);
    assert.deepEqual((await deliveries(key, '?eventType=member.removed')).items.map((d: any) => d.eventType), ['member.removed']);
    assert.equal((await deliveries(key, `?eventType=member.joined&endpointID=${ep.id}&status=succeeded`)).items.length, 1);
    const bad = await t.request({ method: 'GET', url: '/api/v1/webhooks/deliveries?status=lost', key });
    assert.equal(bad.statusCode, 400);
    const badType = await t.request({ method: 'GET', url: '/api/v1/webhooks/deliveries?eventType=nope', key });
    assert.equal(badType.statusCode, 400);
    assert.match(badType.json().message, /eventType/);
    const crossed = await t.request({ method: 'GET', url: `/api/v1/webhooks/deliveries?status=failed&cursor=${page1.nextCursor}`, key });
    assert.equal(crossed.statusCode, 400, 'a cursor is only good for the list (and filters) it came from');
  });
});

describe('POST /webhooks/deliveries/{id}/resend', () => {
  runCommonRouteTests('POST /webhooks/deliveries/{id}/resend', {
    method: 'POST', scope: 'webhooks:write', foreign: 404, modeScoped: true,
    async setup(ctx) {
      const rx = await receiver();
      const k = await createKey(ctx.t.db, ctx.brandId, { mode: ctx.mode });
      const url = ctx.mode === 'live' ? 'https://unresolvable.example.com/x' : rx.url;
      await registerEndpoint(ctx.t, k.key, url, ['member.joined']);
      const ev = await ctx.t.db.transaction((tx) => recordEvent(tx, { brandId: ctx.brandId, mode: ctx.mode, type: 'member.joined', data: { membershipId: 'mem_resend' } as never }));
      const [row] = await ctx.t.db.query<{ id: string }>('SELECT id FROM webhook_deliveries WHERE brand_id = $1 AND event_id = $2', [ctx.brandId, ev.id]);
      // Let the worker finish its own attempt, so the resend does not find the delivery in flight.
      await until('the first attempt', async () => (await ctx.t.db.query<{ status: string }>('SELECT status FROM webhook_deliveries WHERE brand_id = $1 AND id = $2', [ctx.brandId, row.id]))[0].status !== 'pending' || ctx.mode === 'live');
      return { url: `/api/v1/webhooks/deliveries/${row.id}/resend`, marker: row.id };
    },
  }, () => t);

  it('sends the same event and bytes again, freshly signed, as a new attempt on the same record', async () => {
    const { key, rx } = await setup(['member.joined'], (n) => (n === 1 ? { status: 500 } : { status: 200, body: `thanks ${n}` }));
    await sendTest(key, { eventType: 'member.joined' });
    await rx.waitFor(2);
    const d = await settled(key, 'succeeded');
    await new Promise((r) => setTimeout(r, 1100)); // a new second, so the fresh signature differs
    const res = await t.request({ method: 'POST', url: `/api/v1/webhooks/deliveries/${d.id}/resend`, key });
    assert.equal(res.statusCode, 200, res.body);
    const after = res.json().data;
    assert.equal(after.id, d.id, 'the same delivery record');
    assert.equal(after.attempts, 3);
    assert.equal(after.status, 'succeeded');
    assert.equal(after.attemptLog.length, 3);
    assert.equal(after.attemptLog[2].responseBody, 'thanks 3');
    const got = rx.received;
    assert.equal(got.length, 3, 'sent right away, in the request');
    assert.ok(got[2].verified);
    assert.equal(got[2].json.id, got[0].json.id, 'same event id');
    assert.ok(got[2].raw.equals(got[0].raw), 'same body bytes');
    assert.notEqual(got[2].headers['webhook-timestamp'], got[0].headers['webhook-timestamp']);
    assert.notEqual(got[2].headers['webhook-signature'], got[0].headers['webhook-signature'], 'freshly signed');
    const listed = (await deliveries(key)).items.find((x: any) => x.id === d.id);
    assert.equal(listed.attempts, 3, 'the list shows the resend');
    assert.ok(listed.lastAttemptAt >= after.attemptLog[2].attemptedAt);
  });

  it('resends a failed delivery once its endpoint is fixed', async () => {
    let answer = 500;
    const { key, rx } = await setup(['member.joined'], () => ({ status: answer }));
    await sendTest(key, { eventType: 'member.joined' });
    await rx.waitFor(4);
    const d = await settled(key, 'failed');
    answer = 200;
    const after = (await t.request({ method: 'POST', url: `/api/v1/webhooks/deliveries/${d.id}/resend`, key })).json().data;
    assert.equal(after.status, 'succeeded');
    assert.equal(after.attempts, 5);
    assert.equal(after.failureReason, undefined);
  });

  it('refuses to resend to a disabled or deleted endpoint', async () => {
    const { key, rx, ep } = await setup(['member.joined']);
    await sendTest(key, { eventType: 'member.joined' });
    await rx.waitFor(1);
    const d = await settled(key, 'succeeded');
    await t.request({ method: 'PATCH', url: `/api/v1/webhooks/${ep.id}`, key, payload: { status: 'disabled' } });
    const disabled = await t.request({ method: 'POST', url: `/api/v1/webhooks/deliveries/${d.id}/resend`, key });
    assert.equal(disabled.statusCode, 409);
    assert.match(disabled.json().message, /disabled/);
    await t.request({ method: 'DELETE', url: `/api/v1/webhooks/${ep.id}`, key });
    const deleted = await t.request({ method: 'POST', url: `/api/v1/webhooks/deliveries/${d.id}/resend`, key });
    assert.equal(deleted.statusCode, 409);
    assert.match(deleted.json().message, /deleted/);
    assert.equal((await delivery(key, d.id)).status, 'succeeded', 'the log outlives the endpoint');
  });
});
