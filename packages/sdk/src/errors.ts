import type { components } from './generated/openapi.ts';

/** The server's error codes, plus the two this client makes up when no answer came. */
export type ErrorCode = components['schemas']['ErrorCode'] | 'connection_error' | 'timeout';

export interface ErrorDetail {
  field?: string;
  index?: number;
  message: string;
}

/**
 * Every error carries a brand under a registry symbol, and `instanceof` reads the brand rather
 * than the prototype chain: an app that ends up with two copies of this package (a dependency
 * pinned to another version, or a bundler duplicating it) still gets `err instanceof
 * NotFoundError` right for errors thrown by either copy.
 */
const BRAND = Symbol.for('@creator-commerce/sdk.error');

interface Branded {
  [BRAND]?: readonly string[];
}

export interface ServiceErrorInit {
  status?: number;
  code: ErrorCode;
  message: string;
  requestId?: string;
  details?: ErrorDetail[];
  headers?: Headers;
  cause?: unknown;
}

export class ServiceError extends Error {
  /** The class's name in the brand; subclasses override it. */
  static readonly kind: string = 'ServiceError';

  static [Symbol.hasInstance](value: unknown): boolean {
    const lineage = (value as Branded | null | undefined)?.[BRAND];
    return Array.isArray(lineage) && lineage.includes((this as typeof ServiceError).kind);
  }

  /** The HTTP status; undefined when no answer came (ConnectionError, TimeoutError). */
  readonly status: number | undefined;
  /** The stable machine code from the error body's `data.code`. */
  readonly code: ErrorCode;
  /** `data.requestId`, equal to the `x-request-id` header: quote it when asking for help. */
  readonly requestId: string | undefined;
  /** Every problem, for validation errors: `{ field, message }` or `{ index, field, message }`. */
  readonly details: ErrorDetail[] | undefined;
  /** The response headers, when there was a response. */
  readonly headers: Headers | undefined;

  constructor(init: ServiceErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    const lineage: string[] = [];
    for (let c = new.target as unknown as { kind?: string } | null; c && c.kind; c = Object.getPrototypeOf(c)) {
      if (!lineage.includes(c.kind)) lineage.push(c.kind);
    }
    Object.defineProperty(this, BRAND, { value: Object.freeze(lineage), enumerable: false });
    this.name = (new.target as typeof ServiceError).kind;
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.details = init.details;
    this.headers = init.headers;
  }
}

/** 401: the key or token is missing, unknown or revoked. */
export class AuthenticationError extends ServiceError {
  static override readonly kind: string = 'AuthenticationError';
}

/** 403: the key lacks the scope the operation needs; the message names it. */
export class PermissionError extends ServiceError {
  static override readonly kind: string = 'PermissionError';
}

/** 404: no such resource in this brand and mode (or no such route). */
export class NotFoundError extends ServiceError {
  static override readonly kind: string = 'NotFoundError';
}

/** 400 or 422: a parameter or body field is invalid; `details` lists every problem. */
export class ValidationError extends ServiceError {
  static override readonly kind: string = 'ValidationError';
}

/** 409: the resource's state does not allow this, or an idempotency key is in use or reused. */
export class ConflictError extends ServiceError {
  static override readonly kind: string = 'ConflictError';
}

/** 429: too many requests. */
export class RateLimitError extends ServiceError {
  static override readonly kind: string = 'RateLimitError';
  /** Seconds the server asked to wait (`Retry-After`), when it said. */
  readonly retryAfter: number | undefined;

  constructor(init: ServiceErrorInit & { retryAfter?: number }) {
    super(init);
    this.retryAfter = init.retryAfter;
  }
}

/** 5xx: the server failed or is unavailable. */
export class APIError extends ServiceError {
  static override readonly kind: string = 'APIError';
}

/** No answer: DNS, refused or reset connections, TLS failures. */
export class ConnectionError extends ServiceError {
  static override readonly kind: string = 'ConnectionError';
}

/** No answer within `timeout` milliseconds. */
export class TimeoutError extends ConnectionError {
  static override readonly kind: string = 'TimeoutError';
}

/** Parses `Retry-After` (seconds or an HTTP date) into seconds. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, (at - now) / 1000);
}

interface ErrorBody {
  message?: unknown;
  data?: { code?: unknown; requestId?: unknown; details?: unknown };
}

/** The typed error for an answer that was not 2xx. */
export function errorFromResponse(status: number, body: unknown, headers: Headers): ServiceError {
  const parsed = (body && typeof body === 'object' ? body : {}) as ErrorBody;
  const fallbackCode: ErrorCode = status >= 500 ? 'internal_error' : status === 404 ? 'not_found' : status === 401 ? 'authentication_required'
    : status === 403 ? 'scope_missing' : status === 429 ? 'rate_limited' : status === 409 ? 'conflict' : 'validation_failed';
  const init: ServiceErrorInit = {
    status,
    code: typeof parsed.data?.code === 'string' ? (parsed.data.code as ErrorCode) : fallbackCode,
    message: typeof parsed.message === 'string' ? parsed.message : `The server answered ${status} without an error body.`,
    requestId: typeof parsed.data?.requestId === 'string' ? parsed.data.requestId : headers.get('x-request-id') ?? undefined,
    details: Array.isArray(parsed.data?.details) ? (parsed.data.details as ErrorDetail[]) : undefined,
    headers,
  };
  switch (status) {
    case 400: case 422: return new ValidationError(init);
    case 401: return new AuthenticationError(init);
    case 403: return new PermissionError(init);
    case 404: return new NotFoundError(init);
    case 409: return new ConflictError(init);
    case 429: return new RateLimitError({ ...init, retryAfter: parseRetryAfter(headers.get('retry-after')) });
    default: return status >= 500 ? new APIError(init) : new ServiceError(init);
  }
}
