import type { FastifyRequest } from 'fastify';

/**
 * `WWW-Authenticate` on the REST API's 401 and 403 (RFC 6750 §3): the scheme an OAuth client
 * uses, where its discovery starts (RFC 9728 `resource_metadata`), and for a refusal of the
 * credential or its scope, `error` and the `scope` the route needs. An API key goes in
 * `x-service-api`; the header's `error_description`-free challenge is for OAuth clients, and the
 * envelope's message says the rest. Dashboard routes (a session) get none.
 */
export function restChallenge(publicUrl: string) {
  const metadata = `resource_metadata="${publicUrl}/.well-known/oauth-protected-resource/api/v1"`;
  return (req: FastifyRequest, refusal: { error?: 'invalid_token' | 'insufficient_scope'; scope?: string }) => {
    if (!req.url.startsWith('/api/v1/')) return undefined;
    return [
      `Bearer ${metadata}`,
      ...(refusal.error ? [`error="${refusal.error}"`] : []),
      ...(refusal.scope ? [`scope="${refusal.scope}"`] : []),
    ].join(', ');
  };
}
