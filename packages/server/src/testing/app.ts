import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../app.ts';
import { loadConfig, type Config, type FileSettings, type MailSettings, type StripeSettings, type WebhookSettings } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { Deps } from '../deps.ts';
import { createLogger } from '../logger.ts';
import type { App } from '../http/app-type.ts';
import { KeyCache } from '../keys/cache.ts';
import { catalogCacheFromConfig } from '../catalog-cache/cache.ts';
import { paymentsFromConfig, type StripeEndpoint } from '../payments/stripe/client.ts';
import { systemLookup, type Lookup } from '../security/url-guard.ts';
import { startWorker, type Worker } from '../worker/loop.ts';
import { workSources } from '../work-sources.ts';
import { openTestDb, type TestDb } from './db.ts';

export interface TestApp extends TestDb {
  app: App;
  /** What the app and its worker run on. */
  deps: Deps;
  keyCache: KeyCache;
  /** The full config the app (and worker) run with: defaults plus the test overrides below. */
  config: Config;
  /** The running worker when started with `worker: true` (or after startWorker()). */
  worker?: Worker;
  /** Starts the worker (every work source, webhook deliveries included) on this app's database. */
  startWorker(): Promise<Worker>;
  /** app.inject with the key header set when `key` is given; the JSON body parsed. */
  request(options: InjectOptions & { key?: string }): Promise<LightMyRequestResponse & { body: string; json: <T = any>() => T }>;
}

/**
 * Webhook settings for tests: a fresh sealing key, retries after 50, 100 and 200 ms, no jitter
 * and a 1 s receiver timeout, so a whole retry schedule runs in well under a second.
 */
export const testWebhookSettings = (): WebhookSettings => ({
  secretKey: randomBytes(32),
  retryScheduleMs: [50, 100, 200],
  retryJitter: 0,
  retryAfterMaxMs: 86_400_000,
  timeoutMs: 1000,
  claimLeaseMs: 3000,
  concurrency: 64,
  maxInFlightPerEndpoint: 8,
  maxInFlightPerBrand: 32,
  disableAfterMs: 5 * 86_400_000,
  eventRetentionMs: 30 * 86_400_000,
  deliveryLogRetentionMs: 30 * 86_400_000,
  // Tests receive deliveries on 127.0.0.1, as a developer does, on both databases.
  allowLoopback: true,
});

export interface TestAppOptions {
  keyCacheMs?: number;
  publicUrl?: string;
  /** Start the worker too (polling every 25 ms), so queued work such as webhook deliveries happens. */
  worker?: boolean;
  /** Overrides of testWebhookSettings(). */
  webhooks?: Partial<WebhookSettings>;
  /** DNS for webhook URL checks (registration and delivery), so tests never ask a real resolver. */
  lookup?: Lookup;
  /** Live payments through Stripe, talking to this endpoint (testing/stripe-fake.ts). */
  stripe?: { settings: StripeSettings; endpoint: StripeEndpoint };
  /** Overrides of the mail settings (an SMTP_URL of a test SMTP server; a short retry schedule). */
  mail?: Partial<MailSettings>;
  /** Overrides of the file settings (S3 against a test server, a small size limit); files go to a temporary DATA_DIR. */
  files?: Partial<FileSettings>;
}

/**
 * The deps a test app (or worker) runs on: the defaults of an empty environment, test webhook
 * settings, a fresh sealing key, silent logs (TEST_LOG_LEVEL to see them), and whatever the
 * test overrides (`config` is merged one level deep).
 */
export function testDeps(
  db: Db,
  overrides: Partial<Omit<Deps, 'config'>> & { config?: Partial<Config>; stripeEndpoint?: StripeEndpoint } = {},
): Deps {
  const { config: configOverrides, stripeEndpoint, ...rest } = overrides;
  const config: Config = {
    ...loadConfig({}),
    logLevel: process.env.TEST_LOG_LEVEL ?? 'silent',
    keyCacheMs: 500,
    publicUrl: 'http://localhost:3000',
    // Budgets no ordinary test reaches; rate-limit tests set their own.
    rateLimits: { live: 1_000_000, test: 1_000_000, authFailuresPerMinute: 1_000_000, registrationsPerHour: 1_000_000 },
    ...configOverrides,
    webhooks: { ...testWebhookSettings(), ...configOverrides?.webhooks },
  };
  const log = rest.log ?? createLogger(config.logLevel);
  return {
    db,
    config,
    log,
    keyCache: new KeyCache(config.keyCacheMs),
    catalogCache: catalogCacheFromConfig(db, config, log),
    lookup: systemLookup,
    secrets: { webhookKey: config.webhooks.secretKey ?? randomBytes(32) },
    ...paymentsFromConfig(config, stripeEndpoint),
    ...rest,
  };
}

/** The real app on a fresh database; call close() in after(). */
export async function startTestApp(overrides: TestAppOptions = {}): Promise<TestApp> {
  const testDb = await openTestDb();
  // Uploaded files go to a folder of this app's own, removed by close().
  const dataDir = mkdtempSync(join(tmpdir(), 'cc-test-data-'));
  const deps = testDeps(testDb.db, {
    keyCache: new KeyCache(overrides.keyCacheMs ?? 500),
    ...(overrides.lookup ? { lookup: overrides.lookup } : {}),
    config: {
      ...(overrides.publicUrl ? { publicUrl: overrides.publicUrl } : {}),
      ...(overrides.stripe ? { stripe: overrides.stripe.settings } : {}),
      ...(overrides.mail ? { mail: { ...loadConfig({}).mail, ...overrides.mail } } : {}),
      dataDir,
      files: { ...loadConfig({}).files, ...overrides.files },
      webhooks: { ...testWebhookSettings(), ...overrides.webhooks },
    },
    ...(overrides.stripe ? { stripeEndpoint: overrides.stripe.endpoint } : {}),
  });
  const app = await buildApp(deps);
  await app.ready();
  const t: TestApp = {
    ...testDb,
    app,
    deps,
    keyCache: deps.keyCache,
    config: deps.config,
    async startWorker() {
      t.worker ??= await startWorker(testDb.db, workSources(deps), deps.log, 25);
      return t.worker;
    },
    request: ({ key, headers, ...options }) =>
      app.inject({ ...options, headers: { ...headers, ...(key ? { 'x-service-api': key } : {}) } }) as never,
    async close() {
      await t.worker?.stop();
      await app.close();
      await testDb.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  if (overrides.worker) await t.startWorker();
  return t;
}
