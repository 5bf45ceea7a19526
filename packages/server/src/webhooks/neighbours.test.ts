import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { createBrand, createKey } from '../testing/factories.ts';
import { registerEndpoint, startReceiver, type Receiver } from '../testing/receiver.ts';

/**
 * No noisy neighbours: brand B's receiver hangs on every delivery, and B sends a burst of events;
 * brand A's deliveries still go out at once, while B's first attempts are still hanging.
 */
let t: TestApp;
const receivers: Receiver[] = [];
before(async () => {
  t = await startTestApp({ worker: true, webhooks: { timeoutMs: 20_000, claimLeaseMs: 25_000, retryScheduleMs: [], maxInFlightPerEndpoint: 4, maxInFlightPerBrand: 8 } });
});
after(async () => {
  for (const r of receivers) await r.close();
  await t.close();
});

const sendTests = (key: string, n: number) =>
  Promise.all(Array.from({ length: n }, () => t.request({ method: 'POST', url: '/api/v1/webhooks/test', key, payload: { eventType: 'member.joined' } })));

describe('one slow receiver delays only itself', () => {
  it('delivers brand A\'s events while brand B\'s receiver hangs, and holds B to its caps', async () => {
    const hanging = await startReceiver({ respond: () => ({ hang: true }) });
    const fast = await startReceiver();
    receivers.push(hanging, fast);
    const b = await createBrand(t.db);
    const bKey = (await createKey(t.db, b.id)).key;
    await registerEndpoint(t, bKey, hanging.url, ['member.joined']);
    await registerEndpoint(t, bKey, hanging.url, ['member.joined']); // a second endpoint of B, same hanging host
    const a = await createBrand(t.db);
    const aKey = (await createKey(t.db, a.id)).key;
    fast.secret = (await registerEndpoint(t, aKey, fast.url, ['member.joined'])).signingSecret;

    await sendTests(bKey, 40); // 80 deliveries to hanging endpoints: more than the worker's 64 slots
    // Let the worker take what B's caps allow.
    for (let i = 0; i < 100 && hanging.received.length < 8; i++) await new Promise((r) => setTimeout(r, 20));
    await sendTests(aKey, 5);
    const got = await fast.waitFor(5, 15_000); // inside B's 20 s receiver timeout, however loaded the machine
    assert.equal(got.length, 5);
    assert.ok(got.every((d) => d.verified));

    const [attempted] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_attempts WHERE brand_id = $1', [b.id]);
    assert.equal(attempted.n, 0, 'A was delivered while B\'s first attempts were still hanging');
    const [inFlight] = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_queue WHERE brand_id = $1 AND locked_until > now()`, [b.id]);
    assert.ok(inFlight.n <= 8, `B has ${inFlight.n} deliveries in flight; its cap is 8`);
    assert.ok(hanging.received.length <= 8, `B's receiver got ${hanging.received.length} requests at once`);
  });
});
