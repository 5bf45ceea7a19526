import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/client.ts';
import { AppError } from '../errors.ts';
import { readSession, sessionTokenOf } from './session.ts';

/**
 * CSRF protection for everything the dashboard session cookie authenticates (docs/dashboard.md),
 * app-wide, so a route added later is covered without doing anything:
 *
 *  - every POST, PUT, PATCH and DELETE that carries the cookie and no API credential
 *    (x-service-api, Authorization), and every one under /dashboard/api, must come from our own
 *    origin when it says where it comes from (`Origin`, which browsers send on such requests);
 *  - when the cookie names a live session and the request is one the session authenticates (an
 *    /api/v1 route resolved to the session, or anything under /dashboard/api), it must also carry
 *    `x-csrf-token` equal to the session's token, which only our own pages can read
 *    (GET /dashboard/api/session).
 *
 * Requests with an API key or an OAuth token are not subject to it: a browser never adds those
 * by itself. SameSite=Lax on the cookie is a second line, not the only one.
 */
declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * `origin`: a route that works signed out (sign-in, sign-up, password reset, accepting an
     * invite) checks only the Origin, so a stale or other cookie does not block it.
     */
    csrf?: 'origin';
  }
}

const writes = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function installCsrfCheck(app: FastifyInstance, deps: { db: Db; publicUrl: string }) {
  const ourOrigin = new URL(deps.publicUrl).origin;
  // With `done`: reads (most requests) and key or token calls leave at once, without a promise.
  app.addHook('onRequest', (req, _reply, done) => {
    if (!writes.has(req.method) || req.headers['x-service-api'] || req.headers.authorization) return done();
    check(req).then(() => done(), done);
  });

  async function check(req: FastifyRequest) {
    const hasCookie = sessionTokenOf(req) !== undefined;
    if (!hasCookie && !isDashboardApi(req)) return;
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== ourOrigin) {
      throw new AppError('csrf_failed', 'This request came from another site; the dashboard accepts changes only from its own pages.');
    }
    if (!hasCookie || req.routeOptions.config.csrf === 'origin') return;
    // The token is for the JSON routes the SPA calls. A server-rendered form elsewhere (a checkout
    // page the signed-in owner previews and pays on) cannot send a header; the Origin check above
    // is its defence, with SameSite=Lax.
    if (!isDashboardApi(req) && req.principal?.via !== 'session') return;
    const session = await readSession(deps.db, req);
    // Not signed in: nothing the cookie could be abused for; the route decides (401, or a public
    // route such as sign-in).
    if (!session) return;
    const sent = req.headers['x-csrf-token'];
    const given = Buffer.from(typeof sent === 'string' ? sent : '');
    const expected = Buffer.from(session.csrfToken);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new AppError('csrf_failed', 'The x-csrf-token header is missing or wrong; reload the dashboard and try again.');
    }
  }
}

const isDashboardApi = (req: FastifyRequest) => req.url.startsWith('/dashboard/api/') || req.url === '/dashboard/api';
