import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dayStamp } from '../ids.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { createBrand, createKey } from '../testing/factories.ts';
import { moveEventToDay } from '../testing/log-days.ts';
import { registerEndpoint } from '../testing/receiver.ts';
import { recordEvent } from './service.ts';
import { dropExpiredDays } from './retention.ts';

// Retention by DROP (migration 037, events/retention.ts): whole days go, events after
// EVENT_RETENTION, deliveries and attempts after the shorter DELIVERY_LOG_RETENTION.
let t: TestApp;
before(async () => { t = await startTestApp(); });
after(async () => { await t.close(); });

const day = 86_400_000;
const startOfDay = (at: Date) => new Date(Math.floor(at.getTime() / day) * day);

describe('retention by day', () => {
  it('drops events past EVENT_RETENTION and deliveries past DELIVERY_LOG_RETENTION, and the API answers from what is left', async () => {
    const brand = await createBrand(t.db);
    const key = await createKey(t.db, brand.id, { mode: 'test' });
    await registerEndpoint(t, key.key, 'http://127.0.0.1:9/x', ['member.joined']);
    const record = async (membershipId: string, at: Date) => {
      const e = await t.db.transaction((tx) => recordEvent(tx, { brandId: brand.id, mode: 'test', type: 'member.joined', data: { membershipId } as never }));
      const [d] = await t.db.query<{ id: string }>('SELECT id FROM webhook_deliveries WHERE brand_id = $1 AND event_id = $2', [brand.id, e.id]);
      await t.db.query(
        `INSERT INTO webhook_attempts (brand_id, delivery_id, number, attempted_at, duration_ms, response_code, delivery_created_at)
         SELECT brand_id, id, 1, now(), 5, 500, created_at FROM webhook_deliveries WHERE brand_id = $1 AND id = $2`, [brand.id, d.id]);
      const moved = await moveEventToDay(t.db, brand.id, e.id, at);
      return { event: moved.eventId, delivery: moved.deliveryIds.get(d.id)! };
    };
    const now = new Date();
    const eventCutoff = new Date(now.getTime() - 30 * day);
    const logCutoff = new Date(now.getTime() - 10 * day);
    // The last millisecond of the day before the events' cutoff's day goes; the first of the
    // cutoff's own day stays (it ends after the cutoff): a row is kept at most a day more.
    const gone = await record('mem_gone', new Date(startOfDay(eventCutoff).getTime() - 1));
    const keptEvent = await record('mem_kept', startOfDay(eventCutoff));
    // Past the delivery log's retention, inside the events': the event stays, its delivery goes.
    const logGone = await record('mem_log_gone', new Date(startOfDay(logCutoff).getTime() - 1));
    const recent = await record('mem_recent', new Date(now.getTime() - 2 * day));

    const { dropped, failed } = await dropExpiredDays(t.db, { eventRetentionMs: 30 * day, deliveryLogRetentionMs: 10 * day }, now);
    assert.deepEqual(failed, []);
    assert.ok(dropped.includes(`events_p${dayStamp(new Date(startOfDay(eventCutoff).getTime() - 1))}`));
    assert.ok(!dropped.includes(`events_p${dayStamp(eventCutoff)}`));
    assert.ok(dropped.includes(`webhook_deliveries_p${dayStamp(new Date(startOfDay(logCutoff).getTime() - 1))}`));
    assert.ok(dropped.includes(`webhook_attempts_p${dayStamp(new Date(startOfDay(logCutoff).getTime() - 1))}`));
    assert.ok(!dropped.includes(`webhook_deliveries_p${dayStamp(logCutoff)}`));

    const get = (url: string) => t.request({ method: 'GET', url: `/api/v1${url}`, key: key.key });
    const events = (await get('/events')).json().data.items.map((e: { id: string }) => e.id);
    assert.deepEqual(events, [recent.event, logGone.event, keptEvent.event]);
    assert.equal((await get(`/events/${gone.event}`)).statusCode, 404);
    assert.equal((await get(`/events/${logGone.event}`)).statusCode, 200, 'the event outlives its delivery');
    assert.equal((await get(`/events/${keptEvent.event}`)).json().data.data.membershipId, 'mem_kept');

    const deliveries = (await get('/webhooks/deliveries')).json().data.items.map((d: { id: string }) => d.id);
    assert.deepEqual(deliveries, [recent.delivery]);
    assert.equal((await get(`/webhooks/deliveries/${logGone.delivery}`)).statusCode, 404);
    assert.equal((await get(`/webhooks/deliveries/${gone.delivery}`)).statusCode, 404);
    const one = (await get(`/webhooks/deliveries/${recent.delivery}`)).json().data;
    assert.equal(one.eventID, recent.event);
    assert.deepEqual(one.attemptLog.map((a: { responseCode: number }) => a.responseCode), [500]);
    assert.equal((await get(`/webhooks/deliveries?eventID=${logGone.event}`)).json().data.items.length, 0);
  });
});
