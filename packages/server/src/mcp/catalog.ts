import type { RouteOptions } from 'fastify';
import type { Principal, Scope } from '../auth/principal.ts';
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
