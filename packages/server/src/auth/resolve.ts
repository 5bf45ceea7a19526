import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';
import type { Principal, Scope } from './principal.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The scope a route needs, or a list of which any one will do; null means any valid
     * credential (e.g. /ping). Routes without `auth` are public.
     */
    auth?: { scope: Scope | Scope[] | null };
  }
  interface FastifyRequest {
    principal?: Principal;
  }
}

/**
 * One way of proving who calls. `claims` says whether the request carries this kind of
 * credential (a header, a cookie); the first resolver that claims it resolves it, and a bad
 * credential is refused by that resolver rather than passed on to the next.
 */
export interface PrincipalResolver {
  readonly name: string;
  claims(req: FastifyRequest): boolean;
  resolve(req: FastifyRequest): Promise<Principal>;
}

/**
 * Resolves the request to a principal through `resolvers` (API key now; OAuth bearer tokens and
 * dashboard sessions are added to the list, not to the routes) and enforces the route's scope.
 */
export function installAuth(
  app: FastifyInstance,
  resolvers: PrincipalResolver[],
  options: {
    onFailure?: (req: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** The WWW-Authenticate value of a refusal on this request (RFC 6750), or undefined for none. */
    challenge?: (req: FastifyRequest, refusal: { error?: 'invalid_token' | 'insufficient_scope'; scope?: string }) => string | undefined;
  } = {},
) {
  const challenge = (req: FastifyRequest, reply: FastifyReply, refusal: { error?: 'invalid_token' | 'insufficient_scope'; scope?: string }) => {
    const value = options.challenge?.(req, refusal);
    if (value) reply.header('www-authenticate', value);
  };
  app.addHook('onRequest', async (req, reply) => {
    const auth = req.routeOptions.config.auth;
    if (!auth) return;
    let principal: Principal;
    try {
      const resolver = resolvers.find((r) => r.claims(req));
      if (!resolver) throw new AppError('authentication_required', 'Send your API key in the x-service-api header.');
      principal = await resolver.resolve(req);
    } catch (err) {
      // Failed authentication costs the caller's address (http/rate-limit.ts): past its budget, 429.
      if (err instanceof AppError && err.code === 'authentication_required') {
        // No credential at all: the challenge carries no error code (RFC 6750 §3.1).
        challenge(req, reply, resolvers.some((r) => r.claims(req)) ? { error: 'invalid_token' } : {});
        await options.onFailure?.(req, reply);
      }
      throw err;
    }
    const accepted = auth.scope === null ? [] : [auth.scope].flat();
    if (accepted.length && !accepted.some((scope) => principal.scopes.includes(scope))) {
      const holder = principal.via === 'api_key' ? 'This API key' : principal.via === 'oauth' ? 'This access token' : 'Your account';
      challenge(req, reply, { error: 'insufficient_scope', scope: accepted.join(' ') });
      throw new AppError('scope_missing', accepted.length === 1
        ? `${holder} lacks the ${accepted[0]} scope, which this endpoint needs.`
        : `${holder} lacks the ${accepted.join(' or ')} scope; this endpoint needs one of them.`);
    }
    req.principal = principal;
  });
}

/** The principal of an authenticated route; the hook guarantees it is there. */
export function principalOf(req: FastifyRequest): Principal {
  if (!req.principal) throw new AppError('authentication_required', 'Send your API key in the x-service-api header.');
  return req.principal;
}

/**
 * The principal of a dashboard-only route (developer settings under /dashboard/api): a signed-in
 * session, never an API key or OAuth token, so a leaked key cannot mint or roll keys.
 */
export function sessionPrincipalOf(req: FastifyRequest): Principal {
  const principal = principalOf(req);
  if (principal.via !== 'session') {
    throw new AppError('forbidden', 'This route is for the signed-in dashboard only; API keys and access tokens cannot use it.');
  }
  return principal;
}
