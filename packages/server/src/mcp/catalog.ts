import type { RouteOptions } from 'fastify';
import type { Principal, Scope } from '../auth/principal.ts';
import { eventTypes } from '../events/types.ts';
import { idDescriptions, type ToolSpec } from './tools.ts';

type JsonSchema = Record<string, unknown>;

/** What a tool needs from its REST route, captured when the route was registered. */
export interface ToolRoute {
  spec: ToolSpec;
  scopes: Scope[];
  input: JsonSchema;
  output?: JsonSchema;
}

const isToolMethod = (method: string): method is ToolSpec['method'] => ['GET', 'POST', 'PATCH', 'DELETE'].includes(method);

/** Collects /api/v1 routes as they register (an onRoute hook), so tools take their schemas and scope. */
export function routeCatalog() {
  const routes = new Map<string, RouteOptions>();
  return {
    onRoute(route: RouteOptions) {
      for (const method of [route.method].flat()) routes.set(`${method} ${route.url}`, route);
    },
    /** The routes that declare an MCP tool (`config.operation.mcp`), in the order they registered. */
    tools(): ToolRoute[] {
      const declared = [...routes.entries()].flatMap(([key, route]): ToolSpec[] => {
        const tool = route.config?.operation?.mcp;
        const [method, url] = key.split(' ') as [string, string];
        // Fastify adds a HEAD twin of every GET route, with the same config.
        if (!tool || !isToolMethod(method) || !url.startsWith('/api/v1/')) return [];
        const eventTypeInputs = Object.entries(route.config?.operation?.inputShapes ?? {})
          .filter(([, shape]) => shape === 'EventType').map(([input]) => input.replace(/\[\]$/, ''));
        return [{ ...tool, method, path: url.slice('/api/v1'.length), eventTypeInputs }];
      });
      return declared.flatMap((spec) => {
        const route = routes.get(`${spec.method} /api/v1${spec.path}`);
        const scope = route?.config?.auth?.scope;
        if (!route || scope === undefined || scope === null) return [];
        const schema = (route.schema ?? {}) as Record<string, JsonSchema | undefined>;
        const response = (schema.response ?? {}) as Record<string, JsonSchema>;
        const ok = response[200] ?? response[201] ?? response[202];
        const data = (ok?.properties as Record<string, JsonSchema> | undefined)?.data;
        return [{ spec, scopes: [scope].flat(), input: inputSchema(spec, schema), ...(data?.type === 'object' ? { output: clean(data) } : {}) }];
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

/** `hubID`, `itemIDs`, `txref`, `tier`, `plan`, `id`: arguments that take an id. */
export const isIdArgument = (name: string) => /^(id|txref|tier|plan)$|(ID|Id)s?$/.test(name);

/**
 * One flat object of the route's path params, query and body fields: what an assistant fills in.
 * Marketing fields the spec hides are left out; every id argument says what it is and where to
 * find one (tools.ts, idDescriptions); event-type arguments list the event types.
 */
function inputSchema(spec: ToolSpec, schema: Record<string, JsonSchema | undefined>): JsonSchema {
  const properties: Record<string, JsonSchema> = spec.method !== 'GET' ? { idempotencyKey: idempotencyKeyArg } : {};
  const required: string[] = [];
  for (const part of [schema.params, schema.querystring, schema.body]) {
    if (!part || part.type !== 'object') continue;
    Object.assign(properties, clean((part.properties ?? {}) as JsonSchema));
    required.push(...((part.required as string[] | undefined) ?? []));
  }
  for (const name of spec.hiddenInputs ?? []) delete properties[name];
  const collection = spec.path.split('/').filter(Boolean);
  for (const [name, property] of Object.entries(properties)) {
    if (isIdArgument(name)) {
      // A path id is named by the collection before it (`/hubs/:hubID/members/:id`: id is a member's).
      const at = collection.indexOf(`:${name}`);
      const known = (at > 0 ? idDescriptions[collection[at - 1]!] : undefined) ?? idDescriptions[name];
      if (known) {
        const own = typeof property.description === 'string' ? property.description : '';
        properties[name] = { ...property, description: own && !own.includes(known) ? `${known} ${own}` : known };
      }
    }
    if (name === 'eventType' || name === 'events' || spec.eventTypeInputs?.includes(name)) {
      properties[name] = property.type === 'array'
        ? { ...property, items: { type: 'string', enum: [...eventTypes] } }
        : { ...property, type: 'string', enum: [...eventTypes] };
    }
  }
  const kept = [...new Set(required)].filter((name) => name in properties);
  return { type: 'object', properties, ...(kept.length ? { required: kept } : {}) };
}

/** A schema without TypeBox's ids (shared shapes would clash in one validator) and formats it may not know. */
function clean(schema: JsonSchema): JsonSchema {
  return JSON.parse(JSON.stringify(schema, (key, value) => (key === '$id' ? undefined : value))) as JsonSchema;
}

/**
 * The lean profile (docs/oauth-mcp.md). Output schemas keep the result's top-level fields and
 * their types, which is what an assistant reads a result by; the full shape still arrives as
 * structuredContent, which this schema describes truthfully, only less. Input schemas keep every
 * constraint and each argument's description, but not the descriptions inside nested arguments.
 */
export function leanOutputSchema(schema: JsonSchema): JsonSchema {
  if (schema.type !== 'object' || !schema.properties) return schema.type ? { type: schema.type } : {};
  const properties = Object.fromEntries(Object.entries(schema.properties as Record<string, JsonSchema>)
    .map(([k, v]) => [k, v.type ? { type: v.type } : {}]));
  return { type: 'object', properties, ...(Array.isArray(schema.required) ? { required: schema.required } : {}) };
}

export function leanInputSchema(schema: JsonSchema): JsonSchema {
  const strip = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(strip);
    if (!node || typeof node !== 'object') return node;
    return Object.fromEntries(Object.entries(node).filter(([k]) => k !== 'description').map(([k, v]) => [k, k === 'enum' || k === 'const' ? v : strip(v)]));
  };
  const properties = Object.fromEntries(Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>).map(([k, v]) => {
    const { description, ...rest } = v;
    return [k, { ...(strip(rest) as JsonSchema), ...(description ? { description } : {}) }];
  }));
  return { ...schema, properties };
}

export const missingScope = (tool: ToolRoute, principal: Principal) =>
  tool.scopes.some((s) => principal.scopes.includes(s)) ? undefined : tool.scopes.join(' or ');
