import { APIError, ConnectionError, errorFromResponse, ServiceError, TimeoutError, parseRetryAfter } from './errors.ts';

export const VERSION = '0.1.0';

export interface ClientOptions {
  /** A brand API key (`svc_test_…` or `svc_live_…`), sent as `x-service-api`. */
  apiKey?: string;
  /** An OAuth access token, sent as `Authorization: Bearer …`. Give this or `apiKey`. */
  accessToken?: string;
  /** The service's address, e.g. `https://shop.example.com`; `/api/v1` is added unless it is there. Default `http://localhost:3000`. */
  baseUrl?: string;
  /** Retries after the first attempt for retryable failures (network errors, 409 in progress, 429, 500, 502, 503, 504). Default 2. */
  maxRetries?: number;
  /** Milliseconds one attempt may take before it is abandoned (and retried). Default 60 000. */
  timeout?: number;
  /** A fetch to use instead of the global one (tests, proxies, instrumentation). */
  fetch?: typeof fetch;
  /** Headers sent on every request. */
  headers?: Record<string, string>;
  /**
   * Session mode, for a page the service itself serves (its brand dashboard): no key; requests
   * go to the page's own origin (`baseUrl` defaults to `location.origin`) with the browser's
   * session cookie, and every write carries the session's CSRF token in `x-csrf-token`. The token
   * is read on each request, because it changes whenever the session does (sign-in, brand switch).
   */
  session?: SessionOptions;
}

/** What session mode needs from the page: the current session's CSRF token. */
export interface SessionOptions {
  /** The token from `GET /dashboard/api/session` (`csrfToken`), or undefined before it is known. */
  csrfToken: () => string | undefined;
}

/** Per-call options, the last argument of every method. */
export interface RequestOptions {
  maxRetries?: number;
  timeout?: number;
  signal?: AbortSignal;
  /** Reuse a key of your own (e.g. from your job id) instead of a fresh one per call; POST, PATCH and DELETE only. */
  idempotencyKey?: string;
  headers?: Record<string, string>;
}

export interface RequestSpec {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  options?: RequestOptions;
  /** A document rather than the JSON envelope (an invoice PDF): the answer's bytes, with this Accept. */
  bytes?: string;
  /** A file sent as the raw body (an item's file), instead of `body` as JSON. A stream is sent once, never retried. */
  upload?: { data: Blob | Uint8Array | ReadableStream<Uint8Array>; contentType: string };
}

// Full-jitter exponential backoff (the AWS architecture blog's "Exponential Backoff And Jitter"):
// the nth retry waits a random time in [0, min(cap, base * 2^n)], which spreads out clients that
// failed together instead of having them retry in lockstep.
const initialDelayMs = 500;
const maxDelayMs = 8_000;
// A Retry-After longer than this is not waited for in-process: the caller gets the error and decides.
const maxRetryAfterMs = 60_000;

/** Statuses worth another try: the request may not have been applied, or the server asked us to wait. */
function isRetryable(err: ServiceError): boolean {
  if (err instanceof ConnectionError) return true;
  if (err.status === 409) return err.code === 'idempotency_in_progress';
  // 503 not_configured: the server is not set up for this (live payments without Stripe); asking again cannot help.
  if (err.code === 'not_configured') return false;
  return err.status === 429 || err.status === 500 || err.status === 502 || err.status === 503 || err.status === 504;
}

export function retryDelayMs(attempt: number, retryAfterSeconds: number | undefined, random = Math.random): number {
  if (retryAfterSeconds !== undefined) return Math.min(retryAfterSeconds * 1000, maxRetryAfterMs);
  return random() * Math.min(maxDelayMs, initialDelayMs * 2 ** attempt);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => { signal?.removeEventListener('abort', onAbort); resolve(); }, ms);
    const onAbort = () => { clearTimeout(timer); reject(signal?.reason); };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

/**
 * What went wrong on the network, in the system's words: Node's fetch says only "fetch failed"
 * and keeps the reason in `cause` (`ECONNREFUSED 127.0.0.1:3000`; for a name with several
 * addresses, an AggregateError whose `errors` each name one).
 */
export function describeNetworkError(err: unknown): string {
  const reasons: string[] = [];
  const visit = (e: unknown, depth: number) => {
    if (!e || typeof e !== 'object' || depth > 4) return;
    const { code, address, port, errors, cause } = e as { code?: unknown; address?: unknown; port?: unknown; errors?: unknown; cause?: unknown };
    if (Array.isArray(errors) && errors.length) {
      for (const inner of errors) visit(inner, depth + 1);
      return;
    }
    if (typeof code === 'string' && code !== 'UND_ERR_SOCKET' || typeof address === 'string') {
      const where = typeof address === 'string' ? ` ${address.includes(':') ? `[${address}]` : address}${port !== undefined ? `:${String(port)}` : ''}` : '';
      if (typeof code === 'string') {
        reasons.push(`${code}${where}`);
        return;
      }
    }
    visit(cause, depth + 1);
  };
  visit(err, 0);
  const unique = [...new Set(reasons)];
  if (unique.length) return unique.join(', ');
  return (err as Error)?.message ?? String(err);
}

/** The page's origin, for session mode; outside a browser there is none, so `baseUrl` must be given. */
function sameOrigin(): string {
  const origin = (globalThis as { location?: { origin?: string } }).location?.origin;
  if (!origin || origin === 'null') throw new TypeError('new Client({ session }) outside a web page needs `baseUrl` (the service\'s address).');
  return origin;
}

/** The transport every resource calls: auth, JSON, retries, idempotency keys, timeouts and typed errors. */
export class Requester {
  readonly baseUrl: string;
  private readonly auth: Record<string, string>;
  private readonly maxRetries: number;
  private readonly timeout: number;
  private readonly fetchImpl: typeof fetch;
  private readonly headers: Record<string, string>;
  private readonly session: SessionOptions | undefined;

  constructor(options: ClientOptions) {
    this.session = options.session;
    if (this.session) {
      // A key beside the cookie would decide which principal answers behind the caller's back.
      if (options.apiKey || options.accessToken) throw new TypeError('new Client({ session }) signs in with the browser\'s session cookie: leave out `apiKey` and `accessToken`.');
      if (typeof this.session.csrfToken !== 'function') throw new TypeError('new Client({ session }) needs `session.csrfToken`: a function returning the session\'s CSRF token.');
    } else if (!options.apiKey && !options.accessToken) {
      throw new TypeError('new Client() needs `apiKey` (a svc_test_… or svc_live_… key) or `accessToken` (an OAuth access token).');
    }
    const origin = this.session ? options.baseUrl ?? sameOrigin() : options.baseUrl ?? 'http://localhost:3000';
    const base = origin.replace(/\/+$/, '');
    this.baseUrl = base.endsWith('/api/v1') ? base : `${base}/api/v1`;
    this.auth = this.session ? {} : options.accessToken ? { authorization: `Bearer ${options.accessToken}` } : { 'x-service-api': options.apiKey as string };
    this.maxRetries = options.maxRetries ?? 2;
    this.timeout = options.timeout ?? 60_000;
    if (typeof (options.fetch ?? globalThis.fetch) !== 'function') throw new TypeError('No fetch is available: pass `fetch` to new Client() on this runtime.');
    // Called unbound (as a property of this object), some runtimes' fetch throws "Illegal invocation".
    this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.headers = options.headers ?? {};
  }

  /** Sends the request, retrying what may be retried, and returns the envelope's `data`. */
  async request<T>(spec: RequestSpec): Promise<T> {
    const options = spec.options ?? {};
    // A stream can be read once: a failed upload of one is the caller's to send again.
    const maxRetries = spec.upload?.data instanceof ReadableStream ? 0 : options.maxRetries ?? this.maxRetries;
    const timeout = options.timeout ?? this.timeout;
    const url = new URL(this.baseUrl + spec.path);
    for (const [k, v] of Object.entries(spec.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = {
      accept: spec.bytes ? `${spec.bytes}, application/json` : 'application/json',
      // A browser sends its own User-Agent (and some refuse a script's).
      ...(this.session ? {} : { 'user-agent': `creator-commerce-sdk/${VERSION}` }),
      ...this.headers,
      ...this.auth,
      ...options.headers,
    };
    // The server refuses a session's write without it (403 csrf_failed); a GET needs none.
    if (this.session && spec.method !== 'GET') headers['x-csrf-token'] = this.session.csrfToken() ?? '';
    if (spec.body !== undefined) headers['content-type'] = 'application/json';
    if (spec.upload) headers['content-type'] = spec.upload.contentType;
    // One key per logical call, made before the first attempt, so every retry carries the same one.
    if (spec.method !== 'GET') headers['idempotency-key'] = options.idempotencyKey ?? newIdempotencyKey();
    const body: BodyInit | undefined = spec.upload ? spec.upload.data as BodyInit : spec.body === undefined ? undefined : JSON.stringify(spec.body);

    for (let attempt = 0; ; attempt++) {
      let error: ServiceError;
      try {
        return await this.attempt<T>(url, spec.method, headers, body, timeout, options.signal, spec.bytes !== undefined);
      } catch (e) {
        if (!(e instanceof ServiceError)) throw e;
        error = e;
      }
      if (attempt >= maxRetries || !isRetryable(error)) throw error;
      const retryAfter = error.headers ? parseRetryAfter(error.headers.get('retry-after')) : undefined;
      if (retryAfter !== undefined && retryAfter * 1000 > maxRetryAfterMs) throw error;
      await sleep(retryDelayMs(attempt, retryAfter), options.signal);
    }
  }

  private async attempt<T>(url: URL, method: string, headers: Record<string, string>, body: BodyInit | undefined, timeout: number, signal?: AbortSignal, bytes = false): Promise<T> {
    if (signal?.aborted) throw signal.reason;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => { timedOut = true; controller.abort(); }, timeout);
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      let response: Response;
      try {
        // A stream body needs `duplex: 'half'` (fetch's rule for request streams).
        const init: RequestInit & { duplex?: 'half' } = {
          method, headers, body, signal: controller.signal,
          ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
          // The session cookie goes with same-origin requests only (fetch's default, said here on purpose).
          ...(this.session ? { credentials: 'same-origin' } : {}),
        };
        response = await this.fetchImpl(url, init);
      } catch (cause) {
        if (signal?.aborted) throw signal.reason;
        if (timedOut) throw new TimeoutError({ code: 'timeout', message: `No answer from ${url.origin} within ${timeout} ms.`, cause });
        throw new ConnectionError({ code: 'connection_error', message: `Could not reach ${url.origin}: ${describeNetworkError(cause)}.`, cause });
      }
      let text: string;
      try {
        // Errors still come as the JSON envelope; only a document's success is bytes.
        if (bytes && response.ok) return new Uint8Array(await response.arrayBuffer()) as T;
        text = await response.text();
      } catch (cause) {
        if (signal?.aborted) throw signal.reason;
        if (timedOut) throw new TimeoutError({ code: 'timeout', message: `The answer from ${url.origin} did not finish within ${timeout} ms.`, cause });
        throw new ConnectionError({ code: 'connection_error', message: `The connection to ${url.origin} broke while reading the answer.`, cause });
      }
      let json: unknown;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        json = undefined;
      }
      if (!response.ok) throw errorFromResponse(response.status, json, response.headers);
      if (!json || typeof json !== 'object' || !('data' in json)) {
        throw new APIError({
          status: response.status,
          code: 'internal_error',
          message: `The server answered ${response.status} without the { status, message, data } envelope; is baseUrl (${this.baseUrl}) the API?`,
          requestId: response.headers.get('x-request-id') ?? undefined,
          headers: response.headers,
        });
      }
      return (json as { data: T }).data;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }
}
