import { Type } from 'typebox';
import { sessionPrincipalOf } from '../auth/resolve.ts';
import type { Deps } from '../deps.ts';
import { notFound } from '../errors.ts';
import { Envelope, ok } from '../http/envelope.ts';
import type { App } from '../http/app-type.ts';
import { RevealedSigningSecret } from './schemas.ts';
import { revealSigningSecret } from './service.ts';

/**
 * GET /dashboard/api/webhooks/{id}/secret: the dashboard's "reveal" of an endpoint's signing
 * secret, for a signed-in owner or developer in the session's mode. Session only: the public API
 * shows a secret only when it is made (POST /webhooks, the secret roll).
 */
export function dashboardWebhookRoutes(app: App, deps: Pick<Deps, 'db' | 'secrets'>) {
  app.get('/webhooks/:id/secret', {
    schema: { hide: true, params: Type.Object({ id: Type.String() }), response: { 200: Envelope(RevealedSigningSecret) } },
    config: { auth: { scope: 'webhooks:write' } },
  }, async (req, reply) => {
    const principal = sessionPrincipalOf(req);
    if (!/^[A-Za-z0-9_-]{1,100}$/.test(req.params.id)) throw notFound('webhook endpoint');
    // A secret in a response: never kept by a cache on the way.
    reply.header('cache-control', 'no-store');
    return ok('Signing secret revealed', await revealSigningSecret(deps.db, principal, req.params.id, { key: deps.secrets.webhookKey }));
  });
}
