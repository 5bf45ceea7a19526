import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openPostgres, type Db } from '../db/client.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { registerEndpoint, startReceiver } from '../testing/receiver.ts';
import { startWorker, type Worker } from '../worker/loop.ts';
import { workSources } from '../work-sources.ts';
import { advance, buyPlan, recurringBrand } from '../testing/subscriptions.ts';
import { until } from '../testing/until.ts';

let t: TestApp;
// A generous receiver timeout: on a loaded machine a slow answer would be retried, and at-least-once would read as twice.
before(async () => { t = await startTestApp({ worker: true, webhooks: { timeoutMs: 10_000, claimLeaseMs: 30_000 } }); });
after(async () => { await t.close(); });

const day = 86_400_000;

describe('renewals by the background worker', () => {
  it('with two worker loops (two pools on PostgreSQL), bills and announces each renewal exactly once', async () => {
    const b = await recurringBrand(t);
    const members = [];
    for (let i = 0; i < 6; i++) members.push(await buyPlan(t, b, 'monthly'));
    // A second worker, on its own pool when there is a server to share.
    let second: Db = t.db;
    if (t.url) second = openPostgres(t.url, { searchPath: t.searchPath });
    const worker2: Worker = await startWorker(second, workSources({ ...t.deps, db: second }), t.deps.log, 10);
    try {
      // Move the clock without running the jobs (no advance call): the workers find them due.
      await t.db.query('INSERT INTO test_clocks (brand_id, offset_ms) VALUES ($1, $2) ON CONFLICT (brand_id) DO UPDATE SET offset_ms = $2', [b.brandId, 31 * day + 60_000]);
      const count = async (sql: string) => (await t.db.query<{ n: number }>(sql, [b.brandId]))[0].n;
      await until('six renewals', async () => (await count('SELECT count(*)::int AS n FROM events WHERE brand_id = $1 AND type = \'subscription.renewed\'')) >= 6);
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(await count('SELECT count(*)::int AS n FROM transactions WHERE brand_id = $1 AND type = \'renewal\''), 6);
      assert.equal(await count('SELECT count(*)::int AS n FROM sandbox_payments WHERE brand_id = $1 AND status = \'succeeded\''), 12);
      assert.equal(await count('SELECT count(*)::int AS n FROM events WHERE brand_id = $1 AND type = \'subscription.renewed\''), 6);
      assert.equal(await count('SELECT count(*)::int AS n FROM events WHERE brand_id = $1 AND type = \'transaction.succeeded\''), 12);
    } finally {
      await worker2.stop();
      if (second !== t.db) await second.close();
    }
  });

  it('resumes a renewal whose worker died after recording it, charging it once', async () => {
    const b = await recurringBrand(t);
    const { membershipId } = await buyPlan(t, b, 'monthly');
    const [sub] = await t.db.query<{ id: string; current_period_end: Date }>('SELECT id, current_period_end FROM subscriptions WHERE brand_id = $1', [b.brandId]);
    // Step 1 committed, then the worker died: a pending renewal on a leased subscription.
    const { beginDueWork } = await import('./renewals.ts');
    const { findSubscription } = await import('./repository.ts');
    await t.db.query('INSERT INTO test_clocks (brand_id, offset_ms, busy_until) VALUES ($1, 0, now() + interval \'1 hour\')', [b.brandId]);
    const work = await t.db.transaction(async (tx) => beginDueWork(tx, t.deps.payments, (await findSubscription(tx, b.brandId, sub.id, { forUpdate: true }))!,
      sub.current_period_end, t.config.renewals, sub.current_period_end));
    assert.equal(work.kind, 'bill');
    await advance(t, b.key, { by: '32d' });
    const renewals = await t.db.query<{ status: string }>('SELECT status FROM transactions WHERE brand_id = $1 AND type = \'renewal\'', [b.brandId]);
    assert.deepEqual(renewals.map((r) => r.status), ['succeeded']);
    const m = await t.request({ method: 'GET', url: `/api/v1/hubs/${b.ids.club}/members/${membershipId}`, key: b.key });
    assert.equal(m.json().data.subscription.periodsPaid, 2);
  });

  it('a renewal charged and then settled by POST /payments/verify moves the subscription on once, with no second charge', async () => {
    const b = await recurringBrand(t);
    const { membershipId } = await buyPlan(t, b, 'monthly');
    const [sub] = await t.db.query<{ id: string; current_period_end: Date }>('SELECT id, current_period_end FROM subscriptions WHERE brand_id = $1', [b.brandId]);
    const { beginDueWork, chargeRenewal } = await import('./renewals.ts');
    const { findSubscription } = await import('./repository.ts');
    await t.db.query('INSERT INTO test_clocks (brand_id, offset_ms, busy_until) VALUES ($1, 0, now() + interval \'1 hour\')', [b.brandId]);
    const work = await t.db.transaction(async (tx) => beginDueWork(tx, t.deps.payments, (await findSubscription(tx, b.brandId, sub.id, { forUpdate: true }))!,
      sub.current_period_end, t.config.renewals, sub.current_period_end));
    assert.equal(work.kind, 'bill');
    if (work.kind !== 'bill') return;
    assert.equal((await chargeRenewal(t.db, t.deps.payments, work.sub, work.payment)).status, 'succeeded');
    // The worker died here; the brand's server verifies the transaction it heard nothing about.
    const verified = await t.request({ method: 'POST', url: '/api/v1/payments/verify', key: b.key, payload: { txref: work.payment.txref } });
    assert.equal(verified.json().data.status, 'succeeded');
    await advance(t, b.key, { by: '32d' });
    const m = await t.request({ method: 'GET', url: `/api/v1/hubs/${b.ids.club}/members/${membershipId}`, key: b.key });
    assert.equal(m.json().data.subscription.periodsPaid, 2);
    const renewals = await t.db.query('SELECT 1 FROM transactions WHERE brand_id = $1 AND type = \'renewal\'', [b.brandId]);
    assert.equal(renewals.length, 1);
    const charged = await t.db.query('SELECT 1 FROM sandbox_payments WHERE brand_id = $1 AND status = \'succeeded\'', [b.brandId]);
    assert.equal(charged.length, 2);
    const renewed = await t.db.query('SELECT 1 FROM events WHERE brand_id = $1 AND type = \'subscription.renewed\'', [b.brandId]);
    assert.equal(renewed.length, 1);
  });

  it('delivers each lifecycle event signed to a real receiver exactly once', async () => {
    const b = await recurringBrand(t);
    const rx = await startReceiver();
    try {
      const types = ['transaction.succeeded', 'transaction.failed', 'subscription.renewed', 'subscription.expired', 'subscription.completed',
        'member.joined', 'member.removed', 'payout.settled'];
      const ep = await registerEndpoint(t, b.key, rx.url, types);
      rx.secret = ep.signingSecret;
      const { membershipId } = await buyPlan(t, b, 'yearly');
      await advance(t, b.key, { by: '367d' });
      await t.request({ method: 'POST', url: `/api/v1/memberships/${membershipId}/cancel`, key: b.key, payload: { atPeriodEnd: false } });
      const recorded = await t.db.query<{ id: string; type: string }>('SELECT id, type FROM events WHERE brand_id = $1', [b.brandId]);
      assert.ok(recorded.some((e) => e.type === 'subscription.renewed'));
      assert.ok(recorded.some((e) => e.type === 'payout.settled'));
      assert.ok(recorded.some((e) => e.type === 'member.removed'));
      const got = await rx.waitFor(recorded.length, 20_000);
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(rx.received.length, recorded.length, `nothing delivered twice: ${JSON.stringify(rx.received.map((d) => [d.json.id, d.json.type]))} vs ${JSON.stringify(recorded)}`);
      for (const d of got) assert.ok(d.verified, 'signed');
      assert.deepEqual(got.map((d) => d.json.id).sort(), recorded.map((e) => e.id).sort());
    } finally {
      await rx.close();
    }
  });
});
