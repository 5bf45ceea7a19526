import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { recordEvent } from '../events/service.ts';
import { purgeEventsBefore } from '../events/retention.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { createBrand, createKey } from '../testing/factories.ts';
import { registerEndpoint } from '../testing/receiver.ts';
import * as claims from './claim.ts';

/**
 * The delivery queue (migration 038) holds only what is due: a delivery whose event retention
 * purges goes from the queue with its log row, and no longer holds back its object's next one.
 */

let t: TestApp;
before(async () => { t = await startTestApp(); });
after(async () => { await t.close(); });

const caps: claims.ClaimCaps = { heldByEndpoint: new Map(), heldByBrand: new Map(), perEndpoint: 16, perBrand: 16 };

describe('the delivery queue', () => {
  it('lets a purged event take its still-queued delivery along, and the object\'s next delivery go', async () => {
    const brand = await createBrand(t.db);
    const key = (await createKey(t.db, brand.id, { mode: 'test' })).key;
    await registerEndpoint(t, key, 'http://127.0.0.1:9/never', ['member.joined', 'member.removed']);
    const data = { membershipId: 'mem_purged' } as never;
    const old = await t.db.transaction((tx) => recordEvent(tx, { brandId: brand.id, mode: 'test', type: 'member.joined', data }));
    const next = await t.db.transaction((tx) => recordEvent(tx, { brandId: brand.id, mode: 'test', type: 'member.removed', data }));
    // The first delivery is retrying far in the future: its object's next one waits behind it.
    await t.db.query(`UPDATE webhook_queue SET next_attempt_at = now() + interval '40 days', attempts = 5
      WHERE brand_id = $1 AND event_id = $2`, [brand.id, old.id]);
    const mine = async () => (await claims.claimDue(t.db, 100, 10_000, `queue-${Date.now()}`, caps)).filter((d) => d.brand_id === brand.id);
    assert.deepEqual(await mine(), [], 'the second delivery waits for the first');

    await t.db.query(`UPDATE events SET created_at = now() - interval '31 days' WHERE brand_id = $1 AND id = $2`, [brand.id, old.id]);
    await purgeEventsBefore(t.db, new Date(Date.now() - 30 * 86_400_000));
    const queued = await t.db.query<{ event_id: string }>('SELECT event_id FROM webhook_queue WHERE brand_id = $1', [brand.id]);
    assert.deepEqual(queued.map((q) => q.event_id), [next.id], 'the purged event\'s delivery left the queue with it');
    await t.db.query('INSERT INTO webhook_due_brands (brand_id, due_at) VALUES ($1, now()) ON CONFLICT DO NOTHING', [brand.id]);
    assert.deepEqual((await mine()).map((d) => d.event_id), [next.id], 'the object\'s next delivery is no longer held back');
  });
});
