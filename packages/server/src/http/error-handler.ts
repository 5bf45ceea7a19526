import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isConnectionError, type Queryable } from '../db/client.ts';
import { AppError, type ErrorCode, type ErrorDetail } from '../errors.ts';
import { lingerAfterRefusedBody } from './lingering-close.ts';

/**
 * The database could not be reached or dropped the connection: 503 with Retry-After, so clients
 * (our SDK included) retry instead of treating it as a bug of ours.
 */
export class DatabaseUnavailableError extends AppError {
  readonly retryAfterSeconds = 5;
  constructor() {
    super('service_unavailable', 'The service cannot reach its database right now. Try again in a few seconds.');
  }
}

/** While an outage lasts, it is logged again at most this often. */
const outageLogEveryMs = 60_000;

// Fastify's own error codes that are the client's fault, and what we call them.
const frameworkCodes: Record<string, { code: ErrorCode; message?: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'unsupported_media_type', message: 'Send request bodies as JSON with Content-Type: application/json.' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'validation_failed', message: 'The Content-Length header does not match the body.' },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'payload_too_large' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'invalid_json', message: 'The body is empty but Content-Type says JSON; send a JSON object or drop the header.' },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'invalid_json' },
};

const where: Record<string, string> = { body: 'body field', querystring: 'query parameter', params: 'path parameter', headers: 'header' };

/** The parts of an Ajv error we read; `schema`, `parentSchema` and `data` are there because
 * http/validation.ts compiles with `verbose`. */
interface AjvIssue {
  keyword: string;
  instancePath: string;
  schemaPath: string;
  params: Record<string, unknown>;
  message?: string;
  schema?: unknown;
  parentSchema?: unknown;
  data?: unknown;
}

/**
 * What each `pattern` our schemas use asks for, in words: Ajv's own message repeats the regular
 * expression ('must match pattern "^[A-Za-z0-9_-]+$"'), which a person typing a coupon code should
 * not have to read. An id pattern (`^plink_…`) reads as the id it wants; a pattern not listed here
 * keeps Ajv's message.
 */
const patternWords: Record<string, string> = {
  '^[A-Za-z0-9_-]+$': 'may hold only letters, digits, - and _ (no spaces or other signs)',
  '^[A-Z]{3}$': 'must be a three-letter currency code in capitals, such as USD',
  '^[A-Za-z]{2}$': 'must be a two-letter country code, such as PT',
  '^#[0-9a-fA-F]{6}$': 'must be a colour written as # and six hex digits, such as #2b59c3',
  '^https?://': 'must be an address starting with http:// or https://',
  '^\\d{4}-\\d{2}-\\d{2}$': 'must be a date written as YYYY-MM-DD, such as 2026-12-31',
  '^([01][0-9]|2[0-3]):[0-5][0-9]$|^24:00$': 'must be a time of day written as HH:MM, such as 09:30',
  '^[^\\r\\n"<>]*$': 'may not hold line breaks, double quotes or angle brackets',
};

export function patternMessage(pattern: string): string | undefined {
  const id = /^\^([a-z]+)_\[/.exec(pattern);
  return patternWords[pattern] ?? (id ? `must be an id starting with ${id[1]}_` : undefined);
}

const listed = (values: unknown[]) => values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');

/** "must be one of active, disabled" for a union whose every branch is one constant, else undefined. */
function oneOfConstants(branches: unknown): string | undefined {
  if (!Array.isArray(branches) || !branches.length) return undefined;
  const values = branches.map((b) => (b && typeof b === 'object' && 'const' in b ? (b as { const: unknown }).const : undefined));
  return values.every((v) => v !== undefined) ? `must be one of ${listed(values)}` : undefined;
}

/**
 * Turns Ajv's errors into `{ field, message }` pairs and one sentence naming the first field.
 * Ajv explains a union of constants (TypeBox's Union of Literals) as one "must be equal to
 * constant" per branch and a "must match a schema in anyOf": that becomes the one sentence
 * "must be one of a, b", as an enum's error does; repeated pairs are dropped.
 */
function validationError(err: FastifyError): AppError {
  const context = err.validationContext ?? 'body';
  const issues = (err.validation ?? []) as AjvIssue[];

  // The body as a whole is missing or not an object: say so, and what it needs.
  const root = issues.find((v) => v.instancePath === '' && v.keyword === 'type');
  if (context === 'body' && root) {
    const required = (root.parentSchema as { required?: unknown } | undefined)?.required;
    const needs = Array.isArray(required) && required.length ? ` with ${required.map((r) => `\`${String(r)}\``).join(', ')}` : '';
    const missing = root.data === undefined || root.data === null;
    return new AppError('validation_failed',
      missing ? `The request needs a JSON body${needs}.` : `The body must be a JSON object${needs}.`,
      [{ field: 'body', message: missing ? 'is missing' : 'must be a JSON object' }]);
  }

  const unions = new Map<string, string>();
  for (const v of issues) {
    if (v.keyword !== 'anyOf' && v.keyword !== 'oneOf') continue;
    const sentence = oneOfConstants(v.schema);
    if (sentence) unions.set(v.schemaPath, sentence);
  }
  const insideUnion = (v: AjvIssue) => [...unions.keys()].some((p) => v.schemaPath.startsWith(`${p}/`));

  const seen = new Set<string>();
  const details: ErrorDetail[] = [];
  for (const v of issues) {
    if (insideUnion(v)) continue;
    // JSON pointer to the notation the services use in their own messages: /items/0/id -> items[0].id
    const path = v.instancePath.replace(/^\//, '').replaceAll('/', '.').replace(/\.(\d+)(?=\.|$)/g, '[$1]').replace(/^(\d+)/, '[$1]');
    const params = v.params;
    const field = typeof params.missingProperty === 'string'
      ? (path ? `${path}.${params.missingProperty}` : params.missingProperty)
      : typeof params.additionalProperty === 'string'
        ? (path ? `${path}.${params.additionalProperty}` : params.additionalProperty)
        : path;
    const message = typeof params.additionalProperty === 'string' ? 'is not a known field'
      : unions.get(v.schemaPath)
        ?? (v.keyword === 'enum' && Array.isArray(params.allowedValues) ? `must be one of ${listed(params.allowedValues)}` : undefined)
        ?? (v.keyword === 'const' ? `must be ${listed([params.allowedValue])}` : undefined)
        ?? (v.keyword === 'pattern' && typeof params.pattern === 'string' ? patternMessage(params.pattern) : undefined)
        ?? v.message ?? 'is invalid';
    const key = `${field}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    details.push({ field, message });
    if (details.length === 100) break;
  }
  const first = details[0];
  const message = first
    ? `Invalid ${where[context] ?? context} \`${first.field || context}\`: ${first.message}.`
    : `Invalid ${where[context] ?? context}.`;
  return new AppError('validation_failed', message, details);
}

export function toAppError(err: FastifyError | AppError | Error): AppError | undefined {
  if (err instanceof AppError) return err;
  const fe = err as FastifyError;
  if (fe.validation) return validationError(fe);
  const known = fe.code ? frameworkCodes[fe.code] : undefined;
  if (known) return new AppError(known.code, known.message ?? fe.message);
  if (isConnectionError(err)) return new DatabaseUnavailableError();
  if (err instanceof SyntaxError) return new AppError('invalid_json', `The body is not valid JSON: ${err.message}`);
  // statement_timeout (57014) cut a query off: the request ran too long, which a retry may not.
  if ((err as { code?: unknown }).code === '57014') {
    return new AppError('service_unavailable', 'The request took too long on our side and was stopped; try again in a moment.');
  }
  // SQLSTATE class 22 (data exception) comes only from values the client sent that the database
  // cannot hold, such as a NUL byte in a path parameter: the client's mistake, not ours.
  const sqlState = (err as { code?: unknown }).code;
  if (typeof sqlState === 'string' && /^22[0-9A-Z]{3}$/.test(sqlState)) {
    return new AppError('validation_failed', 'A value in this request is not valid text or is out of range (for example a NUL character).');
  }
  // Any other client error Fastify raises keeps its status, under our closest code.
  const byStatus: Record<number, ErrorCode> = { 400: 'validation_failed', 404: 'route_not_found', 405: 'method_not_allowed', 413: 'payload_too_large', 415: 'unsupported_media_type', 429: 'rate_limited' };
  const code = fe.statusCode ? byStatus[fe.statusCode] : undefined;
  return code ? new AppError(code, fe.message) : undefined;
}

export function sendError(req: FastifyRequest, reply: FastifyReply, err: AppError) {
  if (err.code === 'payload_too_large') lingerAfterRefusedBody(req, reply);
  if (err instanceof DatabaseUnavailableError) reply.header('retry-after', String(err.retryAfterSeconds));
  return reply.code(err.statusCode).send(errorEnvelope(req.id, err));
}

/** The error body every error answer carries. */
export function errorEnvelope(requestId: string, err: AppError) {
  return {
    status: 'error' as const,
    message: err.message,
    data: { code: err.code, requestId, ...(err.details ? { details: err.details } : {}) },
  };
}

export function installErrorHandling(app: FastifyInstance, options: { db?: Queryable } = {}) {
  // One warning when an outage starts (and a reminder every minute while it lasts), one info
  // line when it ends: not a stack trace per request. The end is when the database answers again
  // (asked once a second, and at once after any answer below 500): an answer that needed no
  // database (a cached list, a metadata document) says nothing about it by itself, and ending the
  // outage on one logged its start again with the next request.
  let outage = false;
  let outageLoggedAt = -Infinity;
  let probe: NodeJS.Timeout | undefined;
  let asking = false;
  const ended = () => {
    outage = false;
    clearInterval(probe);
    probe = undefined;
    app.log.info('database reachable again');
  };
  const ask = () => {
    if (asking || !options.db) return;
    asking = true;
    options.db.query('SELECT 1').then(() => { if (outage) ended(); }, () => {}).finally(() => { asking = false; });
  };
  const watch = () => {
    if (probe || !options.db) return;
    probe = setInterval(ask, 1000);
    probe.unref();
  };
  app.addHook('onClose', async () => clearInterval(probe));
  app.addHook('onResponse', (_req, reply, done) => {
    if (outage && reply.statusCode < 500) {
      if (options.db) ask();
      else ended();
    }
    done();
  });
  app.setErrorHandler((err: FastifyError, req, reply) => {
    const appError = toAppError(err);
    if (appError instanceof DatabaseUnavailableError) {
      const now = performance.now();
      if (!outage || now - outageLoggedAt >= outageLogEveryMs) {
        outageLoggedAt = now;
        req.log.warn({ cause: { code: (err as { code?: unknown }).code, message: err.message } }, 'database unavailable; answering 503 until it is back');
      }
      outage = true;
      watch();
      return sendError(req, reply, appError);
    }
    if (appError) {
      // An AppError thrown on purpose (e.g. live payments not configured) is an answer, not a
      // failure of ours: a warning without a stack. Anything else at 500 or above is an error.
      if (appError === err && appError.statusCode >= 500) req.log.warn({ code: appError.code }, appError.message);
      else if (appError.statusCode >= 500) req.log.error({ err }, appError.message);
      return sendError(req, reply, appError);
    }
    req.log.error({ err }, 'unhandled error');
    return sendError(req, reply, new AppError('internal_error', `Something went wrong on our side. Quote request id ${req.id} if you contact support.`));
  });
  app.setNotFoundHandler((req, reply) =>
    sendError(req, reply, new AppError('route_not_found', `No route ${req.method} ${req.url.split('?')[0]}. See /docs for the API reference.`)),
  );
}
