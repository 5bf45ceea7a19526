/** Stable machine codes, each with the HTTP status it is answered with. */
export const errorStatus = {
  validation_failed: 400,
  invalid_json: 400,
  invalid_signature: 400,
  authentication_required: 401,
  invalid_credentials: 401,
  scope_missing: 403,
  csrf_failed: 403,
  forbidden: 403,
  not_found: 404,
  route_not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  idempotency_in_progress: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
  // A feature this server was not set up for (live payments without Stripe's settings): 503 like
  // an outage, but a code of its own, since retrying cannot help until an operator sets it up.
  not_configured: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export interface ErrorDetail {
  field?: string;
  index?: number;
  message: string;
}

/** The one error type the service throws on purpose; the error handler renders it. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details?: ErrorDetail[];

  constructor(code: ErrorCode, message: string, details?: ErrorDetail[]) {
    super(message);
    this.code = code;
    this.details = details;
  }

  get statusCode(): number {
    return errorStatus[this.code];
  }
}

export const notFound = (what: string) => new AppError('not_found', `No ${what} with that id exists.`);

/**
 * A 400 naming the field, in the one wording every layer uses: "Invalid body field `x`: must be…".
 * Several problems become `details`, the first one the message.
 */
export function invalid(field: string, message: string, where: Where = 'body field'): AppError {
  return invalidAll([{ field, message }], where);
}

type Where = 'body field' | 'query parameter' | 'path parameter' | 'header';

export function invalidAll(problems: ErrorDetail[], where: Where = 'body field'): AppError {
  const [first] = problems;
  return new AppError('validation_failed', `Invalid ${where} \`${first.field}\`: ${first.message}.`, problems.slice(0, 100));
}
