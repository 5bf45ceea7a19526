import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { testDbKind } from '../testing/db.ts';
import { createBrand, createKey } from '../testing/factories.ts';
import { startServerProcess, urlWithSchema, type ServerProcess } from '../testing/processes.ts';

/**
 * The double-booking race (docs/bookings.md): twenty buyers ask for the same one-place slot at
 * once, through two API processes on one PostgreSQL. Exactly one gets a payment link; the others
 * are told the slot is taken, and exactly one booking is paid.
 */
const skip = testDbKind === 'pglite' ? 'needs PostgreSQL: several processes share one database only with DATABASE_URL (set TEST_DATABASE_URL)' : false;

let t: TestApp;
const apis: ServerProcess[] = [];

describe('twenty buyers, one slot, two API processes', { skip }, () => {
  before(async () => {
    t = await startTestApp();
    const env = { DATABASE_URL: urlWithSchema(t.url!, t.searchPath!), WEBHOOK_SECRET_KEY: t.deps.secrets.webhookKey.toString('base64'), ROLES: 'api' };
    apis.push(...(await Promise.all([startServerProcess(env), startServerProcess(env)])));
  });
  after(async () => {
    await Promise.all(apis.map((a) => a.stop()));
    await t?.close();
  });

  it('books the slot exactly once', async () => {
    const brand = await createBrand(t.db);
    const { key } = await createKey(t.db, brand.id, { mode: 'test' });
    const call = (api: ServerProcess, method: string, path: string, body?: unknown) => fetch(`${api.url}/api/v1${path}`, {
      method, headers: { 'x-service-api': key, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined,
    });
    const allDay = Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, [{ start: '00:00', end: '24:00' }]]));
    const made = await call(apis[0], 'POST', '/products', {
      type: 'appointment', title: 'Portfolio review', tiers: [{ name: 'Review', price: { amount: 0, currency: 'USD' } }],
      availability: { timezone: 'UTC', sessionMinutes: 60, weeklyHours: allDay },
    });
    assert.equal(made.status, 200, await made.clone().text());
    const product = (await made.json() as { data: { id: string; tiers: { id: string }[] } }).data;
    const startsAt = new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000 + 2 * 86_400_000).toISOString();

    const answers = await Promise.all(Array.from({ length: 20 }, async (_, i) => {
      const res = await call(apis[i % 2], 'POST', '/payment-links', {
        items: [{ id: product.id, plan: product.tiers[0].id, type: 'appointment' }],
        form: { formData: { fullName: `Buyer ${i}`, email: `buyer${i}@example.com` } },
        booking: { startsAt },
      });
      return { status: res.status, body: await res.json() as { data: { link?: string; details?: { field: string; message: string }[] } } };
    }));
    const won = answers.filter((a) => a.status === 200);
    const lost = answers.filter((a) => a.status !== 200);
    assert.equal(won.length, 1, JSON.stringify(answers.map((a) => a.status)));
    for (const a of lost) {
      assert.equal(a.status, 400);
      assert.equal(a.body.data.details?.[0].field, 'booking.startsAt');
      assert.match(a.body.data.details![0].message, /is taken/);
    }

    // The winner pays (a free tier: the hosted page's form alone), on the other process.
    const path = new URL(won[0].body.data.link!).pathname;
    const paid = await fetch(`${apis[1].url}${path}/pay`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '', redirect: 'manual' });
    assert.equal(paid.status, 303);
    const list = await (await call(apis[0], 'GET', '/bookings')).json() as { data: { items: { startsAt: string; status: string }[] } };
    assert.deepEqual(list.data.items.map((b) => [b.startsAt, b.status]), [[startsAt, 'confirmed']]);
    const rows = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM bookings WHERE brand_id = $1 AND starts_at = $2`, [brand.id, startsAt]);
    assert.equal(rows[0].n, 1, 'one row for the slot: no losing buyer left a hold behind');
  });
});
