import { createMcpHandler, fromJsonSchema, McpServer, type AuthInfo } from '@modelcontextprotocol/server';
import type { RouteOptions } from 'fastify';
import type { Principal, Scope } from '../auth/principal.ts';
import type { App } from '../http/app-type.ts';
import { toolSpecs, type ToolSpec } from './tools.ts';

type JsonSchema = Record<string, unknown>;

/** What a tool needs from its REST route, captured when the route was registered. */
export interface ToolRoute {
  spec: ToolSpec;
  scopes: Scope[];
  input: JsonSchema;
  output?: JsonSchema;
}

/** Collects /api/v1 routes as they register (an onRoute hook), so tools take their schemas and scope. */
export function routeCatalog() {
  const routes = new Map<string, RouteOptions>();
  return {
    onRoute(route: RouteOptions) {
      for (const method of [route.method].flat()) routes.set(`${method} ${route.url}`, route);
    },
    tools(): ToolRoute[] {
      return toolSpecs.flatMap((spec) => {
        const route = routes.get(`${spec.method} /api/v1${spec.path}`);
        const scope = route?.config?.auth?.scope;
        if (!route || scope === undefined || scope === null) return [];
        const schema = (route.schema ?? {}) as Record<string, JsonSchema | undefined>;
        const response = (schema.response ?? {}) as Record<string, JsonSchema>;
        const ok = response[200] ?? response[201] ?? response[202];
        const data = (ok?.properties as Record<string, JsonSchema> | undefined)?.data;
        return [{ spec, scopes: [scope].flat(), input: inputSchema(schema, spec.method !== 'GET'), ...(data?.type === 'object' ? { output: clean(data) } : {}) }];
      });
    },
  };
}

/**
 * A write tool's extra argument, sent as the route's Idempotency-Key header (docs/idempotency.md):
 * an assistant that retries a call it is unsure about, with the same key, changes nothing twice.
 */
const idempotencyKeyArg = {
  type: 'string', minLength: 1, maxLength: 255,
  description: 'Optional. Any unique string; repeating the call with the same key within 24 hours returns the first answer instead of doing it again.',
};

/** One flat object of the route's path params, query and body fields: what an assistant fills in. */
function inputSchema(schema: Record<string, JsonSchema | undefined>, write: boolean): JsonSchema {
  const properties: Record<string, unknown> = write ? { idempotencyKey: idempotencyKeyArg } : {};
  const required: string[] = [];
  for (const part of [schema.params, schema.querystring, schema.body]) {
    if (!part || part.type !== 'object') continue;
    Object.assign(properties, part.properties ?? {});
    required.push(...((part.required as string[] | undefined) ?? []));
  }
  return clean({ type: 'object', properties, ...(required.length ? { required: [...new Set(required)] } : {}) });
}

/** A schema without TypeBox's ids (shared shapes would clash in one validator) and formats it may not know. */
function clean(schema: JsonSchema): JsonSchema {
  return JSON.parse(JSON.stringify(schema, (key, value) => (key === '$id' ? undefined : value))) as JsonSchema;
}

export const missingScope = (tool: ToolRoute, principal: Principal) =>
  tool.scopes.some((s) => principal.scopes.includes(s)) ? undefined : tool.scopes.join(' or ');

/**
 * The MCP endpoint's handler: stateless (a fresh server per request, so any process answers any
 * client), speaking the 2026-07-28 revision and, through the SDK's stateless legacy leg, the
 * 2025-era revisions. Each request's server lists only the tools the token's scopes allow; a
 * tool runs its REST route with the caller's own token (app.inject), so the route opens the
 * transaction, checks the scope and validates exactly as it does for REST.
 */
export function mcpHandler(app: App, tools: () => ToolRoute[]) {
  return createMcpHandler(({ authInfo }) => {
    const principal = authInfo?.extra?.principal as Principal | undefined;
    const server = new McpServer({ name: 'creator-commerce', version: '0.1.0' }, {
      instructions: 'Acts on one creator\'s store (products, members, customers, payments, webhooks) within the permissions the creator granted. Money amounts are decimal numbers in the currency given.',
    });
    for (const tool of tools()) {
      if (!principal || missingScope(tool, principal)) continue;
      const { spec } = tool;
      server.registerTool(spec.name, {
        description: spec.description,
        inputSchema: fromJsonSchema(tool.input),
        ...(tool.output ? { outputSchema: fromJsonSchema(tool.output) } : {}),
        annotations: { readOnlyHint: !!spec.readOnly, destructiveHint: !!spec.destructive, idempotentHint: !!spec.idempotent, openWorldHint: false },
      }, async (args: unknown) => runTool(app, tool, (args ?? {}) as Record<string, unknown>, authInfo!));
    }
    return server;
  }, { legacy: 'stateless' });
}

async function runTool(app: App, tool: ToolRoute, args: Record<string, unknown>, authInfo: AuthInfo) {
  const { spec } = tool;
  const { idempotencyKey, ...rest } = args;
  const path = spec.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = rest[name];
    delete rest[name];
    return encodeURIComponent(String(value ?? ''));
  });
  const isRead = spec.method === 'GET';
  const query = isRead ? new URLSearchParams(Object.entries(rest).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)])).toString() : '';
  const res = await app.inject({
    method: spec.method,
    url: `/api/v1${path}${query ? `?${query}` : ''}`,
    headers: {
      authorization: `Bearer ${authInfo.token}`,
      ...(isRead || spec.method === 'DELETE' ? {} : { 'content-type': 'application/json' }),
      ...(!isRead && typeof idempotencyKey === 'string' ? { 'idempotency-key': idempotencyKey } : {}),
    },
    ...(isRead || spec.method === 'DELETE' ? {} : { payload: JSON.stringify(rest) }),
  });
  const envelope = JSON.parse(res.body) as { status: string; message: string; data: unknown };
  if (res.statusCode >= 400) {
    const details = (envelope.data as { details?: { field?: string; message: string }[] } | null)?.details;
    const why = details?.length ? ` ${details.map((d) => (d.field ? `${d.field}: ${d.message}` : d.message)).join('; ')}` : '';
    return { isError: true, content: [{ type: 'text' as const, text: `${envelope.message}${why}` }] };
  }
  const data = envelope.data as Record<string, unknown>;
  return {
    content: [{ type: 'text' as const, text: JSON.stringify(data) }],
    ...(tool.output ? { structuredContent: data } : {}),
  };
}
