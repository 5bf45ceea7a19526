import { createHash, randomBytes } from 'node:crypto';
import { parseCookie, stringifySetCookie } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Queryable } from '../db/client.ts';
import { newId } from '../ids.ts';
import type { Role } from './repository.ts';
import * as sessions from './sessions-repository.ts';

/**
 * Dashboard sessions (docs/dashboard.md): a random token in the `cc_session` cookie, stored only
 * as its SHA-256 in `sessions`, with the user's current brand and mode and a CSRF token.
 *
 * A session ends after 14 days without a request (idle) and 30 days after sign-in (absolute),
 * whichever comes first; signing out, a password change or reset, and removal from the brand end
 * it at once, on every process (nothing about a session is cached).
 */
export const sessionCookie = 'cc_session';
export const sessionIdleMs = 14 * 86_400_000;
export const sessionAbsoluteMs = 30 * 86_400_000;

export interface SessionInfo {
  sessionId: string;
  userId: string;
  email: string;
  name: string;
  brandId: string;
  role: Role;
  mode: 'test' | 'live';
  csrfToken: string;
}

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** 256 random bits, URL-safe. */
export const newToken = () => randomBytes(32).toString('base64url');

/** The cc_session cookie's value, if the request carries one. */
export function sessionTokenOf(req: FastifyRequest): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  const value = parseCookie(header)[sessionCookie];
  return value ? value : undefined;
}

/** Read once per request: the auth resolver, the CSRF check and a route may all ask. */
const perRequest = new WeakMap<FastifyRequest, Promise<SessionInfo | null>>();

/** The signed-in session of this request, or null (no cookie, unknown, expired or signed out). */
export function readSession(db: Queryable, req: FastifyRequest): Promise<SessionInfo | null> {
  let found = perRequest.get(req);
  if (!found) {
    found = lookUp(db, sessionTokenOf(req));
    perRequest.set(req, found);
  }
  return found;
}

/** Forgets what readSession found for this request (after the route changed the session). */
export function forgetSession(req: FastifyRequest): void {
  perRequest.delete(req);
}

async function lookUp(db: Queryable, token: string | undefined): Promise<SessionInfo | null> {
  if (!token || token.length > 200) return null;
  const row = await sessions.findLiveSession(db, hashToken(token), sessionIdleMs);
  if (!row) return null;
  if (row.stale) await sessions.touchSession(db, row.id);
  return {
    sessionId: row.id,
    userId: row.user_id,
    email: row.email,
    name: row.name,
    brandId: row.brand_id,
    role: row.role,
    mode: row.mode,
    csrfToken: row.csrf_token,
  };
}

/** Starts a session (a new brand starts in test mode) and returns the cookie's token. */
export async function startSession(db: Queryable, input: { userId: string; brandId: string; mode?: 'test' | 'live' }): Promise<{ sessionId: string; token: string }> {
  const token = newToken();
  const sessionId = newId('ses');
  await sessions.insertSession(db, {
    id: sessionId,
    tokenHash: hashToken(token),
    userId: input.userId,
    brandId: input.brandId,
    mode: input.mode ?? 'test',
    csrfToken: newToken(),
    absoluteMs: sessionAbsoluteMs,
  });
  return { sessionId, token };
}

/** HttpOnly, SameSite=Lax, Path=/, Secure when the service is reached over https. */
export function setSessionCookie(reply: FastifyReply, token: string, publicUrl: string): void {
  reply.header('set-cookie', stringifySetCookie({
    name: sessionCookie,
    value: token,
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: publicUrl.startsWith('https:'),
    maxAge: sessionAbsoluteMs / 1000,
  }));
}

export function clearSessionCookie(reply: FastifyReply, publicUrl: string): void {
  reply.header('set-cookie', stringifySetCookie({
    name: sessionCookie,
    value: '',
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: publicUrl.startsWith('https:'),
    maxAge: 0,
  }));
}

/**
 * The dashboard's sign-in page, returning to `returnTo` afterwards. Only a path on this origin is
 * kept (`/dashboard/products?x=1`); anything that could leave it (`//evil.example`, `/\evil`,
 * `https://…`, control characters) becomes `/dashboard`, so the link cannot be an open redirect.
 */
export function signInUrl(returnTo: string): string {
  const safe = isSameOriginPath(returnTo) ? returnTo : '/dashboard';
  return `/dashboard/signin?returnTo=${encodeURIComponent(safe)}`;
}

export function isSameOriginPath(path: string): boolean {
  if (typeof path !== 'string' || !path.startsWith('/') || path.length > 2000) return false;
  if (path.startsWith('//') || path.startsWith('/\\')) return false;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(path)) return false;
  try {
    return new URL(path, 'http://same.invalid').origin === 'http://same.invalid';
  } catch {
    return false;
  }
}
