import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import type { Principal } from '../auth/principal.ts';
import type { Queryable } from '../db/client.ts';
import { newId } from '../ids.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { runCommonRouteTests } from '../testing/auth-checks.ts';
import { createBrand, createBrandWithCatalog, createTransaction } from '../testing/factories.ts';
import { lastLocalDays } from './days.ts';
import { metricsSummary } from './service.ts';
import { advance, buyPlan, member, recurringBrand, sub341 } from '../testing/subscriptions.ts';

let t: TestApp;
before(async () => { t = await startTestApp(); });
after(async () => { await t.close(); });

describe('GET /metrics/summary', () => {
  runCommonRouteTests('GET /metrics/summary', {
    method: 'GET',
    scope: 'transactions:read',
    foreign: 'hidden',
    modeScoped: true,
    async setup({ t, brandId, mode }) {
      const tx = await createTransaction(t.db, { brandId, mode });
      return { url: '/api/v1/metrics/summary', marker: tx.txref };
    },
  }, () => t);

  it('names the customer of each failed renewal, so the home can open them', async () => {
    const b = await recurringBrand(t);
    const { membershipId, email } = await buyPlan(t, b, 'monthly', sub341);
    await advance(t, b.key, { to: new Date(Date.parse((await member(t, b, membershipId)).subscription.currentPeriodEnd) + 1000).toISOString() });
    const summary = (await t.request({ method: 'GET', url: '/api/v1/metrics/summary', key: b.key })).json().data;
    const [failed] = summary.failedRenewals.items;
    assert.equal(failed.membershipID, membershipId);
    const customer = await t.request({ method: 'GET', url: `/api/v1/customers/${failed.customerID}`, key: b.key });
    assert.equal(customer.statusCode, 200, customer.body);
    assert.equal(customer.json().data.email, email);
    assert.ok(customer.json().data.memberships.some((m: { membershipId: string }) => m.membershipId === membershipId));
  });

  it('keeps each currency apart and subtracts refunds from the day they were made', async () => {
    const { brand, testKey } = await createBrandWithCatalog(t.db);
    const sale = await createTransaction(t.db, { brandId: brand.id, amount: 2550, currency: 'USD' });
    await createTransaction(t.db, { brandId: brand.id, amount: 500, currency: 'JPY' });
    await createTransaction(t.db, { brandId: brand.id, amount: 9900, currency: 'USD', status: 'failed' });
    await insertRefund(t.db, { brandId: brand.id, mode: 'test', transactionId: sale.id, amount: 1000, currency: 'USD', at: new Date(), status: 'succeeded' });
    const res = await t.request({ method: 'GET', url: '/api/v1/metrics/summary', key: testKey });
    assert.equal(res.statusCode, 200);
    const data = res.json().data;
    assert.equal(data.timeZone, 'UTC');
    assert.deepEqual(data.revenue.map((r: any) => [r.currency, r.today]), [
      ['JPY', { gross: 500, refunded: 0, net: 500, sales: 1 }],
      ['USD', { gross: 25.5, refunded: 10, net: 15.5, sales: 1 }],
    ]);
    assert.equal(data.revenue[1].daily.length, 30);
    assert.deepEqual(data.recentSales.map((s: any) => s.currency).sort(), ['JPY', 'USD']);
  });
});

// ---- The property: the summary equals a recomputation from the raw history, to the cent. ----

const zones = ['UTC', 'Europe/Lisbon', 'America/New_York', 'Asia/Kolkata', 'Pacific/Auckland', 'Pacific/Chatham'];
const currencies = ['USD', 'EUR', 'JPY'] as const;
const dayMs = 86_400_000;
const exponent = (c: string) => (c === 'JPY' ? 0 : 2);
const major = (minor: number, c: string) => minor / 10 ** exponent(c);

/** How long before `now` something happened: anywhere in 40 days, or within a millisecond of a local midnight. */
const age = (boundaries: number[]) => fc.oneof(
  fc.integer({ min: 0, max: 40 * dayMs }),
  fc.tuple(fc.constantFrom(...boundaries), fc.constantFrom(-1, 0, 1)).map(([b, d]) => Math.max(0, b + d)),
);

const history = (boundaries: number[]) => fc.record({
  sales: fc.array(fc.record({
    mode: fc.constantFrom('test', 'test', 'live'),
    type: fc.constantFrom('purchase', 'renewal'),
    status: fc.constantFrom('succeeded', 'succeeded', 'failed', 'pending'),
    currency: fc.constantFrom(...currencies),
    amount: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 1_000_000 })),
    age: age(boundaries),
    refunds: fc.array(fc.record({ share: fc.double({ min: 0.01, max: 1, noNaN: true }), after: fc.integer({ min: 0, max: 40 * dayMs }), ok: fc.boolean() }), { maxLength: 3 }),
  }), { maxLength: 25 }),
  subscriptions: fc.array(fc.record({
    mode: fc.constantFrom('test', 'live'),
    currency: fc.constantFrom(...currencies),
    amount: fc.integer({ min: 0, max: 500_000 }),
    periodic: fc.constantFrom('daily', 'weekly', 'monthly', 'yearly'),
    interval: fc.integer({ min: 1, max: 3 }),
    status: fc.constantFrom('active', 'past_due', 'cancelled', 'expired', 'completed'),
    cancelling: fc.boolean(),
    periodEndAge: fc.integer({ min: -30 * dayMs, max: 30 * dayMs }),
  }), { maxLength: 12 }),
  members: fc.uniqueArray(fc.record({
    mode: fc.constantFrom('test', 'live'),
    product: fc.integer({ min: 0, max: 2 }),
    person: fc.integer({ min: 0, max: 6 }),
    upper: fc.boolean(),
    age: age(boundaries),
  }), { selector: (m) => `${m.mode}/${m.product}/${m.person}`, maxLength: 20 }),
});

type History = ReturnType<typeof history> extends fc.Arbitrary<infer H> ? H : never;

/** The local calendar date of an instant, by Intl alone (independent of days.ts's arithmetic). */
const localDate = (ms: number, timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(ms));
const minusDays = (date: string, n: number) => new Date(Date.parse(`${date}T00:00:00Z`) - n * dayMs).toISOString().slice(0, 10);

async function insertRefund(db: Queryable, r: { brandId: string; mode: string; transactionId: string; amount: number; currency: string; at: Date; status: 'succeeded' | 'failed' }) {
  await db.query(
    `INSERT INTO refunds (brand_id, id, mode, transaction_id, amount, currency, status, revoke_access, provider, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, false, 'sandbox', $8, $8)`,
    [r.brandId, newId('rfd'), r.mode, r.transactionId, r.amount, r.currency, r.status, r.at.toISOString()],
  );
}

/** Writes the history as the service's own rows would stand, each at its moment before `now`. */
async function record(db: Queryable, brandId: string, timeZone: string, now: number, h: History) {
  await db.query('UPDATE brands SET time_zone = $2 WHERE id = $1', [brandId, timeZone]);
  const products: string[] = [];
  for (let i = 0; i < 3; i++) {
    const id = newId('prod');
    await db.query(`INSERT INTO products (brand_id, id, type, status, title, visibility, is_free) VALUES ($1, $2, 'digital', 'published', 'P', 'public', false)`, [brandId, id]);
    products.push(id);
  }
  const sales: { id: string; txref: string; at: number; mode: string; currency: string; amount: number; status: string; refunds: { amount: number; at: number; ok: boolean }[] }[] = [];
  for (const s of h.sales) {
    const id = newId('txn');
    const at = now - s.age;
    let left = s.amount;
    const refunds = s.status !== 'succeeded' || s.amount === 0 ? [] : s.refunds.flatMap((r) => {
      const amount = Math.min(left, Math.max(1, Math.floor(s.amount * r.share)));
      if (amount <= 0) return [];
      if (r.ok) left -= amount;
      return [{ amount, at: Math.min(now, at + r.after), ok: r.ok }];
    });
    const status = s.status === 'succeeded' && left === 0 && s.amount > 0 ? 'refunded' : s.status;
    const txref = `tx_${id.slice(4)}`;
    await db.query(
      `INSERT INTO transactions (brand_id, id, txref, mode, type, status, amount, currency, customer_name, customer_email, refunded_amount, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'Ada', 'ada@example.com', $9, $10, $10)`,
      [brandId, id, txref, s.mode, s.type, status, s.amount, s.currency, s.amount - left, new Date(at).toISOString()],
    );
    for (const r of refunds) await insertRefund(db, { brandId, mode: s.mode, transactionId: id, amount: r.amount, currency: s.currency, at: new Date(r.at), status: r.ok ? 'succeeded' : 'failed' });
    sales.push({ id, txref, at, mode: s.mode, currency: s.currency, amount: s.amount, status, refunds });
  }
  const subs: { membershipId: string; periodEnd: number; mode: string; status: string; id: string }[] = [];
  for (const s of h.subscriptions) {
    const id = newId('sub');
    const membershipId = newId('mem');
    const end = now - s.periodEndAge;
    await db.query(
      `INSERT INTO subscriptions (brand_id, id, mode, membership_id, tier_id, amount, currency, periodic, period_interval, period_count, status,
         started_at, current_period_start, current_period_end, periods_paid, cancel_at_period_end, failed_attempts, customer_name, customer_email)
       VALUES ($1, $2, $3, $4, 'tier_x', $5, $6, $7, $8, 0, $9, $10, $10, $11, 1, $12, $13, 'Ada', 'ada@example.com')`,
      [brandId, id, s.mode, membershipId, s.amount, s.currency, s.periodic, s.interval, s.status, new Date(end - 30 * dayMs).toISOString(),
        new Date(end).toISOString(), s.cancelling, s.status === 'past_due' ? 1 : 0],
    );
    subs.push({ membershipId, periodEnd: end, mode: s.mode, status: s.status, id });
  }
  for (const m of h.members) {
    const email = `person${m.person}@example.com`;
    await db.query(
      `INSERT INTO memberships (brand_id, id, mode, product_id, name, email, status, joined_at, updated_at)
       VALUES ($1, $2, $3, $4, 'P', $5, 'active', $6, $6)`,
      [brandId, newId('mem'), m.mode, products[m.product], m.upper ? email.toUpperCase() : email, new Date(now - m.age).toISOString()],
    );
  }
  return { sales, subs };
}

/** What the summary must say, recomputed from the history with nothing but local dates and sums. */
function expected(h: History, written: Awaited<ReturnType<typeof record>>, timeZone: string, now: number) {
  const today = localDate(now, timeZone);
  const window = (ms: number): 'today' | '7' | '30' | null => {
    if (ms > now) return null;
    const d = localDate(ms, timeZone);
    if (d === today) return 'today';
    if (d >= minusDays(today, 6)) return '7';
    if (d >= minusDays(today, 29)) return '30';
    return null;
  };
  const money = new Map<string, Record<'today' | '7' | '30', { gross: number; refunded: number; sales: number }>>();
  const slot = (c: string) => {
    if (!money.has(c)) money.set(c, { today: { gross: 0, refunded: 0, sales: 0 }, 7: { gross: 0, refunded: 0, sales: 0 }, 30: { gross: 0, refunded: 0, sales: 0 } });
    return money.get(c)!;
  };
  const paid = written.sales.filter((s) => s.mode === 'test' && (s.status === 'succeeded' || s.status === 'refunded') && s.amount > 0);
  for (const s of paid) {
    const w = window(s.at);
    if (w) { slot(s.currency)[w].gross += s.amount; slot(s.currency)[w].sales += 1; }
    for (const r of s.refunds) {
      const rw = window(r.at);
      if (r.ok && rw) slot(s.currency)[rw].refunded += r.amount;
    }
  }
  const period = (c: string, ws: ('today' | '7' | '30')[]) => {
    const m = money.get(c)!;
    const gross = ws.reduce((a, w) => a + m[w].gross, 0);
    const refunded = ws.reduce((a, w) => a + m[w].refunded, 0);
    return { gross: major(gross, c), refunded: major(refunded, c), net: major(gross - refunded, c), sales: ws.reduce((a, w) => a + m[w].sales, 0) };
  };
  const revenue = [...money.keys()].sort().map((c) => ({ currency: c, today: period(c, ['today']), last7Days: period(c, ['today', '7']), last30Days: period(c, ['today', '7', '30']) }));

  const perMonth = { daily: 365 / 12, weekly: 52 / 12, monthly: 1, yearly: 1 / 12 };
  const mrr = new Map<string, number>();
  const testSubs = h.subscriptions.filter((s) => s.mode === 'test');
  for (const s of testSubs) {
    if (!((s.status === 'active' && !s.cancelling) || s.status === 'past_due')) continue;
    mrr.set(s.currency, (mrr.get(s.currency) ?? 0) + (s.amount * perMonth[s.periodic]) / s.interval);
  }

  const firsts = new Map<string, number>();
  for (const m of h.members.filter((x) => x.mode === 'test')) {
    const person = `person${m.person}`;
    firsts.set(person, Math.min(firsts.get(person) ?? Infinity, now - m.age));
  }
  const joined = [...firsts.values()].map(window);

  const pastDue = written.subs.filter((s) => s.mode === 'test' && s.status === 'past_due')
    .sort((a, b) => a.periodEnd - b.periodEnd || (a.id < b.id ? -1 : 1));
  return {
    revenue,
    subscriptions: {
      active: testSubs.filter((s) => s.status === 'active').length,
      cancelling: testSubs.filter((s) => s.status === 'active' && s.cancelling).length,
      pastDue: pastDue.length,
      mrr: [...mrr.keys()].sort().map((c) => ({ currency: c, amount: major(Math.round(mrr.get(c)!), c) })),
    },
    newMembers: {
      today: joined.filter((w) => w === 'today').length,
      last7Days: joined.filter((w) => w === 'today' || w === '7').length,
      last30Days: joined.filter((w) => w !== null).length,
    },
    recentSales: [...paid].sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1)).slice(0, 10).map((s) => s.txref),
    failedRenewals: { count: pastDue.length, items: pastDue.slice(0, 10).map((s) => s.membershipId) },
  };
}

describe('the summary, recomputed from random histories', () => {
  it('agrees to the cent with purchases, renewals, refunds, cancellations and members in any time zone', async () => {
    await fc.assert(fc.asyncProperty(
      // Two fixed moments beside the clock's: the day Europe's clocks go forward, and New York's first midnight after they go back.
      fc.tuple(fc.constantFrom(...zones), fc.constantFrom(Date.parse('2026-03-29T12:34:56.789Z'), Date.parse('2026-11-02T05:00:00.000Z'), Date.now()))
        .chain(([timeZone, now]) => {
          const boundaries = lastLocalDays(new Date(now), timeZone, 31).map((d) => now - d.starts.getTime()).filter((b) => b >= 0);
          return fc.record({ timeZone: fc.constant(timeZone), now: fc.constant(now), h: history(boundaries) });
        }),
      async ({ timeZone, now, h }) => {
        const brand = await createBrand(t.db);
        const written = await t.db.transaction((tx) => record(tx, brand.id, timeZone, now, h));
        const principal: Principal = { brandId: brand.id, mode: 'test', scopes: ['transactions:read'], via: 'api_key' };
        const got = await metricsSummary(t.db, principal, { now: new Date(now) });
        const want = expected(h, written, timeZone, now);
        assert.equal(got.timeZone, timeZone);
        assert.deepEqual(got.revenue.map(({ daily: _daily, ...r }) => r), want.revenue);
        for (const r of got.revenue) {
          const sum = r.daily.reduce((a, d) => a + Math.round(d.net * 10 ** exponent(r.currency)), 0);
          assert.equal(major(sum, r.currency), r.last30Days.net, `${r.currency}: the chart's days add up to the 30 days`);
          assert.equal(r.daily.at(-1)!.date, localDate(now, timeZone));
        }
        assert.deepEqual(got.subscriptions, want.subscriptions);
        assert.deepEqual(got.newMembers, want.newMembers);
        assert.deepEqual(got.recentSales.map((s) => s.txref), want.recentSales);
        assert.deepEqual({ count: got.failedRenewals.count, items: got.failedRenewals.items.map((i) => i.membershipID) }, want.failedRenewals);
      },
    ), { numRuns: 30 });
  });
});
