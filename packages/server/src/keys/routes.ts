import { Type } from 'typebox';
import { sessionPrincipalOf } from '../auth/resolve.ts';
import type { Deps } from '../deps.ts';
import { notFound } from '../errors.ts';
import { Envelope, ok } from '../http/envelope.ts';
import type { App } from '../http/app-type.ts';
import { ApiKey, CreatedApiKey, CreateKeyBody, RolledApiKey, RollKeyBody } from './schemas.ts';
import * as service from './service.ts';

/**
 * The dashboard's API keys (developer settings), under /dashboard/api: session only (an owner or
 * a developer), in the session's current mode, CSRF-checked app-wide (users/csrf.ts). Not part of
 * the public API, so hidden from the OpenAPI document like the other session routes.
 */
const hidden = { hide: true };
// Any role may manage keys; what counts is that the caller is a signed-in person (sessionPrincipalOf).
const signedIn = { auth: { scope: null } };
const Id = Type.Object({ id: Type.String() });
/** An id we could have issued; anything else (a NUL, a space, 3,000 characters) is just not found. */
const keyId = (id: string) => {
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(id)) throw notFound('API key');
  return id;
};

export function dashboardKeyRoutes(app: App, deps: Pick<Deps, 'db' | 'keyCache'>) {
  const { db, keyCache } = deps;

  app.get('/keys', {
    schema: { ...hidden, response: { 200: Envelope(Type.Object({ items: Type.Array(ApiKey) })) } },
    config: signedIn,
  }, async (req) => ok('API keys retrieved', { items: await service.listApiKeys(db, sessionPrincipalOf(req)) }));

  app.post('/keys', {
    schema: { ...hidden, body: CreateKeyBody, response: { 200: Envelope(CreatedApiKey) } },
    config: signedIn,
  }, async (req, reply) => {
    const principal = sessionPrincipalOf(req);
    reply.header('cache-control', 'no-store');
    return ok('API key created; copy it now, it is not shown again', await db.transaction((tx) => service.createApiKey(tx, principal, req.body)));
  });

  app.post('/keys/:id/roll', {
    schema: { ...hidden, params: Id, body: RollKeyBody, response: { 200: Envelope(RolledApiKey) } },
    config: signedIn,
  }, async (req, reply) => {
    const principal = sessionPrincipalOf(req);
    reply.header('cache-control', 'no-store');
    const rolled = await db.transaction((tx) => service.rollApiKey(tx, principal, { id: keyId(req.params.id), graceSeconds: req.body.graceSeconds }, { keyCache }));
    return ok('API key rolled; copy the new key now, it is not shown again', rolled);
  });

  app.post('/keys/:id/revoke', {
    schema: { ...hidden, params: Id, response: { 200: Envelope(ApiKey) } },
    config: signedIn,
  }, async (req) => {
    const principal = sessionPrincipalOf(req);
    return ok('API key revoked', await db.transaction((tx) => service.revokeApiKey(tx, principal, { id: keyId(req.params.id) }, { keyCache })));
  });
}
