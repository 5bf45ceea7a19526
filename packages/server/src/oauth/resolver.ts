import type { FastifyRequest } from 'fastify';
import { findRateLimits } from '../brands/repository.ts';
import type { Db } from '../db/client.ts';
import { AppError } from '../errors.ts';
import { parseAccountId } from './account.ts';
import { isOurResource } from './provider.ts';
import { findBearer, touchGrant } from './repository.ts';
import { isScope, type Principal, type Scope } from '../auth/principal.ts';
import type { PrincipalResolver } from '../auth/resolve.ts';

const bearer = /^Bearer +([A-Za-z0-9._~+/-]+=*)$/i;

/**
 * `Authorization: Bearer <token>`: an access token our authorization server issued to an app
 * (oauth/). Nothing is cached: the token, its grant and the brand's plan are read in one
 * statement on every request, so a disconnect, a scope taken away on a new consent or a move to
 * the Free plan holds from the very next request, on every process.
 */
export function oauthResolver(deps: { db: Db; config: { publicUrl: string } }): PrincipalResolver {
  return {
    name: 'oauth',
    claims: (req) => typeof req.headers.authorization === 'string' && /^bearer /i.test(req.headers.authorization),
    async resolve(req: FastifyRequest): Promise<Principal> {
      const match = bearer.exec(req.headers.authorization ?? '');
      const refused = (why: string) => new AppError('authentication_required', `The access token in the Authorization header ${why}`);
      if (!match) throw refused('is not valid: send `Authorization: Bearer <token>`.');
      // An API key in the wrong header is a common first mistake: say where it goes.
      if (/^svc_(test|live)_/.test(match[1])) {
        throw new AppError('authentication_required', 'This is an API key: send it in the `x-service-api` header, not as `Authorization: Bearer`. Bearer is for OAuth access tokens.');
      }
      const row = await findBearer(deps.db, match[1]);
      if (!row || row.token_expired) throw refused('is unknown, expired or revoked; ask the app to connect again.');
      const audience = row.token.aud;
      const audiences = [audience].flat().filter((a): a is string => typeof a === 'string');
      if (!audiences.length || !audiences.every((a) => isOurResource(deps.config.publicUrl, a))) throw refused('was issued for another service.');
      const account = parseAccountId(row.grant.accountId);
      if (!account || account.brandId !== row.brand_id) throw refused('belongs to no brand.');
      if (row.plan !== 'plus') throw refused('can no longer be used: connecting apps needs the Plus plan, and this brand is on Free.');
      // The token's scopes, less any the grant no longer holds.
      const held = new Set(Object.values((row.grant.resources ?? {}) as Record<string, string>).flatMap((s) => s.split(' ')));
      const tokenScopes = String(row.token.scope ?? '').split(' ');
      const scopes = tokenScopes.filter((s): s is Scope => isScope(s) && held.has(s));
      const appId = String(row.token.clientId);
      await touchGrant(deps.db, row.brand_id, row.grant_id);
      const limits = await findRateLimits(deps.db, row.brand_id);
      const rateLimit = (account.mode === 'live' ? limits?.rate_limit_live : limits?.rate_limit_test) ?? undefined;
      return { brandId: row.brand_id, mode: account.mode, scopes, via: 'oauth', appId, userId: account.userId, ...(rateLimit ? { rateLimit } : {}) };
    },
  };
}
