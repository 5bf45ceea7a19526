import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadCatalog } from '../catalog/load.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { runCommonRouteTests } from '../testing/auth-checks.ts';
import { createMembership } from '../testing/factories.ts';
import type { SubscriptionRow } from './repository.ts';
import { beginDueWork, chargeRenewal, settleRenewal } from './renewals.ts';
import { advance, buyPlan, eventTypes, member, recurringBrand, recurringCatalog, sub341 } from '../testing/subscriptions.ts';

let t: TestApp;
before(async () => { t = await startTestApp(); });
after(async () => { await t.close(); });

const day = 86_400_000;
// Events in the order they were recorded (events.seq), also within one transaction.
const sameSet = (actual: string[], expected: string[]) => assert.deepEqual(actual, expected);
const lifecycle = (type: string) => type.startsWith('subscription.') || type.startsWith('member.') || type.startsWith('transaction.');

describe('subscriptions', () => {
  it('starts a subscription on the membership of a recurring plan, and the page says the terms', async () => {
    const b = await recurringBrand(t);
    const { membershipId, link } = await buyPlan(t, b, 'twelve');
    const page = await t.app.inject({ method: 'GET', url: link.path });
    assert.match(page.body, /5\.00 USD every month, 12 payments/);
    const m = await member(t, b, membershipId);
    assert.equal(m.status, 'active');
    assert.equal(m.subscription.status, 'active');
    assert.equal(m.subscription.periodsPaid, 1);
    assert.equal(m.subscription.count, 12);
    assert.equal(m.subscription.cancelAtPeriodEnd, false);
    assert.equal(m.subscription.nextBillingAt, m.subscription.currentPeriodEnd);
    const start = new Date(m.subscription.currentPeriodStart);
    const end = new Date(m.subscription.currentPeriodEnd);
    assert.equal(end.getUTCMonth(), (start.getUTCMonth() + 1) % 12);

    // The member.joined of a recurring purchase carries the subscription it started.
    const [joined] = (await eventTypes(t, b.brandId, (x) => x === 'member.joined')).map((e) => e.data);
    assert.equal(joined.membershipId, membershipId);
    assert.equal(joined.subscription?.status, 'active');
    assert.equal(joined.subscription?.count, 12);

    const open = await buyPlan(t, b, 'monthly');
    const openPage = await t.app.inject({ method: 'GET', url: open.link.path });
    assert.match(openPage.body, /then renews until cancelled/);
    // The sandbox kept the card; we did not.
    const [row] = await t.db.query<Record<string, unknown>>('SELECT * FROM subscriptions WHERE brand_id = $1 LIMIT 1', [b.brandId]);
    assert.ok(!JSON.stringify(row).includes('4242424242424242'));
  });

  it('renews a yearly plan 3 times and completes it after count = 4, then ends access at the last period\'s end', async () => {
    const b = await recurringBrand(t);
    const { membershipId } = await buyPlan(t, b, 'yearly');
    for (let i = 0; i < 3; i++) await advance(t, b.key, { by: '366d' });
    const m = await member(t, b, membershipId);
    assert.equal(m.status, 'active');
    assert.equal(m.subscription.status, 'completed');
    assert.equal(m.subscription.periodsPaid, 4);
    assert.equal(m.subscription.nextBillingAt, undefined);

    const txns = await t.db.query<{ type: string; status: string; resource_id: string; customer_email: string }>(
      'SELECT type, status, resource_id, customer_email FROM transactions WHERE brand_id = $1 ORDER BY created_at', [b.brandId]);
    assert.deepEqual(txns.map((x) => `${x.type}:${x.status}`), ['purchase:succeeded', 'renewal:succeeded', 'renewal:succeeded', 'renewal:succeeded']);
    for (const x of txns.slice(1)) assert.equal(x.resource_id, b.ids.yearly);
    assert.equal(new Set(txns.map((x) => x.customer_email)).size, 1);

    const types = (await eventTypes(t, b.brandId, lifecycle)).map((e) => e.type);
    sameSet(types, ['transaction.succeeded', 'member.joined',
      'transaction.succeeded', 'subscription.renewed', 'transaction.succeeded', 'subscription.renewed',
      'transaction.succeeded', 'subscription.renewed', 'subscription.completed']);
    const renewedAll = (await eventTypes(t, b.brandId, (x) => x === 'subscription.renewed')).map((e) => e.data);
    assert.deepEqual(renewedAll.map((d) => d.subscription.periodsPaid), [2, 3, 4]);
    const [renewed] = renewedAll;
    assert.equal(renewed.membership.membershipId, membershipId);
    assert.equal(renewed.transaction.type, 'renewal');
    const completed = (await eventTypes(t, b.brandId, (x) => x === 'subscription.completed'))[0].data;
    assert.equal(completed.subscription.status, 'completed');
    assert.equal(completed.transaction.txref, renewedAll[2].transaction.txref, 'completed at the payment of the last period');

    await advance(t, b.key, { by: '366d' });
    const ended = await member(t, b, membershipId);
    assert.equal(ended.status, 'expired');
    assert.equal((await eventTypes(t, b.brandId, (x) => x === 'member.removed')).length, 1);
    assert.equal((await t.db.query('SELECT 1 FROM transactions WHERE brand_id = $1', [b.brandId])).length, 4, 'nothing billed after the last period');
  });

  it('retries a failing card 1, 3 and 5 days after the period end, past_due meanwhile, then expires the membership', async () => {
    const b = await recurringBrand(t);
    const { membershipId } = await buyPlan(t, b, 'monthly', sub341);
    const first = await member(t, b, membershipId);
    const periodEnd = Date.parse(first.subscription.currentPeriodEnd);

    await advance(t, b.key, { to: new Date(periodEnd + 1000).toISOString() });
    let m = await member(t, b, membershipId);
    assert.equal(m.status, 'active', 'access continues during the grace period');
    assert.equal(m.subscription.status, 'past_due');
    assert.equal(m.subscription.nextBillingAt, new Date(periodEnd + day).toISOString());

    await advance(t, b.key, { to: new Date(periodEnd + 3 * day + 1000).toISOString() });
    m = await member(t, b, membershipId);
    assert.equal(m.subscription.status, 'past_due');
    assert.equal(m.subscription.nextBillingAt, new Date(periodEnd + 5 * day).toISOString());

    await advance(t, b.key, { by: '3d' });
    m = await member(t, b, membershipId);
    assert.equal(m.status, 'expired');
    assert.equal(m.subscription.status, 'expired');
    const txns = await t.db.query<{ type: string; status: string }>('SELECT type, status FROM transactions WHERE brand_id = $1 AND type = \'renewal\'', [b.brandId]);
    assert.deepEqual(txns.map((x) => x.status), ['failed', 'failed', 'failed', 'failed'], 'every attempt is its own transaction');
    const types = (await eventTypes(t, b.brandId, lifecycle)).map((e) => e.type);
    sameSet(types.slice(2), ['transaction.failed', 'transaction.failed', 'transaction.failed', 'transaction.failed', 'subscription.expired', 'member.removed']);

    await advance(t, b.key, { by: '62d' });
    assert.equal((await t.db.query('SELECT 1 FROM transactions WHERE brand_id = $1 AND type = \'renewal\'', [b.brandId])).length, 4);
  });

  it('one subscription pays for a product bought with hubID and the hub membership it grants; both expire together', async () => {
    const b = await recurringBrand(t);
    const ids = await loadCatalog(t.db, b.brandId, { hubs: [{ ref: 'h', name: 'H', tiers: [{ ref: 'hf', name: 'Free', price: { amount: 0, currency: 'USD' } }] }],
      products: [{ ref: 'p', type: 'membership', title: 'Club pass', hub: 'h',
        tiers: [{ ref: 'pm', name: 'Monthly', price: { amount: 9, currency: 'USD' }, recurrence: { periodic: 'weekly', interval: 2, count: 0 } }] }] });
    const { createLink, submitCard } = await import('../testing/checkout-fixtures.ts');
    const link = await createLink(t, b.key, { items: [{ id: ids.p, plan: ids.pm, type: 'membership', hubID: ids.h }], form: { formData: { fullName: 'Ada', email: 'pass@example.com' } } });
    await submitCard(t, link.path, sub341);
    const rows = await t.db.query<{ id: string; hub_id: string | null; subscription_id: string }>('SELECT id, hub_id, subscription_id FROM memberships WHERE brand_id = $1', [b.brandId]);
    assert.equal(rows.length, 2);
    assert.equal(new Set(rows.map((r) => r.subscription_id)).size, 1);
    const customers = await t.request({ method: 'GET', url: `/api/v1/products/${ids.p}/customers`, key: b.key });
    assert.equal(customers.json().data.items[0].subscription.status, 'active');
    await advance(t, b.key, { by: '20d' }); // the renewal at 14 days and every retry fail
    const after = await t.db.query<{ status: string }>('SELECT status FROM memberships WHERE brand_id = $1', [b.brandId]);
    assert.deepEqual(after.map((r) => r.status), ['expired', 'expired']);
    const ended = await eventTypes(t, b.brandId, (x) => x === 'subscription.expired' || x === 'member.removed');
    sameSet(ended.map((e) => e.type), ['subscription.expired', 'member.removed', 'member.removed']);
    assert.equal(ended.find((e) => e.type === 'subscription.expired')!.data.membership.productID, ids.p, 'the subscription\'s events are about the product\'s customer');
    const list = await t.request({ method: 'GET', url: `/api/v1/products/${ids.p}/customers`, key: b.key });
    assert.equal(list.json().data.items.length, 0, 'a product\'s customers are its active ones');
  });

  it('a failed renewal that a retry pays goes back to active and keeps the period anchor', async () => {
    const b = await recurringBrand(t);
    const { membershipId } = await buyPlan(t, b, 'monthly');
    const start = await member(t, b, membershipId);
    const end1 = Date.parse(start.subscription.currentPeriodEnd);
    // Swap the sandbox's card for the failing one, then back: the provider's state, not ours.
    await t.db.query('UPDATE sandbox_payments SET card = \'4000000000000002\' WHERE brand_id = $1', [b.brandId]);
    await advance(t, b.key, { to: new Date(end1 + 1000).toISOString() });
    assert.equal((await member(t, b, membershipId)).subscription.status, 'past_due');
    await t.db.query('UPDATE sandbox_payments SET card = \'4242424242424242\' WHERE brand_id = $1 AND card IS NOT NULL', [b.brandId]);
    await advance(t, b.key, { by: '1d' });
    const m = await member(t, b, membershipId);
    assert.equal(m.subscription.status, 'active');
    assert.equal(m.subscription.periodsPaid, 2);
    assert.equal(Date.parse(m.subscription.currentPeriodStart), end1);
  });
});

describe('POST /memberships/{id}/cancel', () => {
  runCommonRouteTests('POST /memberships/{id}/cancel', {
    method: 'POST',
    scope: 'customers:write',
    foreign: 404,
    modeScoped: true,
    async setup({ t, brandId, mode }) {
      const ids = await loadCatalog(t.db, brandId, { hubs: recurringCatalog.hubs });
      const m = await createMembership(t.db, { brandId, mode, hubId: ids.club });
      return { url: `/api/v1/memberships/${m.id}/cancel`, body: { atPeriodEnd: false }, marker: m.id };
    },
  }, () => t);

  it('at period end: stays active without renewing, then ends as cancelled with subscription.expired and member.removed', async () => {
    const b = await recurringBrand(t);
    const { membershipId } = await buyPlan(t, b, 'monthly');
    const res = await t.request({ method: 'POST', url: `/api/v1/memberships/${membershipId}/cancel`, key: b.key, payload: { atPeriodEnd: true } });
    assert.equal(res.statusCode, 200, res.body);
    const m = res.json().data;
    assert.equal(m.status, 'active');
    assert.equal(m.subscription.status, 'active');
    assert.equal(m.subscription.cancelAtPeriodEnd, true);
    assert.equal(m.subscription.nextBillingAt, undefined);
    await advance(t, b.key, { by: '32d' });
    const ended = await member(t, b, membershipId);
    assert.equal(ended.status, 'expired');
    assert.equal(ended.subscription.status, 'cancelled');
    assert.equal((await t.db.query('SELECT 1 FROM transactions WHERE brand_id = $1 AND type = \'renewal\'', [b.brandId])).length, 0);
    const types = (await eventTypes(t, b.brandId, (x) => x.startsWith('subscription.') || x === 'member.removed')).map((e) => e.type);
    sameSet(types, ['subscription.expired', 'member.removed']);
  });

  it('at period end while a renewal charge is under way: the charge is settled first, and the period it paid for is kept', async () => {
    const b = await recurringBrand(t);
    const { membershipId } = await buyPlan(t, b, 'monthly');
    const [sub] = await t.db.query<SubscriptionRow>('SELECT * FROM subscriptions WHERE brand_id = $1', [b.brandId]);
    // A worker has recorded the renewal charge and is asking the provider (step 1 committed, step 2 running)...
    const work = await t.db.transaction((tx) => beginDueWork(tx, t.deps.payments, sub, sub.current_period_end, t.config.renewals));
    assert.equal(work.kind, 'bill');
    if (work.kind !== 'bill') return;
    // ...when the brand cancels at period end, and (another worker) the clock passes the period end.
    const res = await t.request({ method: 'POST', url: `/api/v1/memberships/${membershipId}/cancel`, key: b.key, payload: { atPeriodEnd: true } });
    assert.equal(res.statusCode, 200, res.body);
    await advance(t, b.key, { by: '32d' });
    // The first worker's charge comes back paid.
    const state = await chargeRenewal(t.db, t.deps.payments, work.sub, work.payment);
    await t.db.transaction((tx) => settleRenewal(tx, work.payment, state as never, t.config.renewals, work.at));

    const charges = await t.db.query<{ status: string }>('SELECT status FROM transactions WHERE brand_id = $1 AND type = \'renewal\'', [b.brandId]);
    assert.deepEqual(charges.map((c) => c.status), ['succeeded'], 'charged once');
    const m = await member(t, b, membershipId);
    assert.equal(m.status, 'active', 'the member keeps the period the charge paid for');
    assert.equal(m.subscription.periodsPaid, 2);
    assert.equal(m.subscription.cancelAtPeriodEnd, true);
    assert.equal(m.subscription.nextBillingAt, undefined);
    await advance(t, b.key, { by: '31d' });
    const ended = await member(t, b, membershipId);
    assert.equal(ended.status, 'expired');
    assert.equal(ended.subscription.status, 'cancelled');
    const types = (await eventTypes(t, b.brandId, (x) => x.startsWith('subscription.') || x.startsWith('member.'))).map((e) => e.type);
    assert.deepEqual(types, ['member.joined', 'subscription.renewed', 'subscription.expired', 'member.removed']);
    assert.equal((await t.db.query('SELECT 1 FROM transactions WHERE brand_id = $1', [b.brandId])).length, 2, 'nothing billed after the cancel');
  });

  it('at period end while a renewal charge is under way that is declined: the subscription ends at once, nothing retried', async () => {
    const b = await recurringBrand(t);
    const { membershipId } = await buyPlan(t, b, 'monthly', sub341);
    const [sub] = await t.db.query<SubscriptionRow>('SELECT * FROM subscriptions WHERE brand_id = $1', [b.brandId]);
    const work = await t.db.transaction((tx) => beginDueWork(tx, t.deps.payments, sub, sub.current_period_end, t.config.renewals));
    assert.equal(work.kind, 'bill');
    if (work.kind !== 'bill') return;
    const res = await t.request({ method: 'POST', url: `/api/v1/memberships/${membershipId}/cancel`, key: b.key, payload: { atPeriodEnd: true } });
    assert.equal(res.statusCode, 200, res.body);
    const state = await chargeRenewal(t.db, t.deps.payments, work.sub, work.payment);
    assert.equal(state.status, 'failed');
    await t.db.transaction((tx) => settleRenewal(tx, work.payment, state as never, t.config.renewals, work.at));
    const m = await member(t, b, membershipId);
    assert.equal(m.status, 'expired');
    assert.equal(m.subscription.status, 'cancelled');
    await advance(t, b.key, { by: '40d' });
    assert.equal((await t.db.query('SELECT 1 FROM transactions WHERE brand_id = $1 AND type = \'renewal\'', [b.brandId])).length, 1, 'no retry');
    const types = (await eventTypes(t, b.brandId, (x) => x !== 'transaction.succeeded' && x !== 'payout.settled')).map((e) => e.type);
    assert.deepEqual(types, ['member.joined', 'transaction.failed', 'subscription.expired', 'member.removed']);
  });

  it('now: removes the member at once, cancels the subscription, and bills nothing more', async () => {
    const b = await recurringBrand(t);
    const { membershipId } = await buyPlan(t, b, 'monthly');
    const res = await t.request({ method: 'POST', url: `/api/v1/memberships/${membershipId}/cancel`, key: b.key, payload: { atPeriodEnd: false } });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data.status, 'removed');
    assert.equal(res.json().data.subscription.status, 'cancelled');
    await advance(t, b.key, { by: '62d' });
    assert.equal((await t.db.query('SELECT 1 FROM transactions WHERE brand_id = $1 AND type = \'renewal\'', [b.brandId])).length, 0);
    const types = (await eventTypes(t, b.brandId, (x) => x.startsWith('subscription.') || x === 'member.removed')).map((e) => e.type);
    assert.deepEqual(types, ['member.removed']);
    // Cancelling again changes nothing and records nothing.
    const again = await t.request({ method: 'POST', url: `/api/v1/memberships/${membershipId}/cancel`, key: b.key, payload: { atPeriodEnd: false } });
    assert.equal(again.statusCode, 200);
    assert.equal((await eventTypes(t, b.brandId, (x) => x === 'member.removed')).length, 1);
  });

  it('refuses bad input in the envelope: a missing body field, and at period end without a renewing subscription', async () => {
    const b = await recurringBrand(t);
    const m = await createMembership(t.db, { brandId: b.brandId, hubId: b.ids.club });
    const missing = await t.request({ method: 'POST', url: `/api/v1/memberships/${m.id}/cancel`, key: b.key, payload: {} });
    assert.equal(missing.statusCode, 400);
    assert.equal(missing.json().data.code, 'validation_failed');
    const noSub = await t.request({ method: 'POST', url: `/api/v1/memberships/${m.id}/cancel`, key: b.key, payload: { atPeriodEnd: true } });
    assert.equal(noSub.statusCode, 409);
    assert.equal(noSub.json().data.code, 'conflict');
  });
});

describe('DELETE /hubs/{hubID}/members/{id}', () => {
  runCommonRouteTests('DELETE /hubs/{hubID}/members/{id}', {
    method: 'DELETE',
    scope: 'customers:write',
    foreign: 404,
    modeScoped: true,
    async setup({ t, brandId, mode }) {
      const ids = await loadCatalog(t.db, brandId, { hubs: recurringCatalog.hubs });
      const m = await createMembership(t.db, { brandId, mode, hubId: ids.club });
      return { url: `/api/v1/hubs/${ids.club}/members/${m.id}`, marker: m.id };
    },
  }, () => t);

  it('removes the member, records member.removed once, and keeps listing them with their status', async () => {
    const b = await recurringBrand(t);
    const m = await createMembership(t.db, { brandId: b.brandId, hubId: b.ids.club, plan: b.ids.free });
    const res = await t.request({ method: 'DELETE', url: `/api/v1/hubs/${b.ids.club}/members/${m.id}`, key: b.key });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data.status, 'removed');
    await t.request({ method: 'DELETE', url: `/api/v1/hubs/${b.ids.club}/members/${m.id}`, key: b.key });
    const removed = await eventTypes(t, b.brandId, (x) => x === 'member.removed');
    assert.equal(removed.length, 1);
    assert.equal(removed[0].data.membershipId, m.id);
    const list = await t.request({ method: 'GET', url: `/api/v1/hubs/${b.ids.club}/members`, key: b.key });
    assert.deepEqual(list.json().data.items.map((x: any) => [x.membershipId, x.status]), [[m.id, 'removed']]);
  });

  it('a removed member who buys again gets the same membership back, active', async () => {
    const b = await recurringBrand(t);
    const { membershipId, email } = await buyPlan(t, b, 'monthly');
    await t.request({ method: 'DELETE', url: `/api/v1/hubs/${b.ids.club}/members/${membershipId}`, key: b.key });
    const { createLink, submitCard } = await import('../testing/checkout-fixtures.ts');
    const link = await createLink(t, b.key, { items: [{ id: b.ids.club, plan: b.ids.monthly, type: 'membership' }], form: { formData: { fullName: 'Ada', email } } });
    await submitCard(t, link.path, '4242 4242 4242 4242');
    const m = await member(t, b, membershipId);
    assert.equal(m.status, 'active');
    assert.equal(m.subscription.status, 'active');
    assert.equal(m.subscription.periodsPaid, 1);
  });
});
