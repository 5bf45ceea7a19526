import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/client.ts';
import type { KeyCache } from '../keys/cache.ts';
import { findActiveKeyByHash } from '../keys/repository.ts';
import { hashKey } from '../keys/service.ts';
import type { Principal, Scope } from './principal.ts';
import { AppError } from '../errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The scope a route needs, or a list of which any one will do; null means any valid key
     * (e.g. /ping). Routes without `auth` are public.
     */
    auth?: { scope: Scope | Scope[] | null };
  }
  interface FastifyRequest {
    principal?: Principal;
  }
}

const keyShape = /^svc_(test|live)_[A-Za-z0-9_-]{32}$/;

/** Resolves the x-service-api header to a principal and enforces the route's scope. */
export function installAuth(app: FastifyInstance, deps: { db: Db; keyCache: KeyCache }) {
  app.addHook('onRequest', async (req) => {
    const auth = req.routeOptions.config.auth;
    if (!auth) return;
    const principal = await authenticate(req, deps);
    const accepted = auth.scope === null ? [] : [auth.scope].flat();
    if (accepted.length && !accepted.some((scope) => principal.scopes.includes(scope))) {
      throw new AppError('scope_missing', accepted.length === 1
        ? `This API key lacks the ${accepted[0]} scope, which this endpoint needs.`
        : `This API key lacks the ${accepted.join(' or ')} scope; this endpoint needs one of them.`);
    }
    req.principal = principal;
  });
}

async function authenticate(req: FastifyRequest, deps: { db: Db; keyCache: KeyCache }): Promise<Principal> {
  const header = req.headers['x-service-api'];
  if (header === undefined || header === '') {
    throw new AppError('authentication_required', 'Send your API key in the x-service-api header.');
  }
  const key = Array.isArray(header) ? header[0] : header;
  if (!keyShape.test(key)) {
    throw new AppError('authentication_required', 'The API key in x-service-api is not valid. Keys start with svc_live_ or svc_test_.');
  }
  const keyHash = hashKey(key);
  const cached = deps.keyCache.get(keyHash);
  if (cached) return cached;
  const row = await findActiveKeyByHash(deps.db, keyHash);
  if (!row) {
    throw new AppError('authentication_required', 'The API key in x-service-api is unknown or has been revoked.');
  }
  const principal: Principal = { brandId: row.brand_id, mode: row.mode, scopes: row.scopes, via: 'api_key', keyId: row.id };
  deps.keyCache.set(keyHash, principal);
  return principal;
}

/** The principal of an authenticated route; the hook guarantees it is there. */
export function principalOf(req: FastifyRequest): Principal {
  if (!req.principal) throw new AppError('authentication_required', 'Send your API key in the x-service-api header.');
  return req.principal;
}
