import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../config.ts';
import { resolveSecrets } from '../secrets.ts';

describe('webhook settings', () => {
  it('defaults to 5s, 5m, 30m, 2h, 5h, 10h, 10h, a 15 s timeout and five days', () => {
    const w = loadConfig({}).webhooks;
    assert.deepEqual(w.retryScheduleMs, [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
    assert.equal(w.timeoutMs, 15_000);
    assert.equal(w.claimLeaseMs, 20_000);
    assert.equal(w.disableAfterMs, 5 * 86_400_000);
    assert.equal(w.retryJitter, 0.1);
    assert.equal(w.secretKey, undefined);
    assert.equal(w.eventRetentionMs, 30 * 86_400_000);
  });

  it('reads every value from the environment', () => {
    const w = loadConfig({
      WEBHOOK_RETRY_SCHEDULE: '1s, 500ms,2m', WEBHOOK_TIMEOUT: '2s', WEBHOOK_CLAIM_LEASE: '10s', WEBHOOK_RETRY_JITTER_PERCENT: '0',
      WEBHOOK_CONCURRENCY: '8', WEBHOOK_DISABLE_AFTER: '1h', WEBHOOK_RETRY_AFTER_MAX: '30m', WEBHOOK_SECRET_KEY: 'a'.repeat(64),
    }).webhooks;
    assert.deepEqual(w.retryScheduleMs, [1000, 500, 120_000]);
    assert.equal(w.timeoutMs, 2000);
    assert.equal(w.claimLeaseMs, 10_000);
    assert.equal(w.concurrency, 8);
    assert.equal(w.disableAfterMs, 3_600_000);
    assert.equal(w.retryAfterMaxMs, 1_800_000);
    assert.equal(w.secretKey?.length, 32);
    assert.deepEqual(loadConfig({ WEBHOOK_RETRY_SCHEDULE: '' }).webhooks.retryScheduleMs, [], 'empty: no retries');
  });

  it('names the variable when a value is wrong', () => {
    const bad: [Record<string, string>, RegExp][] = [
      [{ WEBHOOK_RETRY_SCHEDULE: '5s,soon' }, /WEBHOOK_RETRY_SCHEDULE/],
      [{ WEBHOOK_TIMEOUT: 'fast' }, /WEBHOOK_TIMEOUT/],
      [{ WEBHOOK_TIMEOUT: '20s', WEBHOOK_CLAIM_LEASE: '10s' }, /WEBHOOK_CLAIM_LEASE.*WEBHOOK_TIMEOUT/],
      [{ WEBHOOK_SECRET_KEY: 'too-short' }, /WEBHOOK_SECRET_KEY/],
      [{ WEBHOOK_CONCURRENCY: '0' }, /WEBHOOK_CONCURRENCY/],
      [{ WEBHOOK_DISABLE_AFTER: '-1' }, /WEBHOOK_DISABLE_AFTER/],
      [{ EVENT_RETENTION: '7d' }, /EVENT_RETENTION/],
    ];
    for (const [env, message] of bad) assert.throws(() => loadConfig(env), (err: Error) => err instanceof ConfigError && message.test(err.message), JSON.stringify(env));
  });

  it('keeps the delivery log 30 days by default, shorter when asked, never longer than the events nor shorter than the retries', () => {
    const day = 86_400_000;
    assert.equal(loadConfig({}).webhooks.deliveryLogRetentionMs, 30 * day);
    assert.equal(loadConfig({ DELIVERY_LOG_RETENTION: '7d' }).webhooks.deliveryLogRetentionMs, 7 * day);
    assert.equal(loadConfig({ DELIVERY_LOG_RETENTION: '90d', EVENT_RETENTION: '90d' }).webhooks.deliveryLogRetentionMs, 90 * day);
    const bad: [Record<string, string>, RegExp][] = [
      [{ DELIVERY_LOG_RETENTION: '60d' }, /DELIVERY_LOG_RETENTION.*EVENT_RETENTION/],
      [{ DELIVERY_LOG_RETENTION: '2d', WEBHOOK_RETRY_SCHEDULE: '1d,1d' }, /DELIVERY_LOG_RETENTION.*WEBHOOK_RETRY_SCHEDULE/],
      [{ DELIVERY_LOG_RETENTION: 'a month' }, /DELIVERY_LOG_RETENTION/],
      [{ DELIVERY_LOG_RETENTION: '1h' }, /DELIVERY_LOG_RETENTION/],
    ];
    for (const [env, message] of bad) assert.throws(() => loadConfig(env), (err: Error) => err instanceof ConfigError && message.test(err.message), JSON.stringify(env));
  });

  it('keeps a generated key in the data folder in embedded mode and requires one with DATABASE_URL', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wh-key-'));
    try {
      const config = { ...loadConfig({ DATA_DIR: dir }) };
      const first = resolveSecrets(config).webhookKey;
      assert.equal(first.length, 32);
      assert.deepEqual(resolveSecrets(config).webhookKey, first, 'the same key after a restart');
      assert.equal((await stat(join(dir, 'webhook-secret.key'))).mode & 0o777, 0o600);
      assert.equal(Buffer.from((await readFile(join(dir, 'webhook-secret.key'), 'utf8')).trim(), 'base64').length, 32);
      assert.throws(() => resolveSecrets(loadConfig({ DATABASE_URL: 'postgres://x@127.0.0.1/db' })), (err: Error) => err instanceof ConfigError && /WEBHOOK_SECRET_KEY must be set/.test(err.message));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
