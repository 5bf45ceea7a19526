import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dayStamp } from '../ids.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { createBrand, createKey } from '../testing/factories.ts';
import { moveEventToDay } from '../testing/log-days.ts';
import { registerEndpoint, startReceiver, type Receiver, type ReceiverAnswer } from '../testing/receiver.ts';
import { until } from '../testing/until.ts';

// A delivery lives in its event's day (migration 037): retries, attempts and resends of a
// delivery whose day is not today go to that day's partitions.
let t: TestApp;
const receivers: Receiver[] = [];
before(async () => { t = await startTestApp({ webhooks: { timeoutMs: 1500, claimLeaseMs: 10_000 } }); });
after(async () => {
  await t.close();
  await Promise.all(receivers.map((r) => r.close()));
});

const day = 86_400_000;

async function setup(respond?: (n: number) => ReceiverAnswer) {
  const brand = await createBrand(t.db);
  const key = (await createKey(t.db, brand.id, { mode: 'test' })).key;
  const rx = await startReceiver({ respond });
  receivers.push(rx);
  const ep = await registerEndpoint(t, key, rx.url, ['member.joined']);
  rx.secret = ep.signingSecret;
  return { brandId: brand.id, key, rx };
}

const sendTest = async (key: string) => {
  const res = await t.request({ method: 'POST', url: '/api/v1/webhooks/test', key, payload: { eventType: 'member.joined' } });
  assert.equal(res.statusCode, 200, res.body);
};

const deliveryOf = async (brandId: string) => {
  const [d] = await t.db.query<{ id: string; event_id: string }>('SELECT id, event_id FROM webhook_deliveries WHERE brand_id = $1', [brandId]);
  return d;
};

const attemptDays = async (brandId: string, deliveryId: string) => (await t.db.query<{ part: string }>(
  'SELECT tableoid::regclass::text AS part FROM webhook_attempts WHERE brand_id = $1 AND delivery_id = $2 ORDER BY number', [brandId, deliveryId])).map((r) => r.part);

describe('deliveries of another day', () => {
  it('delivers a delivery of an event recorded just before midnight after it, retries and all, recording its attempts in its day', async () => {
    const { brandId, key, rx } = await setup((n) => ({ status: n === 1 ? 500 : 200 }));
    await sendTest(key);
    const queued = await deliveryOf(brandId);
    // Recorded at the last millisecond of yesterday, sent today: the worker starts only now.
    const lastMs = new Date(Math.floor(Date.now() / day) * day - 1);
    const moved = await moveEventToDay(t.db, brandId, queued.event_id, lastMs);
    const id = moved.deliveryIds.get(queued.id)!;
    await t.startWorker();
    const got = await rx.waitFor(2);
    assert.ok(got.every((g) => g.verified));
    assert.deepEqual(got.map((g) => g.json.id), [moved.eventId, moved.eventId]);
    assert.equal(got[0].json.created, lastMs.toISOString());
    const d = await until('the retry', async () => {
      const res = (await t.request({ method: 'GET', url: `/api/v1/webhooks/deliveries/${id}`, key })).json().data;
      return res.status === 'succeeded' && res;
    });
    assert.equal(d.attempts, 2);
    assert.deepEqual(d.attemptLog.map((a: { responseCode: number }) => a.responseCode), [500, 200]);
    assert.deepEqual(await attemptDays(brandId, id), [`webhook_attempts_p${dayStamp(lastMs)}`, `webhook_attempts_p${dayStamp(lastMs)}`]);
  });

  it('resends a delivery whose day is 20 days back', async () => {
    await t.startWorker();
    const { brandId, key, rx } = await setup();
    await sendTest(key);
    await rx.waitFor(1);
    const sent = await deliveryOf(brandId);
    await until('the first outcome', async () => (await t.db.query<{ status: string }>(
      'SELECT status FROM webhook_deliveries WHERE brand_id = $1 AND id = $2', [brandId, sent.id]))[0].status === 'succeeded');
    const old = new Date(Date.now() - 20 * day);
    const moved = await moveEventToDay(t.db, brandId, sent.event_id, old);
    const id = moved.deliveryIds.get(sent.id)!;
    const res = await t.request({ method: 'POST', url: `/api/v1/webhooks/deliveries/${id}/resend`, key });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data.attempts, 2);
    assert.equal(res.json().data.status, 'succeeded');
    const got = await rx.waitFor(2);
    assert.equal(got[1].json.id, moved.eventId);
    assert.ok(got[1].verified);
    assert.deepEqual(await attemptDays(brandId, id), [`webhook_attempts_p${dayStamp(old)}`, `webhook_attempts_p${dayStamp(old)}`]);
    const [row] = await t.db.query<{ part: string }>('SELECT tableoid::regclass::text AS part FROM webhook_deliveries WHERE brand_id = $1 AND id = $2', [brandId, id]);
    assert.equal(row.part, `webhook_deliveries_p${dayStamp(old)}`);
  });
});
