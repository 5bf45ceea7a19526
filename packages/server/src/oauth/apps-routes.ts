import { Type } from 'typebox';
import type { Db } from '../db/client.ts';
import { AppError } from '../errors.ts';
import type { App } from '../http/app-type.ts';
import { Envelope, ok } from '../http/envelope.ts';
import { parseAccountId } from './account.ts';
import { recentCalls } from './app-calls.ts';
import { findGrantOfBrand, listGrants, revokeGrant } from './repository.ts';
import type { SessionReader } from './session.ts';
import { Mode } from '../http/shapes.ts';

const ConnectedApp = Type.Object({
  id: Type.String({ description: 'The grant id: what Disconnect takes.' }),
  appId: Type.String({ description: 'The OAuth client id (an https URL for apps that describe themselves with a metadata document).' }),
  name: Type.String(),
  redirectHost: Type.Union([Type.String(), Type.Null()]),
  scopes: Type.Array(Type.String()),
  mode: Mode,
  offline: Type.Boolean({ description: 'Whether the app holds a refresh token (stays connected past an hour).' }),
  connectedAt: Type.String({ format: 'date-time' }),
  lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  recentCalls: Type.Array(Type.Object({
    method: Type.String(),
    path: Type.String({ description: 'Without the query string.' }),
    status: Type.Integer(),
    at: Type.String({ format: 'date-time' }),
  }), { description: 'The last requests made with the app\'s tokens, newest first (oauth/app-calls.ts: at most 20, sampled at 3 a second).' }),
}, { $id: 'ConnectedApp' });

/**
 * Developer settings → Apps (session only): the apps connected to the signed-in brand, and
 * Disconnect, which removes the grant with every code, access and refresh token issued under
 * it, so the app's very next call is refused on every process.
 */
export function appsRoutes(app: App, { db, sessions }: { db: Db; sessions: SessionReader }) {
  const session = async (req: Parameters<SessionReader['read']>[0]) => {
    const s = await sessions.read(req);
    if (!s) throw new AppError('authentication_required', 'Sign in to the dashboard first.');
    return s;
  };

  app.get('/dashboard/api/apps', {
    schema: { hide: true, response: { 200: Envelope(Type.Object({ items: Type.Array(ConnectedApp) })) } },
  }, async (req) => {
    const s = await session(req);
    const rows = await listGrants(db, s.brandId);
    const calls = await recentCalls(db, s.brandId);
    const items = rows.map((row) => {
      const client = row.client ?? {};
      const redirect = URL.parse(String((client.redirect_uris as string[] | undefined)?.[0] ?? ''));
      const resources = (row.payload.resources ?? {}) as Record<string, string>;
      const scopes = [...new Set(Object.values(resources).flatMap((v) => v.split(' ')).filter(Boolean))];
      const clientId = String(row.payload.clientId);
      return {
        id: row.id,
        appId: clientId,
        name: String(client.client_name ?? (/^https:/.test(clientId) ? new URL(clientId).host : clientId)),
        redirectHost: redirect?.host ?? null,
        scopes,
        mode: parseAccountId(row.payload.accountId)?.mode ?? 'live',
        offline: String(row.payload.openid ? (row.payload.openid as { scope?: string }).scope ?? '' : '').split(' ').includes('offline_access'),
        connectedAt: new Date(row.created_at).toISOString(),
        lastUsedAt: row.last_used_at ? new Date(row.last_used_at).toISOString() : null,
        recentCalls: (calls.get(clientId) ?? []).map((c) => ({ method: c.method, path: c.path, status: Number(c.status), at: new Date(c.at).toISOString() })),
      };
    });
    return ok('Connected apps retrieved', { items });
  });

  app.delete('/dashboard/api/apps/:id', {
    schema: { hide: true, params: Type.Object({ id: Type.String() }), response: { 200: Envelope(Type.Object({ id: Type.String(), disconnected: Type.Boolean() })) } },
  }, async (req) => {
    const s = await session(req);
    if (req.headers['x-csrf-token'] !== s.csrfToken) throw new AppError('csrf_failed', 'Send the session\'s CSRF token in the x-csrf-token header.');
    const grant = await findGrantOfBrand(db, s.brandId, req.params.id);
    if (!grant) throw new AppError('not_found', 'No connected app with that id exists.');
    await revokeGrant(db, grant.id);
    return ok('App disconnected', { id: grant.id, disconnected: true });
  });
}
