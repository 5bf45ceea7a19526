import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PrincipalResolver } from '../auth/resolve.ts';
import { AppError } from '../errors.ts';
import type { App } from '../http/app-type.ts';
import { requestableScopes } from '../oauth/scopes.ts';
import { missingScope, type ToolRoute } from './catalog.ts';
import type { mcpHandler } from './server.ts';

const path = '/api/mcp';

/**
 * `/api/mcp`: MCP over Streamable HTTP for apps holding an OAuth access token. Without a valid
 * token: 401 with the RFC 9728 challenge that starts discovery. A browser page of another site
 * (an Origin that is not ours) is refused (DNS rebinding, cross-site requests).
 */
export function mcpRoutes(app: App, options: { publicUrl: string; resolver: PrincipalResolver; tools: () => ToolRoute[] }) {
  // The MCP SDK (and the zod under it) is loaded with the first MCP request, not at start: it was
  // a tenth of the embedded server's cold start, and most runs never see an MCP client.
  let handler: Promise<ReturnType<typeof mcpHandler>> | undefined;
  const handlerOnUse = () => (handler ??= import('./server.ts').then(({ mcpHandler }) => mcpHandler(app, options.tools)));
  const ourOrigin = new URL(options.publicUrl).origin;
  const challenge = (error?: string) => [
    `Bearer resource_metadata="${options.publicUrl}/.well-known/oauth-protected-resource${path}"`,
    `scope="${requestableScopes.join(' ')}"`,
    ...(error ? [`error="${error}"`] : []),
  ].join(', ');

  const authenticate = async (req: FastifyRequest, reply: FastifyReply) => {
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== ourOrigin) {
      throw new AppError('forbidden', 'Requests to the MCP endpoint from another website (its Origin header) are refused.');
    }
    if (!options.resolver.claims(req)) {
      reply.header('www-authenticate', challenge());
      throw new AppError('authentication_required', 'Connect with OAuth: send `Authorization: Bearer <access token>`. The WWW-Authenticate header says where to start.');
    }
    try {
      req.principal = await options.resolver.resolve(req);
    } catch (err) {
      if (err instanceof AppError && err.code === 'authentication_required') reply.header('www-authenticate', challenge('invalid_token'));
      throw err;
    }
  };

  app.route({
    method: ['GET', 'POST', 'DELETE'],
    url: path,
    schema: { hide: true },
    onRequest: authenticate,
    handler: async (req, reply) => {
      const principal = req.principal!;
      const body = req.body as { method?: string; params?: { name?: unknown }; id?: unknown } | undefined;
      // A tool the token's scopes hide is absent from tools/list; calling it by name says which scope it needs.
      if (body?.method === 'tools/call' && typeof body.params?.name === 'string') {
        const tool = options.tools().find((t) => t.spec.name === body.params!.name);
        const missing = tool && missingScope(tool, principal);
        if (missing) {
          return reply.code(200).header('content-type', 'application/json').send({
            jsonrpc: '2.0', id: body.id ?? null,
            error: { code: -32602, message: `Tool ${tool.spec.name} needs the ${missing} scope, which this connection was not granted. Reconnect the app and allow it.`, data: { requiredScope: missing } },
          });
        }
      }
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      }
      const request = new Request(`${options.publicUrl}${req.url}`, { method: req.method, headers });
      const response = await (await handlerOnUse()).fetch(request, {
        authInfo: { token: bearerToken(req), clientId: principal.appId ?? '', scopes: principal.scopes, extra: { principal } },
        ...(req.method === 'POST' ? { parsedBody: req.body } : {}),
      });
      reply.code(response.status);
      response.headers.forEach((value, name) => {
        if (name !== 'content-length' && name !== 'transfer-encoding') reply.header(name, value);
      });
      if (!response.body) return reply.send();
      if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
        return reply.send(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream));
      }
      return reply.send(Buffer.from(await response.arrayBuffer()));
    },
  });
}

function bearerToken(req: FastifyRequest): string {
  return (req.headers.authorization ?? '').replace(/^bearer +/i, '');
}
