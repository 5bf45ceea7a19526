import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { recordEvent } from '../events/service.ts';
import { dropExpiredDays } from '../events/retention.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { createBrand, createKey } from '../testing/factories.ts';
import { moveEventToDay } from '../testing/log-days.ts';
import { registerEndpoint } from '../testing/receiver.ts';
import * as claims from './claim.ts';

/**
 * The delivery queue (migration 038) holds only what is due. A delivery still queued when
 * retention removes its event (a long WEBHOOK_RETRY_SCHEDULE, or one waiting behind it) is not
 * sent, and does not hold back its object's next delivery: the claim sees to both, with no hook
 * in retention (which may purge rows or drop whole days).
 */

let t: TestApp;
before(async () => { t = await startTestApp(); });
after(async () => { await t.close(); });

const caps: claims.ClaimCaps = { heldByEndpoint: new Map(), heldByBrand: new Map(), perEndpoint: 16, perBrand: 16 };
const day = 86_400_000;

describe('the delivery queue', () => {
  it('lets a purged event\'s still-queued delivery go unsent, and the object\'s next delivery go', async () => {
    const brand = await createBrand(t.db);
    const key = (await createKey(t.db, brand.id, { mode: 'test' })).key;
    await registerEndpoint(t, key, 'http://127.0.0.1:9/never', ['member.joined', 'member.removed']);
    const data = { membershipId: 'mem_purged' } as never;
    const old = await t.db.transaction((tx) => recordEvent(tx, { brandId: brand.id, mode: 'test', type: 'member.joined', data }));
    const next = await t.db.transaction((tx) => recordEvent(tx, { brandId: brand.id, mode: 'test', type: 'member.removed', data }));
    // The first delivery is retrying far in the future: its object's next one waits behind it.
    await t.db.query(`UPDATE webhook_queue SET next_attempt_at = now() + interval '40 days', attempts = 5
      WHERE brand_id = $1 AND event_id = $2`, [brand.id, old.id]);
    const retainedSince = new Date(Date.now() - 30 * day);
    const mine = async () => (await claims.claimDue(t.db, 100, 10_000, `queue-${Date.now()}`, caps, [brand.id], retainedSince))
      .filter((d) => d.brand_id === brand.id);
    assert.deepEqual(await mine(), [], 'the second delivery waits for the first');

    // The first event is now 31 days old, past a 30-day retention, and its day dropped (the log
    // is partitioned by day, migration 037: the event moves with its deliveries and queue row).
    const moved = await moveEventToDay(t.db, brand.id, old.id, new Date(Date.now() - 31 * day));
    await dropExpiredDays(t.db, { eventRetentionMs: 30 * day, deliveryLogRetentionMs: 30 * day });
    const sent = await mine();
    assert.deepEqual(sent.map((d) => d.event_id), [next.id], 'the object\'s next delivery is no longer held back');
    await claims.releaseClaims(t.db, sent);

    // When the purged event's delivery comes due, the claim drops it from the queue unsent.
    await t.db.query(`UPDATE webhook_queue SET next_attempt_at = now() WHERE brand_id = $1 AND event_id = $2`, [brand.id, moved.eventId]);
    assert.deepEqual((await mine()).map((d) => d.event_id), [next.id], 'only the next delivery is claimed');
    const queued = await t.db.query<{ event_id: string }>('SELECT event_id FROM webhook_queue WHERE brand_id = $1', [brand.id]);
    assert.deepEqual(queued.map((q) => q.event_id), [next.id], 'the purged event\'s delivery left the queue');
  });

  it('drops a queued delivery whose log row is gone, and sends the rest', async () => {
    const brand = await createBrand(t.db);
    const key = (await createKey(t.db, brand.id, { mode: 'test' })).key;
    await registerEndpoint(t, key, 'http://127.0.0.1:9/never', ['member.joined']);
    const events = [];
    for (const n of [1, 2]) {
      events.push(await t.db.transaction((tx) => recordEvent(tx, { brandId: brand.id, mode: 'test', type: 'member.joined', data: { membershipId: `mem_${n}` } as never })));
    }
    // As when the log's day is dropped before the events' (a shorter log retention).
    await t.db.query('DELETE FROM webhook_deliveries WHERE brand_id = $1 AND event_id = $2', [brand.id, events[0].id]);
    const claimed = await claims.claimDue(t.db, 100, 10_000, 'queue-log-gone', caps, [brand.id]);
    assert.deepEqual(claimed.filter((d) => d.brand_id === brand.id).map((d) => d.event_id), [events[1].id]);
    const queued = await t.db.query<{ event_id: string }>('SELECT event_id FROM webhook_queue WHERE brand_id = $1', [brand.id]);
    assert.deepEqual(queued.map((q) => q.event_id), [events[1].id]);
  });
});
