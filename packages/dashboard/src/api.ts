import type { ErrorDetail, ResponseData } from '@creator-commerce/sdk';

/**
 * The dashboard's one way to talk to the server: the public `/api/v1` (as the session principal)
 * and the session-only `/dashboard/api`. Every answer is the envelope `{ status, message, data }`;
 * this returns `data` or throws an ApiError carrying the envelope's code, message and per-field
 * details. State-changing requests carry the session's CSRF token in `x-csrf-token`, read from
 * `GET /dashboard/api/session` (the server refuses them with 403 `csrf_failed` otherwise).
 */

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: ErrorDetail[];
  /** Seconds to wait, from `Retry-After` on a 429. */
  readonly retryAfter?: number;

  constructor(status: number, code: string, message: string, details: ErrorDetail[] = [], retryAfter?: number) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
    this.retryAfter = retryAfter;
  }

  /** The first problem the API reported for a form field (`details[].field`), if any. */
  fieldError(field: string): string | undefined {
    return this.details.find((d) => d.field === field || d.field?.startsWith(`${field}.`) || d.field?.startsWith(`${field}[`))?.message;
  }
}

let csrfToken = '';

/** Called whenever the session is (re)read: later writes carry this token. */
export function setCsrfToken(token: string) {
  csrfToken = token;
}

/** The token, for the one request fetch cannot make: an upload that reports its progress (ItemFile.tsx). */
export const currentCsrfToken = () => csrfToken;

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export type Query = Record<string, string | number | boolean | undefined | null>;

function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

export async function request<T>(method: Method, path: string, body?: unknown, query?: Query): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken;
  let res: Response;
  try {
    res = await fetch(withQuery(path, query), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0, 'network_error', 'Could not reach the server. Check your connection and try again.');
  }
  let envelope: { status?: string; message?: string; data?: unknown } = {};
  try {
    envelope = await res.json();
  } catch {
    // A body that is not JSON (a proxy's error page): fall through with the status alone.
  }
  if (!res.ok || envelope.status === 'error') {
    const data = (envelope.data ?? {}) as { code?: string; details?: ErrorDetail[] };
    const retryAfter = Number(res.headers.get('retry-after')) || undefined;
    throw new ApiError(res.status, data.code ?? 'http_error', envelope.message ?? `The server answered ${res.status}.`, data.details ?? [], retryAfter);
  }
  return envelope.data as T;
}

export const api = {
  get: <T>(path: string, query?: Query) => request<T>('GET', path, undefined, query),
  post: <T>(path: string, body: unknown = {}) => request<T>('POST', path, body),
  patch: <T>(path: string, body: unknown) => request<T>('PATCH', path, body),
  put: <T>(path: string, body: unknown) => request<T>('PUT', path, body),
  del: <T>(path: string) => request<T>('DELETE', path),
};

/** The public API under the session principal: `v1('/webhooks')` → `/api/v1/webhooks`. */
export const v1 = (path: string) => `/api/v1${path}`;
/** Session-only routes: `dash('/keys')` → `/dashboard/api/keys`. */
export const dash = (path: string) => `/dashboard/api${path}`;

/** One page of a public list (`GET /api/v1/…`), as every list operation answers. */
export type ListPage<Item> = { items: Item[]; hasMore: boolean; nextCursor: string };

export type { ResponseData };

// Session-only shapes (`/dashboard/api`). They are not part of the public OpenAPI document, so
// they are written here from the shared contract rather than generated.

export type Role = 'owner' | 'developer';
export type Mode = 'test' | 'live';
export type Plan = 'free' | 'plus';

export interface BrandSummary { id: string; name: string; plan: Plan; role: Role }

export interface Session {
  user: { id: string; name: string; email: string };
  brand: BrandSummary;
  brands: BrandSummary[];
  mode: Mode;
  csrfToken: string;
  /** False until the user follows the link mailed on sign-up (docs/dashboard.md, Confirming your address). */
  emailVerified?: boolean;
}

export interface TeamMember { id: string; name: string; email: string; role: Role; joinedAt: string }

export interface ApiKey {
  id: string;
  /** Null for keys made on the CLI without a name. */
  name: string | null;
  mode: Mode;
  scopes: string[];
  prefix: string;
  /** Null for keys made before the last four were kept. */
  lastFour: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
}

export type CreatedApiKey = ApiKey & { key: string };

export interface RolledApiKey { key: CreatedApiKey; previous: ApiKey }

/** An OAuth app connected to the brand (`GET /dashboard/api/apps`, docs/oauth-mcp.md). */
export interface ConnectedApp {
  id: string;
  appId: string;
  name: string;
  redirectHost: string | null;
  scopes: string[];
  mode: Mode;
  offline: boolean;
  connectedAt: string;
  lastUsedAt: string | null;
}

/** A message that reads well in a form: the envelope's message, or a generic one. */
export function errorMessage(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  return err instanceof Error ? err.message : 'Something went wrong.';
}
