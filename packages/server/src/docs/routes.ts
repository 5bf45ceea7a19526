import type { RouteOptions } from 'fastify';
import { Type } from 'typebox';
import type { App } from '../http/app-type.ts';
import { ErrorEnvelope } from '../http/envelope.ts';
import { renderReferencePage } from './page.ts';

const errorResponses = {
  400: { ...ErrorEnvelope, description: 'validation_failed: a parameter or body field is invalid; `message` names it.' },
  401: { ...ErrorEnvelope, description: 'authentication_required: the key is missing, unknown or revoked.' },
  403: { ...ErrorEnvelope, description: 'scope_missing: the key lacks the scope this endpoint needs.' },
  404: { ...ErrorEnvelope, description: 'not_found: no such resource in this brand and mode.' },
};

/**
 * onRoute hook: documents each authenticated route's key requirement and scope, and its error
 * responses, in the OpenAPI document generated from the route schemas.
 */
export function describeAuth(route: RouteOptions) {
  const auth = route.config?.auth;
  if (!auth || !route.schema) return;
  const scopeNote = auth.scope ? `Scope: \`${auth.scope}\`.` : 'Any valid key; no scope needed.';
  route.schema = {
    ...route.schema,
    description: [route.schema.description, scopeNote].filter(Boolean).join('\n\n'),
    security: [{ ApiKey: [] }],
    response: { ...errorResponses, ...(route.schema.response as object) },
  };
}

export function docsRoutes(app: App) {
  app.get('/api/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  let page: string | undefined;
  app.get('/docs', { schema: { hide: true } }, async (_req, reply) => {
    page ??= renderReferencePage(app.swagger() as unknown as Parameters<typeof renderReferencePage>[0]);
    return reply.type('text/html; charset=utf-8').send(page);
  });
  app.get('/', { schema: { hide: true, response: { 200: Type.Object({ name: Type.String(), docs: Type.String(), openapi: Type.String() }) } } }, async () => ({
    name: 'Creator commerce API',
    docs: '/docs',
    openapi: '/api/v1/openapi.json',
  }));
}
