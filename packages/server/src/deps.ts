import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import type { KeyCache } from './keys/cache.ts';
import type { Lookup } from './webhooks/url-guard.ts';

/**
 * Everything a process runs on, built once by its composition root (main.ts, the CLI, or
 * testing/app.ts's testDeps) and handed down ready-made. Nothing below reads the environment or
 * the disk for a setting.
 */
export interface Deps {
  db: Db;
  config: Config;
  log: Logger;
  keyCache: KeyCache;
  /** DNS for webhook URL checks and deliveries; tests swap in a table. */
  lookup: Lookup;
  /** Secrets resolved at start: configured, or (embedded mode) read from or created in the data folder. */
  secrets: Secrets;
  /** Shared rate-limit counters (REDIS_URL); absent means this process counts alone. */
  redis?: Redis;
  /** When set, the CLI may run admin commands through this process (embedded mode). */
  adminToken?: string;
}

export interface Secrets {
  /** AES-256-GCM key that seals webhook signing secrets at rest. */
  webhookKey: Buffer;
}
