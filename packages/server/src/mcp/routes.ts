import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PrincipalResolver } from '../auth/resolve.ts';
import { AppError } from '../errors.ts';
import type { App } from '../http/app-type.ts';
import type { AuthFailureLimit } from '../http/rate-limit.ts';
import { readScopes } from '../oauth/scopes.ts';
import { missingScope, type ToolRoute } from './catalog.ts';
import type { mcpHandler } from './server.ts';

const path = '/api/mcp';

/**
 * `/api/mcp`: MCP over Streamable HTTP for apps holding an OAuth access token. Without a valid
 * token: 401 with the RFC 9728 challenge that starts discovery (asking for the read scopes and
 * offline_access; a tool needing more answers 403 insufficient_scope naming its scope, so the
 * client can step up). Failed authentications count against the caller's address as on REST.
 * Browsers on other sites may call it with a token, by the token endpoint's CORS rules (any
 * origin but `null`, for a token of a public client): the token, never a cookie, authenticates.
 */
export function mcpRoutes(app: App, options: {
  publicUrl: string;
  resolver: PrincipalResolver;
  tools: () => ToolRoute[];
  onAuthFailure?: AuthFailureLimit;
  /** How the app that holds a token authenticates at the token endpoint ('none': a public client). */
  clientAuthMethod?: (clientId: string) => Promise<string | undefined>;
}) {
  // The MCP SDK (and the zod under it) is loaded with the first MCP request, not at start: it was
  // a tenth of the embedded server's cold start, and most runs never see an MCP client.
  let handler: Promise<ReturnType<typeof mcpHandler>> | undefined;
  const handlerOnUse = () => (handler ??= import('./server.ts').then(({ mcpHandler }) => mcpHandler(app, options.tools)));
  const ourOrigin = new URL(options.publicUrl).origin;
  const resourceMetadata = `resource_metadata="${options.publicUrl}/.well-known/oauth-protected-resource${path}"`;
  const challenge = (error?: string) => [
    `Bearer ${resourceMetadata}`,
    `scope="${[...readScopes, 'offline_access'].join(' ')}"`,
    ...(error ? [`error="${error}"`] : []),
  ].join(', ');

  const cors = (req: FastifyRequest, reply: FastifyReply) => {
    const origin = req.headers.origin;
    if (origin === undefined || origin === ourOrigin) return;
    reply.header('access-control-allow-origin', origin).header('vary', 'Origin')
      .header('access-control-expose-headers', 'mcp-session-id, mcp-protocol-version, www-authenticate');
  };

  // The browser's preflight: no token yet, so any origin but `null` (a sandboxed frame or a file).
  app.options(path, { schema: { hide: true } }, async (req, reply) => {
    const origin = req.headers.origin;
    if (!origin || origin === 'null') throw new AppError('forbidden', 'Requests to the MCP endpoint from a page with no origin (Origin: null) are refused.');
    return reply.code(204).header('access-control-allow-origin', origin).header('vary', 'Origin')
      .header('access-control-allow-methods', 'GET, POST, DELETE')
      .header('access-control-allow-headers', 'authorization, content-type, accept, mcp-protocol-version, mcp-session-id, last-event-id')
      .header('access-control-max-age', '600')
      .send();
  });

  const authenticate = async (req: FastifyRequest, reply: FastifyReply) => {
    const origin = req.headers.origin;
    if (origin === 'null') {
      throw new AppError('forbidden', 'Requests to the MCP endpoint from a page with no origin (Origin: null) are refused.');
    }
    cors(req, reply);
    if (!options.resolver.claims(req)) {
      reply.header('www-authenticate', challenge());
      throw new AppError('authentication_required', 'Connect with OAuth: send `Authorization: Bearer <access token>`. The WWW-Authenticate header says where to start.');
    }
    try {
      req.principal = await options.resolver.resolve(req);
    } catch (err) {
      if (err instanceof AppError && err.code === 'authentication_required') {
        reply.header('www-authenticate', challenge('invalid_token'));
        // Failed authentication costs the caller's address (http/rate-limit.ts): past its budget, 429.
        await options.onAuthFailure?.(req, reply);
      }
      throw err;
    }
    // Another site's page may use only a public client's token, as at the token endpoint: a
    // confidential client's token belongs on its server, not in a browser.
    if (origin !== undefined && origin !== ourOrigin && options.clientAuthMethod) {
      const method = await options.clientAuthMethod(req.principal.appId ?? '');
      if (method !== undefined && method !== 'none') {
        throw new AppError('forbidden', 'This app\'s token is for its server: requests with it from a web page (an Origin header) are refused.');
      }
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
          // 403 insufficient_scope (RFC 6750 §3.1, MCP's step-up): the scope asked for is what the
          // token holds plus the tool's, so a client that re-authorizes with it loses nothing.
          const wanted = [...new Set([...principal.scopes, tool.scopes[0]!])].join(' ');
          return reply.code(403).header('content-type', 'application/json')
            .header('www-authenticate', `Bearer ${resourceMetadata}, scope="${wanted}", error="insufficient_scope", error_description="Tool ${tool.spec.name} needs the ${missing} scope"`)
            .send({
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
        authInfo: { token: bearerToken(req), clientId: principal.appId ?? '', scopes: principal.scopes, extra: { principal, profile: profileOf(req) } },
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

/**
 * `?profile=lean` on the MCP URL (or an `MCP-Profile: lean` header) asks for the lean tools/list
 * (docs/oauth-mcp.md). A query parameter because most clients take a URL and few take headers;
 * the OAuth resource stays `/api/mcp` (clients match it by origin and path).
 */
function profileOf(req: FastifyRequest): 'lean' | 'full' {
  const asked = (req.query as Record<string, unknown> | undefined)?.profile ?? req.headers['mcp-profile'];
  return asked === 'lean' ? 'lean' : 'full';
}

function bearerToken(req: FastifyRequest): string {
  return (req.headers.authorization ?? '').replace(/^bearer +/i, '');
}
