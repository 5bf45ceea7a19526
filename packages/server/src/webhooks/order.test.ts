import assert from 'node:assert/strict';
import { once } from 'node:events';
import { after, before, describe, it } from 'node:test';
import type { ChildProcess } from 'node:child_process';
import { recordEvent, type RecordedEvent } from '../events/service.ts';
import { eventTypes } from '../events/types.ts';
import { advance, buyPlan, recurringBrand } from '../testing/subscriptions.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { testDbKind } from '../testing/db.ts';
import { createBrand, createKey } from '../testing/factories.ts';
import { startWorkerProcess, urlWithSchema } from '../testing/processes.ts';
import { registerEndpoint, startReceiver, type ReceivedDelivery, type ReceiverAnswer } from '../testing/receiver.ts';
import { until } from '../testing/until.ts';

/**
 * Order you can rely on (docs/webhooks.md, Order and versions): deliveries of one object's events
 * to one endpoint go out in the order the events were recorded, without holding up other objects.
 */

let t: TestApp;
const cleanups: (() => Promise<unknown>)[] = [];
// Retries slow enough to see what flows while a delivery waits for its retry; a receiver timeout
// generous enough that a starved receiver (PGlite shares this thread) is not a failed attempt.
before(async () => { t = await startTestApp({ webhooks: { retryScheduleMs: [300, 600, 1200], timeoutMs: 5000, claimLeaseMs: 10_000 } }); });
after(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => {});
  await t.close();
});

/** A receiver that answers each arrival with `answer` and remembers the status it gave. */
async function receiver(answer: (d: ReceivedDelivery) => number = () => 200) {
  const statuses = new Map<number, number>();
  const rx = await startReceiver({
    respond: (n, d): ReceiverAnswer => {
      const status = answer(d);
      statuses.set(n, status);
      return { status };
    },
  });
  cleanups.push(() => rx.close());
  const ok = (d: ReceivedDelivery) => statuses.get(d.n) === 200;
  return Object.assign(rx, { ok, succeeded: () => rx.received.filter(ok) });
}

async function brandWithEndpoint(url: string, events: string[] = ['member.joined', 'member.removed']) {
  const brand = await createBrand(t.db);
  const key = (await createKey(t.db, brand.id, { mode: 'test' })).key;
  const ep = await registerEndpoint(t, key, url, events);
  return { brandId: brand.id, key, ep };
}

/** Two worker processes on the test database (PostgreSQL), with quick retries; stopped after the file. */
async function startTwoWorkerProcesses() {
  const env = {
    DATABASE_URL: urlWithSchema(t.url!, t.searchPath!),
    WEBHOOK_SECRET_KEY: t.config.webhooks.secretKey!.toString('base64'),
    WEBHOOK_RETRY_SCHEDULE: '100ms,200ms,400ms',
  };
  const children: ChildProcess[] = await Promise.all([startWorkerProcess(env), startWorkerProcess(env)]);
  cleanups.push(async () => Promise.all(children.map(async (c) => { if (c.exitCode === null) { c.kill('SIGTERM'); await once(c, 'exit'); } })));
}

/**
 * Waits for every delivery of `order`'s events to succeed, then checks each was answered 200
 * exactly once, each object's in the order recorded, and no attempt of an event before the
 * previous one of its object had succeeded.
 */
async function deliveredOnceInOrder(rx: Awaited<ReturnType<typeof receiver>>, brandId: string, order: Map<string, string[]>) {
  const total = [...order.values()].reduce((n, ids) => n + ids.length, 0);
  await until('every delivery to succeed', async () => {
    const s = await deliveryStatuses(brandId);
    return s.length === total && s.every((x) => x === 'succeeded');
  }, 60_000);
  const ok = rx.succeeded();
  assert.equal(ok.length, total, 'each event answered 200 exactly once');
  assert.equal(new Set(ok.map((d) => d.json.id)).size, total);
  for (const [object, ids] of order) {
    const arrivals = rx.received.filter((d) => d.json.data.membershipId === object);
    assert.deepEqual(ok.filter((d) => d.json.data.membershipId === object).map((d) => d.json.id), ids, `${object} in order`);
    for (let k = 1; k < ids.length; k++) {
      const prevOk = arrivals.find((d) => d.json.id === ids[k - 1] && rx.ok(d))!;
      assert.ok(arrivals.filter((d) => d.json.id === ids[k]).every((d) => d.n > prevOk.n), `${object}: event ${k} waited for ${k - 1}`);
    }
  }
}

/** A member.* event about membership `id` (its data only needs to name the membership here). */
const memberEvent = (brandId: string, type: 'member.joined' | 'member.removed', id: string, n: number) =>
  ({ brandId, mode: 'test' as const, type, data: { membershipId: id, n } as never });

const deliveryStatuses = async (brandId: string) => (await t.db.query<{ status: string }>(
  'SELECT status FROM webhook_deliveries WHERE brand_id = $1', [brandId])).map((r) => r.status);

describe('order of one object\'s deliveries', () => {
  it('holds an object\'s second event until its first succeeded on retry, while another object\'s events flow', async () => {
    let first: RecordedEvent | undefined;
    let failures = 0;
    const rx = await receiver((d) => (d.json.id === first?.id && failures++ < 2 ? 500 : 200));
    const { brandId, key } = await brandWithEndpoint(rx.url);
    await t.startWorker();
    const [a1, a2] = await t.db.transaction(async (tx) => {
      first = await recordEvent(tx, memberEvent(brandId, 'member.joined', 'mem_a', 1));
      return [first, await recordEvent(tx, memberEvent(brandId, 'member.removed', 'mem_a', 2))];
    });
    const [b1, b2] = await t.db.transaction(async (tx) => [
      await recordEvent(tx, memberEvent(brandId, 'member.joined', 'mem_b', 1)),
      await recordEvent(tx, memberEvent(brandId, 'member.removed', 'mem_b', 2)),
    ]);
    await rx.waitFor(6, 20_000);
    const arrivals = rx.received.map((d) => d.json.id);
    const a1Success = rx.received.find((d) => d.json.id === a1.id && rx.ok(d))!;
    assert.deepEqual(arrivals.filter((id) => id === a1.id).length, 3, 'a1 failed twice, then succeeded');
    assert.equal(arrivals.indexOf(a2.id), a1Success.n, 'a2 went out right after a1 succeeded, not before');
    assert.ok(arrivals.indexOf(b1.id) < arrivals.indexOf(b2.id), 'b\'s events in order too');
    assert.ok(arrivals.indexOf(b2.id) < a1Success.n - 1, 'b was not held up by a\'s retries');
    await until('every delivery finished', async () => (await deliveryStatuses(brandId)).every((s) => s === 'succeeded'));

    // A resend is a request to send that delivery now: it goes out at once, whatever its order.
    const [d] = await t.db.query<{ id: string }>('SELECT id FROM webhook_deliveries WHERE brand_id = $1 AND event_id = $2', [brandId, a1.id]);
    const resent = await t.request({ method: 'POST', url: `/api/v1/webhooks/deliveries/${d.id}/resend`, key });
    assert.equal(resent.statusCode, 200, resent.body);
    assert.equal(rx.received.at(-1)!.json.id, a1.id);
  });

  it('releases the next event when an earlier one fails for good', async () => {
    let doomed: RecordedEvent | undefined;
    const rx = await receiver((d) => (d.json.id === doomed?.id ? 500 : 200));
    const { brandId } = await brandWithEndpoint(rx.url);
    await t.startWorker();
    const next = await t.db.transaction(async (tx) => {
      doomed = await recordEvent(tx, memberEvent(brandId, 'member.joined', 'mem_c', 1));
      return recordEvent(tx, memberEvent(brandId, 'member.removed', 'mem_c', 2));
    });
    await until('the next event to arrive', async () => rx.succeeded().some((d) => d.json.id === next.id));
    const doomedArrivals = rx.received.filter((d) => d.json.id === doomed!.id);
    assert.equal(doomedArrivals.length, 4, 'the first went through its whole schedule (1 + 3 retries) first');
    assert.ok(doomedArrivals.every((d) => d.n < rx.received.find((x) => x.json.id === next.id)!.n));
    const [row] = await t.db.query<{ status: string; failure_reason: string }>(
      'SELECT status, failure_reason FROM webhook_deliveries WHERE brand_id = $1 AND event_id = $2', [brandId, doomed!.id]);
    assert.deepEqual(row, { status: 'failed', failure_reason: 'attempts_exhausted' });
  });

  it('delivers a subscription\'s lifecycle in order, with versions that never go back', async () => {
    // Every other arrival fails once, so the order has to survive retries.
    const failedOnce = new Set<string>();
    const rx = await receiver((d) => {
      if (d.n % 2 === 0 && !failedOnce.has(d.json.id)) { failedOnce.add(d.json.id); return 500; }
      return 200;
    });
    const b = await recurringBrand(t);
    await registerEndpoint(t, b.key, rx.url, [...eventTypes]);
    await t.startWorker();
    const { membershipId } = await buyPlan(t, b, 'monthly');
    await advance(t, b.key, { by: '32d' });
    await advance(t, b.key, { by: '31d' });
    const cancel = await t.request({ method: 'POST', url: `/api/v1/memberships/${membershipId}/cancel`, key: b.key, payload: { atPeriodEnd: true } });
    assert.equal(cancel.statusCode, 200, cancel.body);
    await advance(t, b.key, { by: '40d' });

    const recorded = await t.db.query<{ id: string; type: string }>(
      `SELECT id, type FROM events WHERE brand_id = $1 AND (type LIKE 'member.%' OR type LIKE 'subscription.%') ORDER BY seq`, [b.brandId]);
    assert.deepEqual(recorded.map((e) => e.type), ['member.joined', 'subscription.renewed', 'subscription.renewed', 'subscription.expired', 'member.removed']);
    await until('the membership\'s events to arrive', async () => recorded.every((e) => rx.succeeded().some((d) => d.json.id === e.id)));
    const delivered = rx.succeeded().filter((d) => /^(member|subscription)\./.test(d.json.type));
    assert.deepEqual(delivered.map((d) => d.json.id), recorded.map((e) => e.id), 'delivered in the order recorded');

    const versions = delivered.map((d) => {
      const m = d.json.type.startsWith('member.') ? d.json.data : d.json.data.membership;
      const s = d.json.data.subscription;
      assert.match(m.updatedAt, /\.\d{3}Z$/);
      return [m.version as number, (s?.version ?? 0) as number];
    });
    for (let i = 1; i < versions.length; i++) {
      const [pm, ps] = versions[i - 1];
      const [m, s] = versions[i];
      assert.ok(m >= pm && s >= ps, `versions never go back: ${JSON.stringify(versions)}`);
    }
    const renewals = delivered.filter((d) => d.json.type === 'subscription.renewed').map((d) => d.json.data.subscription.version);
    assert.ok(renewals[1] > renewals[0], 'each renewal is a newer subscription');
    assert.ok(versions.at(-1)![0] > versions[0][0], 'the membership ended as a newer version than it joined');

    // The API answers the same object at the same version as the last event about it.
    const m = (await t.request({ method: 'GET', url: `/api/v1/hubs/${b.ids.club}/members/${membershipId}`, key: b.key })).json().data;
    assert.equal(m.version, delivered.at(-1)!.json.data.version);
    assert.equal(m.subscription.version, delivered.at(-1)!.json.data.subscription.version);

    // And the transactions' events carry theirs: a renewal charge is created pending (1) and settled (2).
    const charges = rx.succeeded().filter((d) => d.json.type === 'transaction.succeeded').map((d) => d.json.data);
    assert.ok(charges.length >= 3 && charges.every((c) => c.version === 2), JSON.stringify(charges.map((c) => c.version)));
  });

  it('lists the events of one transaction in the order they were recorded', async () => {
    const brandId = (await createBrand(t.db)).id;
    const key = (await createKey(t.db, brandId, { mode: 'test' })).key;
    const ids = await t.db.transaction(async (tx) => {
      const out: string[] = [];
      for (let i = 0; i < 7; i++) out.push((await recordEvent(tx, memberEvent(brandId, i % 2 ? 'member.removed' : 'member.joined', `mem_${i}`, i))).id);
      return out;
    });
    const seen: string[] = [];
    let cursor = '';
    do {
      const res = await t.request({ method: 'GET', url: `/api/v1/events?limit=3${cursor ? `&cursor=${cursor}` : ''}`, key });
      assert.equal(res.statusCode, 200, res.body);
      const page = res.json().data;
      seen.push(...page.items.map((e: { id: string }) => e.id));
      cursor = page.nextCursor;
    } while (cursor);
    assert.deepEqual(seen, [...ids].reverse(), 'newest first: the last recorded first, every one once');
  });

  it('two worker processes draining a backlog in batches keep each object\'s order and send each once', { skip: testDbKind !== 'postgres' && 'needs PostgreSQL: embedded mode (PGlite) is one process' }, async () => {
    const objects = 40;
    const perObject = 5;
    // Some first attempts fail, so retries interleave with the batches both workers claim.
    const failedOnce = new Set<string>();
    const rx = await receiver((d) => {
      if (d.n % 7 === 0 && !failedOnce.has(d.json.id)) { failedOnce.add(d.json.id); return 500; }
      return 200;
    });
    const { brandId } = await brandWithEndpoint(rx.url);
    await t.worker?.stop();
    t.worker = undefined;
    // The backlog first, objects interleaved, a few transactions: each claim then takes many
    // deliveries at once, several of them of one object but only the first of each may go.
    const order = new Map<string, string[]>();
    for (let i = 0; i < perObject; i++) {
      await t.db.transaction(async (tx) => {
        for (let o = 0; o < objects; o++) {
          const e = await recordEvent(tx, memberEvent(brandId, i % 2 ? 'member.removed' : 'member.joined', `mem_batch${o}`, i));
          order.set(`mem_batch${o}`, [...(order.get(`mem_batch${o}`) ?? []), e.id]);
        }
      });
    }
    await startTwoWorkerProcesses();
    await deliveredOnceInOrder(rx, brandId, order);
  });

  it('two worker processes deliver each object\'s events in order and exactly once', { skip: testDbKind !== 'postgres' && 'needs PostgreSQL: embedded mode (PGlite) is one process' }, async () => {
    const objects = 6;
    const perObject = 8;
    // Some first attempts fail, so retries interleave with the other worker's claims.
    const failedOnce = new Set<string>();
    const rx = await receiver((d) => {
      if (d.n % 5 === 0 && !failedOnce.has(d.json.id)) { failedOnce.add(d.json.id); return 500; }
      return 200;
    });
    const { brandId } = await brandWithEndpoint(rx.url);
    await t.worker?.stop();
    t.worker = undefined;
    await startTwoWorkerProcesses();
    // Each event in its own transaction, objects interleaved, while both workers run.
    const order = new Map<string, string[]>();
    for (let i = 0; i < perObject; i++) {
      for (let o = 0; o < objects; o++) {
        const e = await t.db.transaction((tx) => recordEvent(tx, memberEvent(brandId, i % 2 ? 'member.removed' : 'member.joined', `mem_obj${o}`, i)));
        order.set(`mem_obj${o}`, [...(order.get(`mem_obj${o}`) ?? []), e.id]);
      }
    }
    await deliveredOnceInOrder(rx, brandId, order);
  });
});
