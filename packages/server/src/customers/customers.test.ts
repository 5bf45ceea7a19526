import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import type { Mode } from '../auth/principal.ts';
import type { Queryable } from '../db/client.ts';
import { newId } from '../ids.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { runCommonRouteTests } from '../testing/auth-checks.ts';
import { createBrand, createKey } from '../testing/factories.ts';

let t: TestApp;
before(async () => { t = await startTestApp(); });
after(async () => { await t.close(); });

const dayMs = 86_400_000;
const cusId = (brandId: string, mode: Mode, email: string) => `cus_${createHash('md5').update(`${brandId}/${mode}/${email.toLowerCase()}`).digest('hex')}`;

/** The rows a brand's history leaves, written as the owning domains write them. */
async function product(db: Queryable, brandId: string) {
  const id = newId('prod');
  await db.query(`INSERT INTO products (brand_id, id, type, status, title, visibility, is_free) VALUES ($1, $2, 'digital', 'published', 'P', 'public', false)`, [brandId, id]);
  return id;
}
async function hub(db: Queryable, brandId: string) {
  const id = newId('hub');
  await db.query('INSERT INTO hubs (brand_id, id, name) VALUES ($1, $2, \'H\')', [brandId, id]);
  return id;
}
async function member(db: Queryable, m: { brandId: string; mode?: Mode; productId?: string; hubId?: string; email: string; name?: string; status?: string; consent?: boolean | null; at?: number }) {
  const id = newId('mem');
  const at = new Date(m.at ?? Date.now()).toISOString();
  await db.query(
    `INSERT INTO memberships (brand_id, id, mode, product_id, hub_id, name, email, status, receive_emails, joined_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10, $10)`,
    [m.brandId, id, m.mode ?? 'test', m.productId ?? null, m.hubId ?? null, m.name ?? 'Ada Lovelace', m.email, m.status ?? 'active', m.consent ?? null, at],
  );
  return id;
}
async function payment(db: Queryable, p: { brandId: string; mode?: Mode; email: string; name?: string; amount: number; currency: string; type?: string; status?: string; refunded?: number; at?: number; resourceId?: string }) {
  const id = newId('txn');
  const txref = `tx_${id.slice(4)}`;
  const at = new Date(p.at ?? Date.now()).toISOString();
  await db.query(
    `INSERT INTO transactions (brand_id, id, txref, mode, type, status, amount, currency, customer_name, customer_email, refunded_amount, resource_id, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13)`,
    [p.brandId, id, txref, p.mode ?? 'test', p.type ?? 'purchase', p.status ?? 'succeeded', p.amount, p.currency, p.name ?? 'Ada Lovelace', p.email, p.refunded ?? 0, p.resourceId ?? null, at],
  );
  return txref;
}
async function subscription(db: Queryable, s: { brandId: string; mode?: Mode; membershipId?: string; email: string; amount: number; currency: string; periodic: string; interval?: number; status?: string; cancelling?: boolean; tierId?: string; at?: number }) {
  const id = newId('sub');
  const at = s.at ?? Date.now();
  await db.query(
    `INSERT INTO subscriptions (brand_id, id, mode, membership_id, tier_id, amount, currency, periodic, period_interval, period_count, status,
       started_at, current_period_start, current_period_end, periods_paid, cancel_at_period_end, next_billing_at, customer_name, customer_email, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 0, $10, $11, $11, $12, 1, $13, $14, 'Ada Lovelace', $15, $11, $11)`,
    [s.brandId, id, s.mode ?? 'test', s.membershipId ?? newId('mem'), s.tierId ?? 'tier_x', s.amount, s.currency, s.periodic, s.interval ?? 1, s.status ?? 'active',
      new Date(at).toISOString(), new Date(at + 30 * dayMs).toISOString(), s.cancelling ?? false,
      (s.status ?? 'active') === 'active' && !s.cancelling ? new Date(at + 30 * dayMs).toISOString() : null, s.email],
  );
  if (s.membershipId) await db.query('UPDATE memberships SET subscription_id = $3 WHERE brand_id = $1 AND id = $2', [s.brandId, s.membershipId, id]);
  return id;
}

async function keyFor(brandId: string, mode: Mode = 'test') {
  return (await createKey(t.db, brandId, { mode, scopes: ['customers:read'] })).key;
}
async function get(key: string, url: string) {
  const res = await t.request({ method: 'GET', url, key });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().data;
}

describe('GET /customers', () => {
  runCommonRouteTests('GET /customers', {
    method: 'GET', scope: 'customers:read', foreign: 'hidden', modeScoped: true,
    async setup({ t, brandId, mode }) {
      const email = `owner-${newId('mem').slice(4, 12)}@example.com`;
      await member(t.db, { brandId, mode, productId: await product(t.db, brandId), email });
      return { url: '/api/v1/customers', marker: email };
    },
  }, () => t);

  runCommonRouteTests('GET /customers/{id}', {
    method: 'GET', scope: 'customers:read', foreign: 404, modeScoped: true,
    async setup({ t, brandId, mode }) {
      const email = `owner-${newId('mem').slice(4, 12)}@example.com`;
      await payment(t.db, { brandId, mode, email, amount: 1000, currency: 'USD' });
      return { url: `/api/v1/customers/${cusId(brandId, mode, email)}`, marker: email };
    },
  }, () => t);

  it('lists one entry per email, whatever its case, with lifetime value per currency', async () => {
    const brand = await createBrand(t.db);
    const prod = await product(t.db, brand.id);
    await member(t.db, { brandId: brand.id, productId: prod, email: 'Ada@Example.com', at: Date.now() - 5 * dayMs });
    await payment(t.db, { brandId: brand.id, email: 'ada@example.com', amount: 2550, currency: 'USD', refunded: 1000 });
    await payment(t.db, { brandId: brand.id, email: 'ADA@example.com', amount: 1000, currency: 'USD', type: 'renewal' });
    await payment(t.db, { brandId: brand.id, email: 'ada@example.com', amount: 500, currency: 'JPY' });
    await payment(t.db, { brandId: brand.id, email: 'ada@example.com', amount: 9999, currency: 'USD', status: 'failed' });
    await payment(t.db, { brandId: brand.id, email: 'ada@example.com', amount: 7777, currency: 'EUR', mode: 'live' });
    const page = await get(await keyFor(brand.id), '/api/v1/customers');
    assert.equal(page.items.length, 1);
    const [ada] = page.items;
    assert.equal(ada.id, cusId(brand.id, 'test', 'ada@example.com'));
    assert.deepEqual(ada.lifetimeValue, [
      { currency: 'JPY', paid: 500, refunded: 0, amount: 500 },
      { currency: 'USD', paid: 35.5, refunded: 10, amount: 25.5 },
    ]);
    assert.deepEqual(ada.counts, { purchases: 2, memberships: 1, activeMemberships: 1, activeSubscriptions: 0 });
    assert.equal(ada.status, 'active');
    assert.deepEqual(ada.productIDs, [prod]);
    assert.equal(new Date(ada.firstSeenAt).getTime() < Date.now() - 4 * dayMs, true, 'first seen is the oldest row');
    // The live customer is the same person with another id, and only a live key sees them.
    const live = await get(await keyFor(brand.id, 'live'), '/api/v1/customers');
    assert.deepEqual(live.items.map((c: any) => [c.id, c.lifetimeValue]), [[cusId(brand.id, 'live', 'ada@example.com'), [{ currency: 'EUR', paid: 77.77, refunded: 0, amount: 77.77 }]]]);
  });

  it('filters by name or email, product, hub, status and consent, and pages with the filters kept', async () => {
    const brand = await createBrand(t.db);
    const [p1, p2, h1] = [await product(t.db, brand.id), await product(t.db, brand.id), await hub(t.db, brand.id)];
    const now = Date.now();
    await member(t.db, { brandId: brand.id, productId: p1, email: 'ada@example.com', name: 'Ada Lovelace', consent: true, at: now - 4000 });
    await member(t.db, { brandId: brand.id, productId: p2, email: 'grace@example.com', name: 'Grace Hopper', status: 'removed', consent: false, at: now - 3000 });
    await member(t.db, { brandId: brand.id, hubId: h1, email: 'alan@example.org', name: 'Alan Turing', at: now - 2000 });
    await member(t.db, { brandId: brand.id, hubId: h1, email: 'ada@example.com', name: 'Ada Lovelace', status: 'expired', at: now - 1000 });
    await payment(t.db, { brandId: brand.id, email: '100%_sure@example.net', name: 'Percent', amount: 100, currency: 'USD', at: now });
    const key = await keyFor(brand.id);
    const emails = async (query: string) => (await get(key, `/api/v1/customers?${query}`)).items.map((c: any) => c.email);
    assert.deepEqual(await emails(''), ['100%_sure@example.net', 'alan@example.org', 'grace@example.com', 'ada@example.com']);
    assert.deepEqual(await emails('q=LOVE'), ['ada@example.com']);
    assert.deepEqual(await emails('q=example.com'), ['grace@example.com', 'ada@example.com']);
    assert.deepEqual(await emails('q=%25_'), ['100%_sure@example.net'], '% and _ are plain characters');
    assert.deepEqual(await emails(`product=${p2}`), ['grace@example.com']);
    assert.deepEqual(await emails(`hub=${h1}`), ['alan@example.org', 'ada@example.com']);
    assert.deepEqual(await emails('status=ended'), ['100%_sure@example.net', 'grace@example.com']);
    assert.deepEqual(await emails('status=active'), ['alan@example.org', 'ada@example.com']);
    assert.deepEqual(await emails('consent=true'), ['ada@example.com']);
    assert.deepEqual(await emails('consent=false'), ['100%_sure@example.net', 'alan@example.org', 'grace@example.com']);
    assert.deepEqual(await emails(`hub=${h1}&status=active&q=ada`), ['ada@example.com']);

    const seen: string[] = [];
    let cursor = '';
    do {
      const page = await get(key, `/api/v1/customers?limit=1&q=example${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.items.map((c: any) => c.email));
      cursor = page.nextCursor;
    } while (cursor);
    assert.deepEqual(seen, ['100%_sure@example.net', 'alan@example.org', 'grace@example.com', 'ada@example.com']);

    const bad = await t.request({ method: 'GET', url: '/api/v1/customers?status=paused', key });
    assert.equal(bad.statusCode, 400);
    assert.match(JSON.stringify(bad.json().data.details), /status/);
    const badCursor = await t.request({ method: 'GET', url: '/api/v1/transactions?cursor=' + (await get(key, '/api/v1/customers?limit=1')).nextCursor, key: (await createKey(t.db, brand.id)).key });
    assert.equal(badCursor.statusCode, 400, 'a customers cursor is refused by another list');
  });

  it('shows one person with memberships, subscriptions, transactions and emails, and 404s for another brand or mode', async () => {
    const brand = await createBrand(t.db);
    const h = await hub(t.db, brand.id);
    const mem = await member(t.db, { brandId: brand.id, hubId: h, email: 'ada@example.com' });
    await subscription(t.db, { brandId: brand.id, membershipId: mem, email: 'Ada@example.com', amount: 1200, currency: 'USD', periodic: 'yearly' });
    const txref = await payment(t.db, { brandId: brand.id, email: 'ada@example.com', amount: 1200, currency: 'USD' });
    const failed = await payment(t.db, { brandId: brand.id, email: 'ada@example.com', amount: 1200, currency: 'USD', status: 'failed' });
    await t.db.query(
      `INSERT INTO mail_messages (brand_id, id, mode, kind, class, to_address, subject, data, status, dedupe_key)
       VALUES ($1, $2, 'test', 'receipt', 'transactional', 'ADA@example.com', 'Your receipt', '{}', 'unsent', $2), ($1, $3, 'live', 'receipt', 'transactional', 'ada@example.com', 'Live receipt', '{}', 'unsent', $3)`,
      [brand.id, newId('msg'), newId('msg')]);
    const key = await keyFor(brand.id);
    const id = cusId(brand.id, 'test', 'ada@example.com');
    const ada = await get(key, `/api/v1/customers/${id}`);
    assert.equal(ada.id, id);
    assert.deepEqual(ada.memberships.map((m: any) => [m.membershipId, m.hubID, m.subscription?.status]), [[mem, h, 'active']]);
    assert.deepEqual(ada.subscriptions.map((s: any) => [s.membershipID, s.state, s.mrr, s.hubID, s.customer.id]), [[mem, 'active', 1, h, id]]);
    assert.deepEqual(ada.transactions.map((x: any) => [x.txref, x.status]).sort(), [[txref, 'succeeded'], [failed, 'failed']].sort());
    assert.deepEqual(ada.emails.map((e: any) => e.subject), ['Your receipt']);
    assert.deepEqual(ada.lifetimeValue, [{ currency: 'USD', paid: 12, refunded: 0, amount: 12 }]);
    assert.equal(ada.counts.activeSubscriptions, 1);

    const other = await createBrand(t.db);
    for (const [k, url] of [
      [await keyFor(other.id), `/api/v1/customers/${id}`],
      [await keyFor(brand.id, 'live'), `/api/v1/customers/${id}`],
      [key, '/api/v1/customers/cus_nope'],
      [key, `/api/v1/customers/${cusId(brand.id, 'test', 'nobody@example.com')}`],
    ] as const) {
      const res = await t.request({ method: 'GET', url, key: k });
      assert.equal(res.statusCode, 404, url);
      assert.equal(res.json().data.code, 'not_found');
    }
  });
});

describe('GET /subscriptions', () => {
  runCommonRouteTests('GET /subscriptions', {
    method: 'GET', scope: 'customers:read', foreign: 'hidden', modeScoped: true,
    async setup({ t, brandId, mode }) {
      const email = `owner-${newId('mem').slice(4, 12)}@example.com`;
      await subscription(t.db, { brandId, mode, email, amount: 1000, currency: 'USD', periodic: 'monthly' });
      return { url: '/api/v1/subscriptions', marker: email };
    },
  }, () => t);

  it('filters by state, product, hub, tier and customer, and brings weekly, monthly and yearly to a month', async () => {
    const brand = await createBrand(t.db);
    const [p, h] = [await product(t.db, brand.id), await hub(t.db, brand.id)];
    const now = Date.now();
    const weekly = await subscription(t.db, { brandId: brand.id, membershipId: await member(t.db, { brandId: brand.id, productId: p, email: 'w@example.com' }), email: 'w@example.com', amount: 1000, currency: 'USD', periodic: 'weekly', at: now - 5000 });
    const monthly = await subscription(t.db, { brandId: brand.id, membershipId: await member(t.db, { brandId: brand.id, hubId: h, email: 'm@example.com' }), email: 'm@example.com', amount: 999, currency: 'EUR', periodic: 'monthly', interval: 3, tierId: 'tier_q', at: now - 4000 });
    const yearly = await subscription(t.db, { brandId: brand.id, email: 'y@example.com', amount: 12000, currency: 'JPY', periodic: 'yearly', status: 'past_due', at: now - 3000 });
    const cancelling = await subscription(t.db, { brandId: brand.id, email: 'c@example.com', amount: 5000, currency: 'USD', periodic: 'monthly', cancelling: true, at: now - 2000 });
    const ended = await subscription(t.db, { brandId: brand.id, email: 'e@example.com', amount: 5000, currency: 'USD', periodic: 'daily', status: 'expired', at: now - 1000 });
    const key = await keyFor(brand.id);
    const list = await get(key, '/api/v1/subscriptions');
    assert.deepEqual(list.items.map((s: any) => [s.id, s.state, s.mrr, s.currency]), [
      [ended, 'ended', 0, 'USD'],
      [cancelling, 'cancelling', 0, 'USD'],
      [yearly, 'past_due', 1000, 'JPY'],
      [monthly, 'active', 3.33, 'EUR'],
      [weekly, 'active', 43.33, 'USD'],
    ]);
    assert.equal(list.items[4].productID, p);
    assert.equal(list.items[3].hubID, h);
    assert.ok(list.items[4].nextRenewalAt);
    const ids = async (q: string) => (await get(key, `/api/v1/subscriptions?${q}`)).items.map((s: any) => s.id);
    assert.deepEqual(await ids('status=active'), [monthly, weekly]);
    assert.deepEqual(await ids('status=past_due'), [yearly]);
    assert.deepEqual(await ids('status=cancelling'), [cancelling]);
    assert.deepEqual(await ids('status=ended'), [ended]);
    assert.deepEqual(await ids(`product=${p}`), [weekly]);
    assert.deepEqual(await ids(`hub=${h}`), [monthly]);
    assert.deepEqual(await ids('tier=tier_q'), [monthly]);
    assert.deepEqual(await ids(`customer=${cusId(brand.id, 'test', 'Y@example.com')}`), [yearly]);
    assert.deepEqual(await ids('limit=2'), [ended, cancelling]);
    const second = await get(key, `/api/v1/subscriptions?limit=2&cursor=${(await get(key, '/api/v1/subscriptions?limit=2')).nextCursor}`);
    assert.deepEqual(second.items.map((s: any) => s.id), [yearly, monthly]);
    const bad = await t.request({ method: 'GET', url: '/api/v1/subscriptions?status=paused', key });
    assert.equal(bad.statusCode, 400);
  });
});

// ---- The property: every customer's lifetime value and counts, and every subscription's MRR, recomputed from the rows. ----

const currencies = ['USD', 'EUR', 'JPY'] as const;
const exponent = (c: string) => (c === 'JPY' ? 0 : 2);
const major = (minor: number, c: string) => minor / 10 ** exponent(c);
const perMonth = { daily: 365 / 12, weekly: 52 / 12, monthly: 1, yearly: 1 / 12 } as const;

const history = fc.record({
  members: fc.uniqueArray(fc.record({
    mode: fc.constantFrom<Mode>('test', 'test', 'live'), target: fc.integer({ min: 0, max: 3 }), person: fc.integer({ min: 0, max: 5 }),
    upper: fc.boolean(), status: fc.constantFrom('active', 'expired', 'removed', 'cancelled'), consent: fc.constantFrom(true, false, null),
  }), { selector: (m) => `${m.mode}/${m.target}/${m.person}`, maxLength: 15 }),
  payments: fc.array(fc.record({
    mode: fc.constantFrom<Mode>('test', 'test', 'live'), person: fc.integer({ min: 0, max: 5 }), upper: fc.boolean(),
    type: fc.constantFrom('purchase', 'renewal'), status: fc.constantFrom('succeeded', 'succeeded', 'failed', 'pending'),
    currency: fc.constantFrom(...currencies), amount: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 1_000_000 })), refundShare: fc.double({ min: 0, max: 1, noNaN: true }),
  }), { maxLength: 20 }),
  subscriptions: fc.array(fc.record({
    mode: fc.constantFrom<Mode>('test', 'live'), person: fc.integer({ min: 0, max: 5 }), currency: fc.constantFrom(...currencies),
    amount: fc.integer({ min: 0, max: 500_000 }), periodic: fc.constantFrom('daily', 'weekly', 'monthly', 'yearly'), interval: fc.integer({ min: 1, max: 3 }),
    status: fc.constantFrom('active', 'past_due', 'cancelled', 'expired', 'completed'), cancelling: fc.boolean(),
  }), { maxLength: 10 }),
});

describe('customers and subscriptions, recomputed from random histories', () => {
  it('agree to the cent on lifetime value per currency, counts and MRR', async () => {
    await fc.assert(fc.asyncProperty(history, async (h) => {
      const brand = await createBrand(t.db);
      const targets = [await product(t.db, brand.id), await product(t.db, brand.id), await hub(t.db, brand.id), await hub(t.db, brand.id)];
      const email = (person: number, upper: boolean) => (upper ? `PERSON${person}@EXAMPLE.COM` : `person${person}@example.com`);
      let at = Date.now() - 100_000;
      for (const m of h.members) {
        const target = targets[m.target];
        await member(t.db, { brandId: brand.id, mode: m.mode, ...(target.startsWith('hub_') ? { hubId: target } : { productId: target }), email: email(m.person, m.upper), status: m.status, consent: m.consent, at: at++ });
      }
      const paid = h.payments.map((p) => {
        const refunded = p.status === 'succeeded' ? Math.floor(p.amount * p.refundShare) : 0;
        return { ...p, refunded, status: p.status === 'succeeded' && refunded === p.amount && p.amount > 0 ? 'refunded' : p.status };
      });
      for (const p of paid) await payment(t.db, { brandId: brand.id, mode: p.mode, email: email(p.person, p.upper), amount: p.amount, currency: p.currency, type: p.type, status: p.status, refunded: p.refunded, at: at++ });
      for (const s of h.subscriptions) await subscription(t.db, { brandId: brand.id, mode: s.mode, email: email(s.person, false), amount: s.amount, currency: s.currency, periodic: s.periodic, interval: s.interval, status: s.status, cancelling: s.cancelling, at: at++ });

      const key = await keyFor(brand.id);
      const customers: any[] = [];
      for (let cursor = '', first = true; first || cursor; first = false) {
        const page = await get(key, `/api/v1/customers?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
        customers.push(...page.items);
        cursor = page.nextCursor;
      }
      const test = { members: h.members.filter((m) => m.mode === 'test'), paid: paid.filter((p) => p.mode === 'test' && ['succeeded', 'refunded'].includes(p.status)) };
      const people = [...new Set([...test.members.map((m) => m.person), ...test.paid.map((p) => p.person)])];
      assert.equal(customers.length, people.length, 'one customer per person');
      for (const person of people) {
        const c = customers.find((x) => x.id === cusId(brand.id, 'test', email(person, false)));
        assert.ok(c, `person${person} is listed`);
        const value = new Map<string, { paid: number; refunded: number }>();
        for (const p of test.paid.filter((x) => x.person === person && x.amount > 0)) {
          const v = value.get(p.currency) ?? { paid: 0, refunded: 0 };
          value.set(p.currency, { paid: v.paid + p.amount, refunded: v.refunded + p.refunded });
        }
        assert.deepEqual(c.lifetimeValue, [...value.keys()].sort().map((cur) => {
          const v = value.get(cur)!;
          return { currency: cur, paid: major(v.paid, cur), refunded: major(v.refunded, cur), amount: major(v.paid - v.refunded, cur) };
        }));
        const mine = test.members.filter((m) => m.person === person);
        const running = h.subscriptions.filter((s) => s.mode === 'test' && s.person === person && ['active', 'past_due'].includes(s.status)).length;
        assert.deepEqual(c.counts, {
          purchases: test.paid.filter((p) => p.person === person && p.type === 'purchase').length,
          memberships: mine.length,
          activeMemberships: mine.filter((m) => m.status === 'active').length,
          activeSubscriptions: running,
        });
        assert.equal(c.status, mine.some((m) => m.status === 'active') || running > 0 ? 'active' : 'ended');
        const consents = mine.map((m) => m.consent).filter((x) => x !== null);
        assert.equal(c.receiveEmails, consents.length ? consents.includes(true) : undefined);
      }

      const subs: any[] = [];
      for (let cursor = '', first = true; first || cursor; first = false) {
        const page = await get(key, `/api/v1/subscriptions?limit=4${cursor ? `&cursor=${cursor}` : ''}`);
        subs.push(...page.items);
        cursor = page.nextCursor;
      }
      const testSubs = h.subscriptions.filter((s) => s.mode === 'test');
      assert.equal(subs.length, testSubs.length);
      // Newest first: the history's last subscription is the list's first.
      testSubs.reverse().forEach((s, i) => {
        const renewing = (s.status === 'active' && !s.cancelling) || s.status === 'past_due';
        const mrr = renewing ? Math.round((s.amount * perMonth[s.periodic]) / s.interval) : 0;
        assert.equal(subs[i].mrr, major(mrr, s.currency), `${s.amount} ${s.currency} ${s.periodic}/${s.interval}`);
        assert.equal(subs[i].amount, major(s.amount, s.currency));
      });
    }), { numRuns: 25 });
  });
});
