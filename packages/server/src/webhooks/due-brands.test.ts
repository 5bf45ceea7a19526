import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { recordEvent } from '../events/service.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { createBrand, createKey } from '../testing/factories.ts';
import { registerEndpoint } from '../testing/receiver.ts';
import * as claims from './claim.ts';

/**
 * Per-brand claims (migration 035, claim.ts): the worker finds work through webhook_due_brands
 * and claims within one brand at a time. Whatever a claim leaves (the limit, a lease that lapses,
 * a retry later) stays findable: no delivery is stranded without a row saying its brand is due.
 */

let t: TestApp;
before(async () => { t = await startTestApp(); });
after(async () => { await t.close(); });

const noCaps = (): claims.ClaimCaps => ({ heldByEndpoint: new Map(), heldByBrand: new Map(), perEndpoint: 100, perBrand: 100 });

async function brandWithEvents(n: number) {
  const brand = await createBrand(t.db);
  const key = (await createKey(t.db, brand.id, { mode: 'test' })).key;
  await registerEndpoint(t, key, 'http://127.0.0.1:9/hook', ['member.joined']);
  await t.db.transaction(async (tx) => {
    for (let i = 0; i < n; i++) await recordEvent(tx, { brandId: brand.id, mode: 'test', type: 'member.joined', data: { membershipId: `mem_due_${i}` } as never });
  });
  return brand.id;
}

/** Claims until the given brand's deliveries show up or nothing more is claimed (other tests' brands may be due too). */
async function claimOf(brandId: string, limit: number, leaseMs: number, claim: string) {
  const got: claims.ClaimedDelivery[] = [];
  for (let round = 0; round < 20; round++) {
    const rows = await claims.claimDue(t.db, limit, leaseMs, claim, noCaps());
    got.push(...rows.filter((d) => d.brand_id === brandId));
    if (got.length || !rows.length) break;
  }
  return got;
}

const dueRows = async (brandId: string) => (await t.db.query<{ due: boolean }>(
  'SELECT due_at <= now() AS due FROM webhook_due_brands WHERE brand_id = $1 ORDER BY due_at', [brandId])).map((r) => r.due);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('brands with due work', () => {
  it('marks a brand due when its events are fanned out, once per transaction', async () => {
    const brandId = await brandWithEvents(5);
    assert.deepEqual(await dueRows(brandId), [true], 'five deliveries in one transaction: one row');
  });

  it('keeps a brand due while a claim leaves some of its due deliveries, and claims them next', async () => {
    const brandId = await brandWithEvents(5);
    const first = await claimOf(brandId, 2, 60_000, 'due-1');
    assert.equal(first.length, 2);
    assert.ok((await dueRows(brandId)).includes(true), 'three due deliveries left: the brand is still due now');
    const rest = await claimOf(brandId, 100, 60_000, 'due-2');
    assert.equal(rest.length, 3);
    assert.deepEqual(new Set([...first, ...rest].map((d) => d.id)).size, 5, 'each delivery claimed once');
    assert.ok(!(await dueRows(brandId)).includes(true), 'everything is claimed: only the leases\' end is left');
  });

  it('claims a delivery again when the lease of a worker that never recorded it runs out', async () => {
    const brandId = await brandWithEvents(1);
    const [d] = await claimOf(brandId, 10, 200, 'killed-worker');
    assert.ok(d, 'claimed by the worker that then dies');
    assert.equal((await claimOf(brandId, 10, 60_000, 'other-worker')).length, 0, 'not while the lease holds');
    // The lease's end is written rounded up to the next second: at most about 2 s from now.
    let again: claims.ClaimedDelivery[] = [];
    for (let i = 0; i < 100 && !again.length; i++) {
      await sleep(50);
      again = await claimOf(brandId, 10, 60_000, 'other-worker');
    }
    assert.deepEqual(again.map((r) => r.id), [d.id], 'another worker takes it after the lease');
  });

  it('claims a retry when it falls due, not before', async () => {
    const brandId = await brandWithEvents(1);
    const [d] = await claimOf(brandId, 10, 60_000, 'retry-1');
    const nextAttemptAt = new Date(Date.now() + 1500);
    const recorded = await claims.recordAttempts(t.db, [{
      delivery: d,
      attempt: { attemptedAt: new Date(), durationMs: 5, responseCode: 503, error: null, responseBody: 'busy' },
      outcome: { status: 'pending', nextAttemptAt, failureReason: null, disableReason: null, failingCutoff: new Date(Date.now() - 86_400_000) },
    }]);
    assert.ok(recorded.has(d.id));
    assert.equal((await claimOf(brandId, 10, 60_000, 'retry-2')).length, 0, 'not due yet');
    let again: claims.ClaimedDelivery[] = [];
    for (let i = 0; i < 100 && !again.length; i++) {
      await sleep(50);
      again = await claimOf(brandId, 10, 60_000, 'retry-3');
    }
    assert.deepEqual(again.map((r) => r.id), [d.id]);
    assert.ok(Date.now() >= nextAttemptAt.getTime(), 'taken once due');
  });
});
