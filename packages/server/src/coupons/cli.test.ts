import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../testing/processes.ts';
import { migratedCliStore } from '../testing/cli-store.ts';

/** `npm run cli -- coupon …` as an operator runs it: a real process on its own database. */
let env: Record<string, string>;
let cleanup: () => Promise<void>;
before(async () => {
  ({ env, cleanup } = await migratedCliStore('cli-coupons'));
});
after(async () => { await cleanup(); });

describe('coupon commands of the admin CLI', () => {
  it('creates, lists and archives a coupon, and refuses a bad one naming the field', async () => {
    const brand = await runCli(['brand', 'create', '--name', 'Studio'], env);
    assert.equal(brand.code, 0, brand.stderr);
    const brandId = brand.json().id as string;
    const made = await runCli(['coupon', 'create', '--brand', brandId, '--mode', 'test', '--code', 'SPRING20', '--percent', '20', '--max', '100', '--duration', '3'], env);
    assert.equal(made.code, 0, made.stderr);
    const coupon = made.json();
    assert.deepEqual([coupon.code, coupon.percentOff, coupon.maxRedemptions, coupon.duration, coupon.durationPeriods], ['SPRING20', 20, 100, 'repeating', 3]);
    const fixed = await runCli(['coupon', 'create', '--brand', brandId, '--mode', 'live', '--code', 'FIVE', '--amount', '5', '--currency', 'usd'], env);
    assert.equal(fixed.code, 0, fixed.stderr);
    assert.deepEqual(fixed.json().amountsOff, [{ amount: 5, currency: 'USD' }]);

    const bad = await runCli(['coupon', 'create', '--brand', brandId, '--mode', 'test', '--code', 'TOO', '--percent', '120'], env);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /percentOff/);
    const clash = await runCli(['coupon', 'create', '--brand', brandId, '--mode', 'test', '--code', 'spring20', '--percent', '5'], env);
    assert.equal(clash.code, 1);
    assert.match(clash.stderr, /already has the code "spring20"/);
    const both = await runCli(['coupon', 'create', '--brand', brandId, '--mode', 'test', '--code', 'X1', '--percent', '5', '--amount', '1'], env);
    assert.equal(both.code, 1);
    assert.match(both.stderr, /exactly one of --percent N and --amount N/);

    const listed = await runCli(['coupon', 'list', '--brand', brandId, '--mode', 'test'], env);
    assert.equal(listed.code, 0, listed.stderr);
    assert.deepEqual(listed.json().items.map((c: { code: string }) => c.code), ['SPRING20'], 'test mode only');
    const archived = await runCli(['coupon', 'archive', coupon.id, '--brand', brandId, '--mode', 'test'], env);
    assert.equal(archived.code, 0, archived.stderr);
    assert.equal(archived.json().status, 'archived');
  });
});
