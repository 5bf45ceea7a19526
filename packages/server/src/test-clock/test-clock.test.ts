import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { runCommonRouteTests } from '../testing/auth-checks.ts';
import { advance, buyPlan, member, recurringBrand } from '../testing/subscriptions.ts';

let t: TestApp;
before(async () => { t = await startTestApp(); });
after(async () => { await t.close(); });

const day = 86_400_000;
const clockOf = async (key: string) => {
  const res = await t.request({ method: 'GET', url: '/api/v1/test-clock', key });
  assert.equal(res.statusCode, 200, res.body);
  return Date.parse(res.json().data.now);
};

describe('GET /test-clock', () => {
  runCommonRouteTests('GET /test-clock', {
    method: 'GET', scope: null, foreign: 'none', modeScoped: false,
    async setup() { return { url: '/api/v1/test-clock' }; },
  }, () => t);
});

describe('POST /test-clock/advance', () => {
  runCommonRouteTests('POST /test-clock/advance', {
    method: 'POST', scope: null, foreign: 'none', modeScoped: false,
    async setup() { return { url: '/api/v1/test-clock/advance', body: { by: '1h' } }; },
  }, () => t);

  it('moves one brand\'s test clock only: not another brand\'s, and never live mode (a live key gets 404)', async () => {
    const a = await recurringBrand(t);
    const b = await recurringBrand(t);
    const ma = await buyPlan(t, a, 'monthly');
    const mb = await buyPlan(t, b, 'monthly');
    const before = Date.now();
    const moved = await advance(t, a.key, { by: '31d' });
    assert.ok(Date.parse(moved.now) >= before + 31 * day);
    assert.ok(moved.jobsRun >= 1);
    assert.ok(Math.abs((await clockOf(a.key)) - Date.parse(moved.now)) < 5000);
    assert.ok(Math.abs((await clockOf(b.key)) - Date.now()) < 5000, 'another brand\'s clock did not move');
    assert.equal((await member(t, a, ma.membershipId)).subscription.periodsPaid, 2);
    assert.equal((await member(t, b, mb.membershipId)).subscription.periodsPaid, 1);

    for (const req of [{ method: 'GET' as const, url: '/api/v1/test-clock' }, { method: 'POST' as const, url: '/api/v1/test-clock/advance', payload: { by: '1d' } }]) {
      const res = await t.request({ ...req, key: a.liveKey });
      assert.equal(res.statusCode, 404);
      assert.equal(res.json().data.code, 'not_found');
    }
  });

  it('refuses bad input with 400 in the envelope', async () => {
    const a = await recurringBrand(t);
    const cases: unknown[] = [{}, { by: '3 days' }, { by: '1d', to: new Date().toISOString() }, { to: 'yesterday' },
      { to: new Date(Date.now() - day).toISOString() }, { by: 5 }, { by: '1d', extra: true }];
    for (const payload of cases) {
      const res = await t.request({ method: 'POST', url: '/api/v1/test-clock/advance', key: a.key, payload: payload as object });
      assert.equal(res.statusCode, 400, `${JSON.stringify(payload)}: ${res.body}`);
      assert.equal(res.json().status, 'error');
    }
  });

  it('runs due jobs in time order as of their due times: a month of daily renewals in one call', async () => {
    const a = await recurringBrand(t);
    const { loadCatalog } = await import('../catalog/load.ts');
    const ids = await loadCatalog(t.db, a.brandId, { hubs: [{ ref: 'daily', name: 'Daily', tiers: [
      { ref: 'd', name: 'Daily', price: { amount: 1, currency: 'USD' }, recurrence: { periodic: 'daily', interval: 1, count: 10 } }] }] });
    const { createLink, submitCard } = await import('../testing/checkout-fixtures.ts');
    const link = await createLink(t, a.key, { items: [{ id: ids.daily, plan: ids.d, type: 'membership' }], form: { formData: { fullName: 'Ada', email: 'd@example.com' } } });
    await submitCard(t, link.path, '4242 4242 4242 4242');
    await advance(t, a.key, { by: '30d' });
    const renewals = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM transactions WHERE brand_id = $1 AND type = \'renewal\'', [a.brandId]);
    assert.equal(renewals[0].n, 9);
    const periods = await t.db.query<{ data: any }>('SELECT data FROM events WHERE brand_id = $1 AND type = \'subscription.renewed\' ORDER BY created_at, id', [a.brandId]);
    const ends = periods.map((p) => Date.parse(p.data.subscription.currentPeriodEnd));
    assert.deepEqual(ends, [...ends].sort((x, y) => x - y));
    assert.equal(ends[1] - ends[0], day);
    const payouts = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM payouts WHERE brand_id = $1', [a.brandId]);
    assert.ok(payouts[0].n >= 9, 'daily payout runs happened between the renewals');
  });
});

describe('CLI: clock advance and member remove', () => {
  it('parses and runs both commands as the brand\'s owner', async () => {
    const { parseCommand } = await import('../cli/parse.ts');
    const { runCommand } = await import('../cli/commands.ts');
    const a = await recurringBrand(t);
    const { membershipId } = await buyPlan(t, a, 'monthly');
    const moved = await runCommand(t.db, undefined, await parseCommand(['clock', 'advance', '--brand', a.brandId, '--by', '31d']), t.config) as { now: string; jobsRun: number };
    assert.ok(moved.jobsRun >= 1);
    assert.equal((await member(t, a, membershipId)).subscription.periodsPaid, 2);
    const cancelled = await runCommand(t.db, undefined, await parseCommand(['member', 'remove', membershipId, '--at-period-end']), t.config) as any;
    assert.equal(cancelled.subscription.cancelAtPeriodEnd, true);
    const removed = await runCommand(t.db, undefined, await parseCommand(['member', 'remove', membershipId]), t.config) as any;
    assert.equal(removed.status, 'removed');
    await assert.rejects(parseCommand(['clock', 'advance', '--brand', a.brandId]), /exactly one of --by/);
    await assert.rejects(parseCommand(['member', 'remove']), /MEMBERSHIP_ID/);
  });
});

describe('the test clock under /test/, beside the other test helpers', () => {
  runCommonRouteTests('GET /test/clock', {
    method: 'GET', scope: null, foreign: 'none', modeScoped: false,
    async setup() { return { url: '/api/v1/test/clock' }; },
  }, () => t);
  runCommonRouteTests('POST /test/clock/advance', {
    method: 'POST', scope: null, foreign: 'none', modeScoped: false,
    async setup() { return { url: '/api/v1/test/clock/advance', body: { by: '1h' } }; },
  }, () => t);

  it('moves the same clock as /test-clock, running what falls due, and is 404 for a live key', async () => {
    const brand = await recurringBrand(t);
    await buyPlan(t, brand, 'monthly');
    const moved = await t.request({ method: 'POST', url: '/api/v1/test/clock/advance', key: brand.key, body: { by: '31d' } });
    assert.equal(moved.statusCode, 200, moved.body);
    assert.ok(moved.json().data.jobsRun >= 1, 'the renewal that fell due ran');
    const read = await t.request({ method: 'GET', url: '/api/v1/test/clock', key: brand.key });
    assert.ok(Math.abs(Date.parse(read.json().data.now) - (await clockOf(brand.key))) < 5000, 'one clock, read at either path');
    assert.ok(Date.parse(read.json().data.now) >= Date.now() + 30 * day);
    assert.equal((await t.request({ method: 'POST', url: '/api/v1/test/clock/advance', key: brand.liveKey, body: { by: '1h' } })).statusCode, 404);
  });
});
