import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { CatalogCache } from './catalog-cache/cache.ts';
import type { Db } from './db/client.ts';
import type { KeyCache } from './keys/cache.ts';
import type Stripe from 'stripe';
import type { PaymentProviders } from './payments/providers.ts';
import type { Lookup } from './security/url-guard.ts';

/**
 * Everything a process runs on, built once by its composition root (start.ts, the CLI, or
 * testing/app.ts's testDeps) and handed down ready-made. Nothing below reads the environment or
 * the disk for a setting.
 */
export interface Deps {
  db: Db;
  config: Config;
  log: Logger;
  keyCache: KeyCache;
  /** Catalog answers per brand (catalog-cache/cache.ts); buildApp starts it (LISTEN) and its close stops it. */
  catalogCache: CatalogCache;
  /** DNS for webhook URL checks and deliveries; tests swap in a table. */
  lookup: Lookup;
  /** Secrets resolved at start: configured, or (embedded mode) read from or created in the data folder. */
  secrets: Secrets;
  /** Shared rate-limit counters (REDIS_URL); absent means this process counts alone. */
  redis?: Redis;
  /** The payment provider of each mode (payments/providers.ts): the sandbox, and Stripe in live mode when configured. */
  payments: PaymentProviders;
  /** The Stripe client, when STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set (payments/stripe/client.ts). */
  stripe?: Stripe;
  /** When set, the CLI may run admin commands through this process (embedded mode). */
  adminToken?: string;
  /** The dashboard's build (packages/dashboard/dist unless set); tests point it at a folder of their own. */
  dashboardDir?: string;
}

export interface Secrets {
  /** AES-256-GCM key that seals webhook signing secrets at rest. */
  webhookKey: Buffer;
}
