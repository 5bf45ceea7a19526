import type { FastifyRequest } from 'fastify';
import { findRateLimits } from '../brands/repository.ts';
import type { Db } from '../db/client.ts';
import { AppError } from '../errors.ts';
import type { KeyCache } from './cache.ts';
import type { LastUsedRecorder } from './last-used.ts';
import { hashKey, keyShape } from './format.ts';
import { findActiveKeyByHash } from './repository.ts';
import type { Principal } from '../auth/principal.ts';
import type { PrincipalResolver } from '../auth/resolve.ts';

/**
 * `x-service-api: svc_test_…|svc_live_…`: the brand's API keys, cached per process for KEY_CACHE_MS
 * (and never past a rolled key's expires_at). Each use is noted in memory for "last used"
 * (keys/last-used.ts), not written per request.
 */
export function apiKeyResolver(deps: { db: Db; keyCache: KeyCache; keyUses?: LastUsedRecorder }): PrincipalResolver {
  return {
    name: 'api_key',
    claims: (req) => req.headers['x-service-api'] !== undefined && req.headers['x-service-api'] !== '',
    async resolve(req: FastifyRequest): Promise<Principal> {
      const header = req.headers['x-service-api']!;
      const key = Array.isArray(header) ? header[0] : header;
      if (!keyShape.test(key)) {
        throw new AppError('authentication_required', 'The API key in x-service-api is not valid. Keys start with svc_live_ or svc_test_.');
      }
      const keyHash = hashKey(key);
      const cached = deps.keyCache.get(keyHash);
      if (cached) {
        deps.keyUses?.used(cached.brandId, cached.keyId!);
        return cached;
      }
      const row = await findActiveKeyByHash(deps.db, keyHash);
      if (!row) throw new AppError('authentication_required', 'The API key in x-service-api is unknown, revoked or past its grace period after a roll.');
      const limits = await findRateLimits(deps.db, row.brand_id);
      const rateLimit = (row.mode === 'live' ? limits?.rate_limit_live : limits?.rate_limit_test) ?? undefined;
      const principal: Principal = { brandId: row.brand_id, mode: row.mode, scopes: row.scopes, via: 'api_key', keyId: row.id, ...(rateLimit ? { rateLimit } : {}) };
      deps.keyCache.set(keyHash, principal, row.expires_at);
      deps.keyUses?.used(row.brand_id, row.id);
      return principal;
    },
  };
}
