import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Mode } from '../auth/principal.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { runCommonRouteTests } from '../testing/auth-checks.ts';
import { createBrand, createKey } from '../testing/factories.ts';
import { moveEventToDay } from '../testing/log-days.ts';
import { recordEvent } from './service.ts';

let t: TestApp;
before(async () => { t = await startTestApp(); });
after(async () => { await t.close(); });

const record = (brandId: string, mode: Mode, type: 'member.joined' | 'transaction.succeeded' = 'member.joined', data: Record<string, unknown> = { membershipId: 'mem_1' }) =>
  t.db.transaction((tx) => recordEvent(tx, { brandId, mode, type, data: data as never }));

describe('GET /events', () => {
  runCommonRouteTests('GET /events', {
    method: 'GET', scope: 'webhooks:write', foreign: 'hidden', modeScoped: true,
    async setup({ brandId, mode }) { const e = await record(brandId, mode); return { url: '/api/v1/events', marker: e.id }; },
  }, () => t);

  it('lists the events of the key\'s mode newest first, in the webhook body\'s shape, with paging and a type filter', async () => {
    const brand = await createBrand(t.db);
    const key = await createKey(t.db, brand.id, { mode: 'test' });
    const a = await record(brand.id, 'test', 'member.joined', { membershipId: 'mem_a', email: 'a@example.com' });
    const b = await record(brand.id, 'test', 'transaction.succeeded', { txref: 'tx_b', amount: 25.5 });
    const c = await record(brand.id, 'test', 'member.joined', { membershipId: 'mem_c' });
    await record(brand.id, 'live', 'member.joined', { membershipId: 'mem_live' });
    const page1 = (await t.request({ method: 'GET', url: '/api/v1/events?limit=2', key: key.key })).json().data;
    assert.deepEqual(page1.items.map((e: any) => e.id), [c.id, b.id]);
    assert.equal(page1.hasMore, true);
    const page2 = (await t.request({ method: 'GET', url: `/api/v1/events?limit=2&cursor=${page1.nextCursor}`, key: key.key })).json().data;
    assert.deepEqual(page2.items.map((e: any) => e.id), [a.id]);
    assert.equal(page2.hasMore, false);
    assert.deepEqual(page1.items[1], { id: b.id, type: 'transaction.succeeded', created: b.createdAt.toISOString(), data: { txref: 'tx_b', amount: 25.5 } });
    const joined = (await t.request({ method: 'GET', url: '/api/v1/events?type=member.joined', key: key.key })).json().data;
    assert.deepEqual(joined.items.map((e: any) => e.id), [c.id, a.id]);
    const bad = await t.request({ method: 'GET', url: '/api/v1/events?type=invoice.paid', key: key.key });
    assert.equal(bad.statusCode, 400);
    assert.match(bad.json().message, /invoice\.paid/);
  });
});

describe('GET /events/{id}', () => {
  runCommonRouteTests('GET /events/{id}', {
    method: 'GET', scope: 'webhooks:write', foreign: 404, modeScoped: true,
    async setup({ brandId, mode }) { const e = await record(brandId, mode); return { url: `/api/v1/events/${e.id}`, marker: e.id }; },
  }, () => t);

  it('returns one event exactly as its deliveries carry it', async () => {
    const brand = await createBrand(t.db);
    const key = await createKey(t.db, brand.id, { mode: 'test' });
    const e = await record(brand.id, 'test', 'member.joined', { membershipId: 'mem_x', status: 'active' });
    const res = await t.request({ method: 'GET', url: `/api/v1/events/${e.id}`, key: key.key });
    assert.deepEqual(res.json().data, { id: e.id, type: 'member.joined', created: e.createdAt.toISOString(), data: { membershipId: 'mem_x', status: 'active' } });
    assert.equal((await t.request({ method: 'GET', url: '/api/v1/events/evt_nope', key: key.key })).statusCode, 404);
  });
});

describe('retention', () => {
  it('purges events older than the cutoff with their deliveries and attempts, and keeps the rest', async () => {
    const { dropExpiredDays } = await import('./retention.ts');
    const brand = await createBrand(t.db);
    const key = await createKey(t.db, brand.id, { mode: 'test' });
    const res = await t.request({ method: 'POST', url: '/api/v1/webhooks', key: key.key, payload: { url: 'http://127.0.0.1:9/x', events: ['member.joined'] } });
    assert.equal(res.statusCode, 200);
    const recorded = await record(brand.id, 'test');
    const recent = await record(brand.id, 'test');
    // Retention drops whole days (migration 037): the old event moves to a day 31 days back, with
    // its deliveries (they live in their event's day).
    const old = await moveEventToDay(t.db, brand.id, recorded.id, new Date(Date.now() - 31 * 86_400_000));
    const thirty = 30 * 86_400_000;
    const purged = (await dropExpiredDays(t.db, { eventRetentionMs: thirty, deliveryLogRetentionMs: thirty })).dropped.length;
    assert.ok(old.deliveryIds.size >= 1);
    assert.ok(purged >= 1);
    const left = await t.db.query<{ id: string }>('SELECT id FROM events WHERE brand_id = $1', [brand.id]);
    assert.deepEqual(left.map((r) => r.id), [recent.id]);
    const deliveries = await t.db.query<{ event_id: string }>('SELECT event_id FROM webhook_deliveries WHERE brand_id = $1', [brand.id]);
    assert.deepEqual(deliveries.map((d) => d.event_id), [recent.id]);
  });
});
