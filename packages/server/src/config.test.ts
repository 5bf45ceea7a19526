import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from './config.ts';
import { openPglite } from './db/client.ts';
import { startServerProcess } from './testing/processes.ts';

describe('configuration', () => {
  it('defaults to the embedded database in ./.data on port 3000', () => {
    const config = loadConfig({});
    assert.equal(config.port, 3000);
    assert.equal(config.databaseUrl, undefined);
    assert.match(config.dataDir, /\.data$/);
    assert.equal(config.publicUrl, 'http://localhost:3000');
  });

  for (const [name, value, pattern] of [
    ['PORT', 'eighty', /PORT/],
    ['PORT', '70000', /PORT/],
    ['DATABASE_URL', 'mysql://localhost/x', /DATABASE_URL/],
    ['DATABASE_URL', 'not a url', /DATABASE_URL/],
    ['PUBLIC_URL', 'ftp://x', /PUBLIC_URL/],
    ['LOG_LEVEL', 'loud', /LOG_LEVEL/],
    ['ROLES', 'api,cron', /ROLES/],
    ['KEY_CACHE_MS', '5000', /KEY_CACHE_MS/],
    ['CATALOG_CACHE_MB', '-1', /CATALOG_CACHE_MB/],
    ['CATALOG_CACHE_CHECK_MS', '5', /CATALOG_CACHE_CHECK_MS/],
    ['PGLITE_SHARED_BUFFERS_MB', '0', /PGLITE_SHARED_BUFFERS_MB/],
    ['PGLITE_SHARED_BUFFERS_MB', '16MB', /PGLITE_SHARED_BUFFERS_MB/],
    ['METRICS_PORT', 'ninety', /METRICS_PORT/],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'collector:4318', /OTEL_EXPORTER_OTLP_ENDPOINT/],
  ] as const) {
    it(`names ${name} when it is ${JSON.stringify(value)}`, () => {
      assert.throws(() => loadConfig({ [name]: value }), (err: Error) => err instanceof ConfigError && pattern.test(err.message));
    });
  }

  it('gives the embedded database 16 MB of shared_buffers unless PGLITE_SHARED_BUFFERS_MB says otherwise', async () => {
    assert.equal(loadConfig({}).pgliteSharedBuffersMb, 16);
    const config = loadConfig({ PGLITE_SHARED_BUFFERS_MB: '8' });
    assert.equal(config.pgliteSharedBuffersMb, 8);
    const db = await openPglite(undefined, { sharedBuffersMb: config.pgliteSharedBuffersMb });
    try {
      const rows = await db.query<{ name: string; setting: string; unit: string }>(
        `SELECT name, setting, unit FROM pg_settings WHERE name IN ('shared_buffers', 'maintenance_work_mem', 'temp_buffers') ORDER BY name`);
      // shared_buffers and temp_buffers count 8 kB pages, maintenance_work_mem kB.
      assert.deepEqual(rows, [
        { name: 'maintenance_work_mem', setting: '16384', unit: 'kB' },
        { name: 'shared_buffers', setting: '1024', unit: '8kB' },
        { name: 'temp_buffers', setting: '128', unit: '8kB' },
      ]);
    } finally {
      await db.close();
    }
  });

  it('serves no metrics and sends no traces unless asked', () => {
    const off = loadConfig({}).observability;
    assert.equal(off.metricsPort, undefined);
    assert.equal(off.otlpEndpoint, undefined);
    const on = loadConfig({ HOST: '10.0.0.5', METRICS_PORT: '9464', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/', OTEL_SERVICE_NAME: 'shop-eu' }).observability;
    assert.deepEqual(on, { metricsPort: 9464, metricsHost: '10.0.0.5', otlpEndpoint: 'http://collector:4318', serviceName: 'shop-eu' });
    assert.equal(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '127.0.0.1' }).observability.metricsHost, '127.0.0.1');
  });

  it('takes both Stripe settings or neither, and never repeats their values in its messages', () => {
    const secretKey = 'sk_live_51Habcdefghijklmnop';
    const webhookSecret = 'whsec_abcdefghijklmnopqrstuvwxyz012345';
    assert.equal(loadConfig({}).stripe, undefined);
    assert.deepEqual(loadConfig({ STRIPE_SECRET_KEY: secretKey, STRIPE_WEBHOOK_SECRET: webhookSecret }).stripe, { secretKey, webhookSecret });
    for (const [env, pattern] of [
      [{ STRIPE_SECRET_KEY: secretKey }, /STRIPE_WEBHOOK_SECRET is missing/],
      [{ STRIPE_WEBHOOK_SECRET: webhookSecret }, /STRIPE_SECRET_KEY is missing/],
      [{ STRIPE_SECRET_KEY: 'pk_live_publishable123', STRIPE_WEBHOOK_SECRET: webhookSecret }, /STRIPE_SECRET_KEY must be a Stripe secret key/],
      [{ STRIPE_SECRET_KEY: secretKey, STRIPE_WEBHOOK_SECRET: 'secret-without-prefix' }, /STRIPE_WEBHOOK_SECRET must be the signing secret/],
    ] as const) {
      assert.throws(() => loadConfig(env), (err: Error) => err instanceof ConfigError && pattern.test(err.message)
        && !err.message.includes('publishable123') && !err.message.includes('secret-without-prefix') && !err.message.includes(secretKey));
    }
  });

  it('stops start-up with a message naming the bad variable', async () => {
    await assert.rejects(startServerProcess({ PORT: 'eighty' }), /PORT must be a whole number/);
  });
});
