import { resolve } from 'node:path';
import ipaddr from 'ipaddr.js';

/** Every setting the service reads, parsed and validated once at start. */
/** Failed payment attempts (and refused checkout forms) allowed per window before 429 (checkout/attempts.ts). */
export interface CheckoutFailureLimits {
  perAddress: number;
  perEmail: number;
  perCard: number;
  windowMs: number;
}

export interface Config {
  port: number;
  host: string;
  /** Embedded mode's data folder; unused when databaseUrl is set. */
  dataDir: string;
  /** PostgreSQL connection string; absent means the embedded PGlite database. */
  databaseUrl?: string;
  /** The embedded database's shared_buffers in MB (PGLITE_SHARED_BUFFERS_MB; db/client.ts, embeddedSettings). */
  pgliteSharedBuffersMb: number;
  publicUrl: string;
  logLevel: string;
  /** `pretty`: one readable line per request (pino-pretty); `json`: pino's JSON lines; `auto`: pretty when stdout is a terminal (start.ts decides). */
  logFormat: 'auto' | 'pretty' | 'json';
  bodyLimitBytes: number;
  /** Which roles this process runs; embedded mode always runs both. */
  roles: { api: boolean; worker: boolean };
  /** How long a verified API key is trusted without asking the database again. */
  keyCacheMs: number;
  /** Memory for the catalog cache in MB (CATALOG_CACHE_MB, 0 turns it off; catalog-cache/cache.ts). */
  catalogCacheMb: number;
  /** The catalog cache's safety net: how often at most a brand's catalog version is compared (CATALOG_CACHE_CHECK_MS). */
  catalogCacheCheckMs: number;
  /** Webhook delivery (docs/webhooks.md). */
  webhooks: WebhookSettings;
  /** Records one import batch writes in one transaction (docs/imports.md). */
  importBatchSize: number;
  /** Subscription renewals (docs/subscriptions.md). */
  renewals: { retryScheduleMs: number[]; leaseMs: number };
  /** Payouts (docs/payouts.md). */
  payouts: PayoutSettings;
  /** Shared rate-limit counters across API processes; absent means each process counts alone. */
  redisUrl?: string;
  /** A handler that has not answered by then gets 503; also how long a request may take to arrive. */
  requestTimeoutMs: number;
  /** PostgreSQL's statement_timeout for the service's connections. */
  statementTimeoutMs: number;
  /** Request budgets (README, Rate limits). */
  rateLimits: RateLimitSettings;
  /** Card-testing defence of the public checkout pages (docs/checkout.md, Card testing). */
  checkoutFailures: CheckoutFailureLimits;
  /**
   * Which proxies' X-Forwarded-For Fastify believes (its `trustProxy`): false (the default: the
   * address is the TCP peer's), true (any), a hop count, or a list of addresses and CIDR ranges.
   * It decides the client address that sign-in throttling and the auth-failure limit count.
   */
  trustProxy: boolean | number | string[];
  /** Live payments through Stripe (README, Live payments with Stripe); absent means live links answer 503. */
  stripe?: StripeSettings;
  /** Prometheus metrics and OpenTelemetry tracing (docs/observability.md); both off by default. */
  observability: ObservabilitySettings;
  /** Outgoing mail (docs/email.md). */
  mail: MailSettings;
  /** Uploaded files of products' items and their downloads (docs/files.md). */
  files: FileSettings;
}

export interface FileSettings {
  /** FILE_MAX_BYTES: the largest upload accepted (default 2 GB). */
  maxBytes: number;
  /** UPLOAD_TIMEOUT: how long one upload may take to arrive (default 1 hour; other requests have REQUEST_TIMEOUT). */
  uploadTimeoutMs: number;
  /** DOWNLOAD_URL_TTL: how long a signed download link works (default 15 minutes). */
  downloadTtlMs: number;
  /** S3-compatible storage when S3_BUCKET is set; absent means a folder under DATA_DIR. */
  s3?: S3Settings;
}

export interface S3Settings {
  bucket: string;
  /** S3_REGION (default us-east-1; MinIO and R2 accept any, R2 wants `auto`). */
  region: string;
  /** S3_ENDPOINT: the service's address for MinIO, R2 and others; absent means AWS. */
  endpoint?: string;
  /** S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY; absent means the AWS SDK's own chain (instance roles). Never logged. */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** S3_FORCE_PATH_STYLE: bucket in the path instead of the host name (MinIO); default true with an endpoint. */
  forcePathStyle: boolean;
  /** S3_PREFIX: put before every key, so one bucket can hold several services' files. */
  prefix: string;
}

export interface ObservabilitySettings {
  /** METRICS_PORT: where `GET /metrics` is served, on a listener of its own; absent means no metrics. */
  metricsPort?: number;
  /** METRICS_HOST: the interface that listener binds (HOST unless set). */
  metricsHost: string;
  /** OTEL_EXPORTER_OTLP_ENDPOINT: an OTLP/HTTP collector's base URL; absent means no tracing (nothing of OpenTelemetry loads). */
  otlpEndpoint?: string;
  /** OTEL_SERVICE_NAME: the `service.name` of this process's spans. */
  serviceName: string;
}

export interface MailSettings {
  /** SMTP_URL: smtp://user:pass@host:587 or smtps://…:465; absent means mail is kept unsent in the outbox. Never logged. */
  smtpUrl?: string;
  /** MAIL_FROM: the address every message is sent from (the brand's name is the display name). */
  from: string;
  /** Delay before each retry after a failed try (MAIL_RETRY_SCHEDULE); then the message has failed. */
  retryScheduleMs: number[];
  /** How long one worker holds a message it is sending; also the SMTP connection's timeouts. */
  leaseMs: number;
}

export interface StripeSettings {
  /** STRIPE_SECRET_KEY: sk_live_… (or sk_test_… / rk_… for a staging server). Never logged. */
  secretKey: string;
  /** STRIPE_WEBHOOK_SECRET: the whsec_… of the endpoint registered for POST /providers/stripe/webhook. */
  webhookSecret: string;
}

export interface PayoutSettings {
  /** The percentage part of the platform fee, in basis points (5% = 500). */
  feeBasisPoints: number;
  /** The fixed part of the fee, in each currency's major units (0.30 = 30 cents, 0 yen). */
  feeFixed: number;
  /** Payout runs fall on every `everyMs` from 1970-01-01T00:00Z shifted by `offsetMs` (PAYOUT_SCHEDULE). */
  schedule: { everyMs: number; offsetMs: number };
  /** How long an affiliate's commission is held (refunds within it claw it back) before it is earned (AFFILIATE_HOLD, docs/affiliates.md). */
  affiliateHoldMs: number;
}

export interface RateLimitSettings {
  /** Requests per second per live key (a brand may have its own, set with the CLI). */
  live: number;
  /** Requests per second per test key. */
  test: number;
  /** Failed authentications per minute from one client address before further attempts get 429. */
  authFailuresPerMinute: number;
  /** OAuth dynamic client registrations an hour from one client address before further ones get 429. */
  registrationsPerHour: number;
}

export interface WebhookSettings {
  /** AES-256-GCM key for signing secrets at rest; absent in embedded mode means a key file in dataDir. */
  secretKey?: Buffer;
  /** Delay before each retry, in ms: retryScheduleMs[0] after the first try failed, and so on. */
  retryScheduleMs: number[];
  /** Each delay is moved by up to this fraction either way, so retries of many deliveries spread out. */
  retryJitter: number;
  /** The longest Retry-After (429/503) we wait for before retrying anyway. */
  retryAfterMaxMs: number;
  /** A receiver that has not answered 2xx within this is a failed attempt. */
  timeoutMs: number;
  /** How long a worker owns a claimed delivery; a killed worker's deliveries are retried after this. */
  claimLeaseMs: number;
  /** Deliveries one worker process sends at once. */
  concurrency: number;
  /** Deliveries one worker process has in flight at once to one endpoint, and for one brand. */
  maxInFlightPerEndpoint: number;
  maxInFlightPerBrand: number;
  /** An endpoint whose deliveries have failed for this long without a success is disabled. */
  disableAfterMs: number;
  /** Events older than this are dropped, a day at a time; GET /events promises at least 30 days. */
  eventRetentionMs: number;
  /**
   * Deliveries and their attempts older than this are dropped, a day at a time (the delivery log
   * may be kept shorter than the events: it is most of the bytes). At most eventRetentionMs.
   */
  deliveryLogRetentionMs: number;
  /**
   * Whether test-mode endpoints may be http://localhost, 127.0.0.1 or [::1]: by default only in
   * embedded mode (one user, their own machine); a server needs WEBHOOK_ALLOW_LOOPBACK=true, a
   * development setting, since its loopback is other services' too.
   */
  allowLoopback: boolean;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}; got "${raw}".`);
  }
  return Number(raw);
}

function url(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} is not a valid URL.`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must start with ${protocols.map((p) => `${p}//`).join(' or ')}.`);
  }
  return raw;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw !== 'true' && raw !== 'false') throw new ConfigError(`${name} must be true or false; got "${raw}".`);
  return raw === 'true';
}

const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** "500ms", "5s", "30m", "2h", "5d" or a bare number of milliseconds. */
export function parseDuration(raw: string): number | undefined {
  const m = /^(\d+)(ms|s|m|h|d)?$/.exec(raw.trim());
  return m ? Number(m[1]) * units[m[2] ?? 'ms'] : undefined;
}

function duration(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const ms = parseDuration(raw);
  if (ms === undefined || ms < min || ms > max) {
    throw new ConfigError(`${name} must be a duration such as 500ms, 5s, 30m, 2h or 5d, from ${min} ms to ${max} ms; got "${raw}".`);
  }
  return ms;
}

function webhookSettings(env: Env, embedded: boolean): WebhookSettings {
  let secretKey: Buffer | undefined;
  const rawKey = env.WEBHOOK_SECRET_KEY;
  if (rawKey) {
    secretKey = /^[0-9a-fA-F]{64}$/.test(rawKey) ? Buffer.from(rawKey, 'hex') : Buffer.from(rawKey, 'base64');
    if (secretKey.length !== 32 || (!/^[0-9a-fA-F]{64}$/.test(rawKey) && !/^[A-Za-z0-9+/_-]{43}=?$/.test(rawKey))) {
      throw new ConfigError('WEBHOOK_SECRET_KEY must be 32 random bytes as 64 hex digits or base64 (e.g. `openssl rand -base64 32`).');
    }
  }
  const day = 86_400_000;
  let retryScheduleMs = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];
  const rawSchedule = env.WEBHOOK_RETRY_SCHEDULE;
  if (rawSchedule !== undefined && rawSchedule.trim() !== '') {
    const parts = rawSchedule.split(',').map((p) => p.trim());
    const parsed = parts.map(parseDuration);
    const bad = parts.find((_, i) => parsed[i] === undefined || parsed[i]! > 7 * day);
    if (bad !== undefined || parts.length > 50) {
      throw new ConfigError(`WEBHOOK_RETRY_SCHEDULE must be a comma-separated list of up to 50 delays such as 5s,5m,30m,2h (each at most 7d); got "${rawSchedule}".`);
    }
    retryScheduleMs = parsed as number[];
  } else if (rawSchedule !== undefined) {
    retryScheduleMs = []; // explicitly empty: one try, no retries
  }
  const jitterPercent = integer(env, 'WEBHOOK_RETRY_JITTER_PERCENT', 10, 0, 100);
  const timeoutMs = duration(env, 'WEBHOOK_TIMEOUT', 15_000, 100, 120_000);
  // Just over the receiver timeout: a killed worker's deliveries go out again that soon after.
  const claimLeaseMs = duration(env, 'WEBHOOK_CLAIM_LEASE', timeoutMs + 5_000, 1_000, day);
  if (claimLeaseMs <= timeoutMs) {
    throw new ConfigError(`WEBHOOK_CLAIM_LEASE (${claimLeaseMs} ms) must be longer than WEBHOOK_TIMEOUT (${timeoutMs} ms), or a slow receiver's delivery would be sent twice.`);
  }
  const eventRetentionMs = duration(env, 'EVENT_RETENTION', 30 * day, 30 * day, 3650 * day);
  const deliveryLogRetentionMs = duration(env, 'DELIVERY_LOG_RETENTION', 30 * day, day, 3650 * day);
  if (deliveryLogRetentionMs > eventRetentionMs) {
    throw new ConfigError(`DELIVERY_LOG_RETENTION (${deliveryLogRetentionMs} ms) must not be longer than EVENT_RETENTION (${eventRetentionMs} ms): a delivery's event must outlive it.`);
  }
  // A delivery still retrying lives in its event's day: a log kept shorter than the retries last
  // would drop deliveries that are still due.
  const retriesMs = retryScheduleMs.reduce((sum, ms) => sum + ms, 0);
  if (deliveryLogRetentionMs <= retriesMs + day) {
    throw new ConfigError(`DELIVERY_LOG_RETENTION (${deliveryLogRetentionMs} ms) must be longer than WEBHOOK_RETRY_SCHEDULE's total (${retriesMs} ms) and a day, or deliveries still being retried would be dropped.`);
  }
  return {
    secretKey,
    retryScheduleMs,
    retryJitter: jitterPercent / 100,
    retryAfterMaxMs: duration(env, 'WEBHOOK_RETRY_AFTER_MAX', day, 0, 7 * day),
    timeoutMs,
    claimLeaseMs,
    concurrency: integer(env, 'WEBHOOK_CONCURRENCY', 64, 1, 1000),
    maxInFlightPerEndpoint: integer(env, 'WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT', 16, 1, 1000),
    maxInFlightPerBrand: integer(env, 'WEBHOOK_MAX_IN_FLIGHT_PER_BRAND', 32, 1, 10_000),
    disableAfterMs: duration(env, 'WEBHOOK_DISABLE_AFTER', 5 * day, 1, 365 * day),
    eventRetentionMs,
    deliveryLogRetentionMs,
    allowLoopback: boolean(env, 'WEBHOOK_ALLOW_LOOPBACK', embedded),
  };
}

function renewalSettings(env: Env): Config['renewals'] {
  const day = 86_400_000;
  const raw = env.RENEWAL_RETRY_SCHEDULE;
  let retryScheduleMs = [day, 3 * day, 5 * day];
  if (raw !== undefined && raw.trim() !== '') {
    const parts = raw.split(',').map((p) => p.trim());
    const parsed = parts.map(parseDuration);
    const ok = parts.length <= 20 && parsed.every((ms, i) => ms !== undefined && ms > 0 && ms <= 60 * day && (i === 0 || ms > parsed[i - 1]!));
    if (!ok) {
      throw new ConfigError(`RENEWAL_RETRY_SCHEDULE must be up to 20 increasing delays after the period end, such as 1d,3d,5d (each at most 60d); got "${raw}".`);
    }
    retryScheduleMs = parsed as number[];
  } else if (raw !== undefined) {
    retryScheduleMs = []; // explicitly empty: a failed renewal ends the subscription at once
  }
  return { retryScheduleMs, leaseMs: duration(env, 'RENEWAL_LEASE', 300_000, 10_000, day) };
}

function decimal(env: Env, name: string, fallback: number, max: number, decimals: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const pattern = new RegExp(`^\\d+(\\.\\d{1,${decimals}})?$`);
  if (!pattern.test(raw) || Number(raw) > max) {
    throw new ConfigError(`${name} must be a number from 0 to ${max} with at most ${decimals} decimals; got "${raw}".`);
  }
  return Number(raw);
}

function payoutSettings(env: Env): PayoutSettings {
  const day = 86_400_000;
  const raw = (env.PAYOUT_SCHEDULE ?? '').trim() || 'daily';
  const named: Record<string, { everyMs: number; offsetMs: number }> = {
    hourly: { everyMs: 3_600_000, offsetMs: 0 },
    daily: { everyMs: day, offsetMs: 0 },
    // 1970-01-01 was a Thursday: Mondays at 00:00 UTC are 4 days later, then every 7 days.
    weekly: { everyMs: 7 * day, offsetMs: 4 * day },
  };
  let schedule = named[raw];
  if (!schedule) {
    const ms = parseDuration(raw);
    if (ms === undefined || ms < 60_000 || ms > 31 * day) {
      throw new ConfigError(`PAYOUT_SCHEDULE must be hourly, daily, weekly, or a duration from 1m to 31d such as 6h; got "${raw}".`);
    }
    schedule = { everyMs: ms, offsetMs: 0 };
  }
  return {
    feeBasisPoints: Math.round(decimal(env, 'PAYOUT_FEE_PERCENT', 5, 100, 2) * 100),
    feeFixed: decimal(env, 'PAYOUT_FEE_FIXED', 0.3, 1000, 3),
    schedule,
    affiliateHoldMs: duration(env, 'AFFILIATE_HOLD', 30 * day, 0, 365 * day),
  };
}

/** Both Stripe settings or neither: one without the other would take payments it can never settle. */
function stripeSettings(env: Env): StripeSettings | undefined {
  const secretKey = env.STRIPE_SECRET_KEY?.trim() || undefined;
  const webhookSecret = env.STRIPE_WEBHOOK_SECRET?.trim() || undefined;
  if (!secretKey && !webhookSecret) return undefined;
  if (!secretKey || !webhookSecret) {
    throw new ConfigError(`${secretKey ? 'STRIPE_WEBHOOK_SECRET' : 'STRIPE_SECRET_KEY'} is missing: live payments need both STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET (or neither, and live links answer 503).`);
  }
  // The messages never repeat the value: it is a secret, and errors end up in logs.
  if (!/^(sk|rk)_(live|test)_[A-Za-z0-9]+$/.test(secretKey)) {
    throw new ConfigError('STRIPE_SECRET_KEY must be a Stripe secret key (sk_live_… or, for a staging server, sk_test_…; a restricted rk_… key works too).');
  }
  if (!/^whsec_[A-Za-z0-9+/=]+$/.test(webhookSecret)) {
    throw new ConfigError('STRIPE_WEBHOOK_SECRET must be the signing secret (whsec_…) Stripe shows for the endpoint you registered.');
  }
  return { secretKey, webhookSecret };
}

function observabilitySettings(env: Env, host: string): ObservabilitySettings {
  const rawPort = env.METRICS_PORT;
  return {
    metricsPort: rawPort === undefined || rawPort === '' ? undefined : integer(env, 'METRICS_PORT', 0, 0, 65535),
    metricsHost: env.METRICS_HOST || host,
    otlpEndpoint: url(env, 'OTEL_EXPORTER_OTLP_ENDPOINT', ['http:', 'https:'])?.replace(/\/+$/, ''),
    serviceName: env.OTEL_SERVICE_NAME || 'creator-commerce',
  };
}

/** SMTP_URL and MAIL_FROM together: a mail server needs an address to send from. */
function mailSettings(env: Env): MailSettings {
  const smtpUrl = env.SMTP_URL?.trim() || undefined;
  if (smtpUrl) {
    let parsed: URL | undefined;
    try { parsed = new URL(smtpUrl); } catch { /* reported below */ }
    // The message never repeats the value: it may hold a password.
    if (!parsed || !['smtp:', 'smtps:'].includes(parsed.protocol) || !parsed.hostname) {
      throw new ConfigError('SMTP_URL must be smtp://[user:password@]host[:port] (STARTTLS when the server offers it) or smtps://… (TLS from the start).');
    }
  }
  const from = env.MAIL_FROM?.trim() || undefined;
  if (smtpUrl && !from) throw new ConfigError('MAIL_FROM is missing: with SMTP_URL set, give the address mail is sent from, such as receipts@example.com.');
  if (from && !/^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/.test(from)) throw new ConfigError(`MAIL_FROM must be a bare email address such as receipts@example.com; got "${from}".`);
  const raw = env.MAIL_RETRY_SCHEDULE;
  let retryScheduleMs = [60_000, 300_000, 1_800_000, 7_200_000, 21_600_000];
  if (raw !== undefined && raw.trim() !== '') {
    const parts = raw.split(',').map((p) => p.trim());
    const parsed = parts.map(parseDuration);
    if (parts.length > 20 || parsed.some((ms) => ms === undefined || ms > 3 * 86_400_000)) {
      throw new ConfigError(`MAIL_RETRY_SCHEDULE must be up to 20 delays such as 1m,5m,30m,2h,6h (each at most 3d); got "${raw}".`);
    }
    retryScheduleMs = parsed as number[];
  } else if (raw !== undefined) {
    retryScheduleMs = [];
  }
  return { smtpUrl, from: from ?? 'no-reply@localhost', retryScheduleMs, leaseMs: duration(env, 'MAIL_LEASE', 60_000, 1_000, 3_600_000) };
}

/** S3_* together: a bucket names the store, and a key id needs its secret. */
function fileSettings(env: Env): FileSettings {
  const bucket = env.S3_BUCKET?.trim() || undefined;
  const endpoint = url(env, 'S3_ENDPOINT', ['http:', 'https:']);
  const accessKeyId = env.S3_ACCESS_KEY_ID?.trim() || undefined;
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY?.trim() || undefined;
  if (!bucket && (endpoint || accessKeyId || secretAccessKey)) throw new ConfigError('S3_BUCKET is missing: the other S3_* settings need the bucket files are kept in.');
  if (!accessKeyId !== !secretAccessKey) throw new ConfigError(`${accessKeyId ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID'} is missing: give both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither (the AWS SDK's own credentials).`);
  return {
    maxBytes: integer(env, 'FILE_MAX_BYTES', 2 * 1024 ** 3, 1, 5 * 1024 ** 4),
    uploadTimeoutMs: duration(env, 'UPLOAD_TIMEOUT', 3_600_000, 1000, 86_400_000),
    downloadTtlMs: duration(env, 'DOWNLOAD_URL_TTL', 15 * 60_000, 10_000, 7 * 86_400_000),
    ...(bucket ? {
      s3: {
        bucket, endpoint, accessKeyId, secretAccessKey,
        region: env.S3_REGION?.trim() || 'us-east-1',
        forcePathStyle: boolean(env, 'S3_FORCE_PATH_STYLE', endpoint !== undefined),
        prefix: env.S3_PREFIX?.trim() ?? '',
      },
    } : {}),
  };
}

function trustProxy(env: Env): Config['trustProxy'] {
  const raw = (env.TRUST_PROXY ?? '').trim();
  if (raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops < 1 || hops > 10) throw new ConfigError(`TRUST_PROXY as a hop count must be from 1 to 10; got "${raw}".`);
    return hops;
  }
  const list = raw.split(',').map((entry) => entry.trim());
  for (const entry of list) {
    const ok = entry.includes('/') ? (() => { try { ipaddr.parseCIDR(entry); return true; } catch { return false; } })() : ipaddr.isValid(entry);
    if (!ok) throw new ConfigError(`TRUST_PROXY must be true, false, a hop count, or a comma-separated list of proxy addresses and CIDR ranges such as 10.0.0.0/8; got "${entry}".`);
  }
  return list;
}

export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const databaseUrl = url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  const publicUrl = (url(env, 'PUBLIC_URL', ['http:', 'https:']) ?? `http://localhost:${port}`).replace(/\/+$/, '');
  const logLevel = env.LOG_LEVEL || 'info';
  const levels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
  if (!levels.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${levels.join(', ')}; got "${logLevel}".`);
  const logFormat = env.LOG_FORMAT || 'auto';
  if (logFormat !== 'auto' && logFormat !== 'pretty' && logFormat !== 'json') throw new ConfigError(`LOG_FORMAT must be auto, pretty or json; got "${logFormat}".`);

  const roleList = (env.ROLES || 'api,worker').split(',').map((r) => r.trim());
  for (const role of roleList) {
    if (role !== 'api' && role !== 'worker') throw new ConfigError(`ROLES must list api and/or worker; got "${role}".`);
  }
  // The embedded database belongs to one process, so that process must do everything.
  const roles = databaseUrl
    ? { api: roleList.includes('api'), worker: roleList.includes('worker') }
    : { api: true, worker: true };

  const host = env.HOST || '0.0.0.0';
  return {
    port,
    host,
    dataDir: resolve(env.DATA_DIR || '.data'),
    databaseUrl,
    pgliteSharedBuffersMb: integer(env, 'PGLITE_SHARED_BUFFERS_MB', 16, 1, 4096),
    publicUrl,
    logLevel,
    logFormat,
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 4 * 1024 * 1024, 1024, 100 * 1024 * 1024),
    roles,
    keyCacheMs: integer(env, 'KEY_CACHE_MS', 500, 0, 1000),
    catalogCacheMb: integer(env, 'CATALOG_CACHE_MB', 64, 0, 65_536),
    catalogCacheCheckMs: integer(env, 'CATALOG_CACHE_CHECK_MS', 1000, 10, 60_000),
    webhooks: webhookSettings(env, !databaseUrl),
    importBatchSize: integer(env, 'IMPORT_BATCH_SIZE', 1000, 1, 10_000),
    renewals: renewalSettings(env),
    payouts: payoutSettings(env),
    requestTimeoutMs: duration(env, 'REQUEST_TIMEOUT', 30_000, 1000, 600_000),
    statementTimeoutMs: duration(env, 'DATABASE_STATEMENT_TIMEOUT', 30_000, 100, 3_600_000),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    rateLimits: {
      live: integer(env, 'RATE_LIMIT_LIVE', 100, 1, 1_000_000),
      test: integer(env, 'RATE_LIMIT_TEST', 25, 1, 1_000_000),
      authFailuresPerMinute: integer(env, 'RATE_LIMIT_AUTH_FAILURES', 30, 1, 1_000_000),
      registrationsPerHour: integer(env, 'RATE_LIMIT_OAUTH_REGISTRATIONS', 30, 1, 1_000_000),
    },
    checkoutFailures: {
      perAddress: integer(env, 'CHECKOUT_FAILURES_PER_ADDRESS', 20, 1, 1_000_000),
      perEmail: integer(env, 'CHECKOUT_FAILURES_PER_EMAIL', 10, 1, 1_000_000),
      perCard: integer(env, 'CHECKOUT_FAILURES_PER_CARD', 10, 1, 1_000_000),
      windowMs: duration(env, 'CHECKOUT_FAILURE_WINDOW', 15 * 60_000, 1000, 7 * 86_400_000),
    },
    stripe: stripeSettings(env),
    trustProxy: trustProxy(env),
    observability: observabilitySettings(env, host),
    mail: mailSettings(env),
    files: fileSettings(env),
  };
}
