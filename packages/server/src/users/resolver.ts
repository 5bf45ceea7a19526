import type { FastifyRequest } from 'fastify';
import { findRateLimits } from '../brands/repository.ts';
import type { Db } from '../db/client.ts';
import { AppError } from '../errors.ts';
import type { Role } from './repository.ts';
import { readSession, sessionTokenOf } from './session.ts';
import { scopes, type Principal, type Scope } from '../auth/principal.ts';
import type { PrincipalResolver } from '../auth/resolve.ts';

/** What a dashboard role may do through the API: owners everything, developers developer settings only. */
export function scopesOfRole(role: Role): Scope[] {
  return role === 'owner' ? [...scopes] : ['webhooks:write'];
}

/**
 * The dashboard's session cookie, when the request carries no API credential: a signed-in user
 * acts on the session's brand, in the session's current mode (the test/live toggle), with the
 * scopes of their role. State-changing requests also pass the CSRF check (users/csrf.ts).
 */
export function sessionResolver(deps: { db: Db }): PrincipalResolver {
  return {
    name: 'session',
    claims: (req) => sessionTokenOf(req) !== undefined && !req.headers['x-service-api'] && !req.headers.authorization,
    async resolve(req: FastifyRequest): Promise<Principal> {
      const session = await readSession(deps.db, req);
      if (!session) throw new AppError('authentication_required', 'Your session has ended; sign in to the dashboard again.');
      const limits = await findRateLimits(deps.db, session.brandId);
      const rateLimit = (session.mode === 'live' ? limits?.rate_limit_live : limits?.rate_limit_test) ?? undefined;
      return {
        brandId: session.brandId,
        mode: session.mode,
        scopes: scopesOfRole(session.role),
        via: 'session',
        userId: session.userId,
        ...(rateLimit ? { rateLimit } : {}),
      };
    },
  };
}
