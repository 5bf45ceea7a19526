import { Readable } from 'node:stream';
import { AjvCompiler, type ValidatorFactory } from '@fastify/ajv-compiler';
import type { FastifyInstance } from 'fastify';
import { invalidAll } from '../errors.ts';

/**
 * Type coercion only where values arrive as text. The query string and path parameters are
 * strings on the wire, so `?limit=5` must become 5; a JSON body has types of its own, and a body
 * that sends `"events": "member.joined"` or `"description": 5` is a mistake we answer 400 (naming
 * the field), not something to store as ["member.joined"] and "5". Fastify compiles each part's
 * schema through this: one Ajv (Fastify's own compiler and defaults) per choice of coercion.
 */
const textParts = AjvCompiler();
const jsonParts = AjvCompiler();

// What Fastify passes at run time (the package's own typings describe another call shape).
type RouteSchema = { schema: unknown; method: string; url: string; httpPart?: string };
type PoolCompiler = (externalSchemas: unknown, options: unknown) => (route: RouteSchema) => unknown;
type AjvServerOptions = { customOptions?: Record<string, unknown>; plugins?: unknown[] } | undefined;

function byPart(externalSchemas: unknown, ajvOptions: AjvServerOptions) {
  // verbose: errors carry their schema, so the error handler can name a union's allowed values
  // and what a missing body needs (http/error-handler.ts).
  const coercing = (textParts as unknown as PoolCompiler)(externalSchemas, { ...ajvOptions, customOptions: { ...ajvOptions?.customOptions, verbose: true } });
  const exact = (jsonParts as unknown as PoolCompiler)(externalSchemas, { ...ajvOptions, customOptions: { ...ajvOptions?.customOptions, coerceTypes: false, verbose: true } });
  return (route: RouteSchema) => (route.httpPart === 'body' ? exact : coercing)(route);
}

export const validatorsByPart = byPart as unknown as ValidatorFactory;

/**
 * One rule for all text we are sent: PostgreSQL's text and jsonb cannot hold NUL, nor an unpaired
 * UTF-16 surrogate (JSON's "\ud800"; pg would quietly store U+FFFD in a text column and refuse it
 * in jsonb). Every string in a JSON body and the query string, keys included, is checked here,
 * before validation, and refused with 400 naming the field. Path parameters are ids
 * (http/path-ids.ts). Bulk imports check their records themselves and answer per record with
 * `{ index, field }` (imports/records.ts), so their bodies are left to them.
 */
const unstorable = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const unstorableMessage = 'contains a character that cannot be stored (NUL or an unpaired surrogate)';

function findUnstorable(value: unknown, path: string, out: { field: string; message: string }[]) {
  if (out.length >= 100) return;
  if (typeof value === 'string') {
    if (unstorable.test(value)) out.push({ field: path, message: unstorableMessage });
  } else if (value instanceof Uint8Array || value instanceof Readable) {
    // A raw body kept as bytes (the Stripe webhook's, checked by its signature), or still a
    // stream (an item's file upload, products/content-routes.ts): not text fields.
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => findUnstorable(v, `${path}[${i}]`, out));
  } else if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      const field = path ? `${path}.${key}` : key;
      if (unstorable.test(key)) out.push({ field, message: 'is a field name that contains a character that cannot be stored (NUL or an unpaired surrogate)' });
      else findUnstorable(v, field, out);
    }
  }
}

export function installTextRule(app: FastifyInstance) {
  app.addHook('preValidation', (req, _reply, done) => {
    const query: { field: string; message: string }[] = [];
    findUnstorable(req.query, '', query);
    if (query.length) throw invalidAll(query, 'query parameter');
    if (req.routeOptions.url?.endsWith('/import')) return done();
    const body: { field: string; message: string }[] = [];
    findUnstorable(req.body, '', body);
    if (body.length) throw invalidAll(body, 'body field');
    done();
  });
}

/**
 * An unknown query parameter on the API is refused with 400 naming it, as an unknown body field
 * is: `?page=2` or `?offset=20` (other APIs' paging) would otherwise be ignored silently and the
 * caller would get the first page again and again. The parameters a route takes are its
 * querystring schema's properties.
 */
export function installQueryCheck(app: FastifyInstance, prefix: string) {
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(prefix)) return;
    const properties = (route.schema?.querystring as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
    const allowed = Object.keys(properties);
    const takes = allowed.length ? `this endpoint takes ${allowed.join(', ')}` : 'this endpoint takes none';
    const check = (req: { query: unknown }, _reply: unknown, done: () => void) => {
      const unknown = Object.keys((req.query ?? {}) as object).filter((k) => !Object.hasOwn(properties, k));
      if (unknown.length) throw invalidAll(unknown.map((field) => ({ field, message: `is not a query parameter of this endpoint (${takes})` })), 'query parameter');
      done();
    };
    route.preValidation = [...[route.preValidation ?? []].flat(), check] as typeof route.preValidation;
  });
}
