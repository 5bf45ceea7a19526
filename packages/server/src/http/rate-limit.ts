import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { RateLimitSettings } from '../config.ts';
import { AppError } from '../errors.ts';

/**
 * Request budgets (README, Rate limits), counted by @fastify/rate-limit: in this process alone,
 * or in Redis when REDIS_URL is set, so one budget holds across every API process.
 *
 *  - Every authenticated request counts against its key's budget per second: RATE_LIMIT_LIVE or
 *    RATE_LIMIT_TEST, or the brand's own (`npm run cli -- brand rate-limit`). Payment links and
 *    imports cost more and have their own, smaller budgets (a share of the key's).
 *  - Every answer to an authenticated request carries RateLimit-Limit, RateLimit-Remaining and
 *    RateLimit-Reset (IETF draft names), errors included; past the budget the answer is
 *    `429 rate_limited` in the envelope with Retry-After.
 *  - Failed authentications are counted per client address: past RATE_LIMIT_AUTH_FAILURES a
 *    minute, further failures are answered 429 instead of 401.
 *  - If Redis goes away the API keeps serving without limits (fail open), logs that once a
 *    minute, and counts again as soon as Redis is back.
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A costlier route's own budget, a share of the key's (see `shares`). */
    budget?: 'checkout' | 'imports';
  }
}

/** Payment links: 20 a second per live key by default; imports: 4 a second (each may carry 10,000 records). */
const shares = { default: 1, checkout: 0.2, imports: 0.04 } as const;

export function budgetOf(req: FastifyRequest, settings: RateLimitSettings): number {
  const principal = req.principal;
  const base = principal?.rateLimit ?? (principal?.mode === 'live' ? settings.live : settings.test);
  return Math.max(1, Math.floor(base * shares[req.routeOptions.config.budget ?? 'default']));
}

/** What failed authentication costs the caller's address; called by auth/ when a credential is refused. */
export type AuthFailureLimit = (req: FastifyRequest, reply: FastifyReply) => Promise<void>;

export async function installRateLimits(
  app: FastifyInstance,
  deps: { settings: RateLimitSettings; redis?: Redis },
): Promise<AuthFailureLimit> {
  await app.register(rateLimit, {
    global: true,
    // After auth (onRequest) has found the principal, before the body is parsed or validated, so
    // refused requests cost nothing more and 400s carry the headers too.
    hook: 'preParsing',
    timeWindow: 1000,
    enableDraftSpec: true,
    skipOnError: true,
    ...(deps.redis ? { redis: deps.redis } : {}),
    nameSpace: 'svc-rate:',
    allowList: (req) => !req.principal,
    keyGenerator: (req) => {
      const p = req.principal;
      // Public routes (checkout pages, docs) have no principal and are let through by allowList.
      // An app (one OAuth client, e.g. an assistant every creator uses) has a budget per brand it acts for.
      const who = p?.via === 'oauth' ? `${p.brandId}/${p.appId}` : p?.keyId ?? p?.appId ?? p?.userId;
      return p ? `${p.via}:${who}:${req.routeOptions.config.budget ?? 'default'}` : `public:${req.ip}`;
    },
    max: (req) => budgetOf(req, deps.settings),
    errorResponseBuilder: (req, ctx) => new AppError('rate_limited', `Too many requests: this ${req.principal?.via === 'api_key' ? 'key' : 'caller'} may make ${ctx.max} `
      + `${req.routeOptions.config.budget ? `${req.routeOptions.config.budget === 'checkout' ? 'payment-link' : 'import'} ` : ''}requests a second. `
      + `Retry after ${ctx.after} (the Retry-After header says when).`),
  });
  const failures = app.createRateLimit({
    max: deps.settings.authFailuresPerMinute,
    timeWindow: 60_000,
    keyGenerator: (req) => `auth-failures:${req.ip}`,
    allowList: [], // the global list lets every unauthenticated request through; failures are exactly those
  });
  return async (req, reply) => {
    const counted = await failures(req);
    if (counted.isAllowed || !counted.isExceeded) return;
    reply.header('retry-after', String(counted.ttlInSeconds));
    throw new AppError('rate_limited', `Too many failed authentications from this address; try again in ${counted.ttlInSeconds} s with a valid key.`);
  };
}

/**
 * The Redis connection for shared counters. Commands fail at once while Redis is unreachable (no
 * offline queue, one try), which the limiter treats as "allow": the API never waits on Redis.
 * It reconnects by itself; the outage is logged once a minute, the recovery once.
 */
export async function connectRateLimitRedis(url: string, log: Logger): Promise<Redis> {
  // Imported here: only a server with REDIS_URL loads ioredis (embedded mode never does).
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    retryStrategy: (times) => Math.min(times * 250, 2000),
  });
  let lastLogged = 0;
  let down = false;
  redis.on('error', (err) => {
    down = true;
    if (Date.now() - lastLogged < 60_000) return;
    lastLogged = Date.now();
    log.warn({ err: err.message }, 'Redis is unreachable: rate limits are not enforced until it is back');
  });
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    lastLogged = 0;
    log.info('Redis is back: rate limits are enforced again');
  });
  return redis;
}
