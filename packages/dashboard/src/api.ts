import { Client, ConnectionError, RateLimitError, ServiceError, type ErrorCode, type ErrorDetail } from '@creator-commerce/sdk';

/**
 * How the dashboard talks to the server. The public `/api/v1` goes through the SDK in session mode
 * (`client` below: the session cookie, the CSRF token on writes, the page's own origin), so every
 * answer has the type the SDK generates from the OpenAPI document. The session-only routes under
 * `/dashboard/api` are not in that document; `dashboardApi` names each of them with its types.
 * Pages reach both through the hooks in hooks/api/, one file per resource.
 */

let csrfToken = '';

/** Called whenever the session is (re)read: later writes carry this token. */
export function setCsrfToken(token: string) {
  csrfToken = token;
}

/** The token, for the one request fetch cannot make: an upload that reports its progress (ItemFile.tsx). */
export const currentCsrfToken = () => csrfToken;

/**
 * The public API as the signed-in user. No retries here: React Query retries failed reads itself
 * (main.tsx), and a write the user asked for once is tried once.
 */
export const client = new Client({ session: { csrfToken: currentCsrfToken }, maxRetries: 0 });

/** Every error either client throws: the SDK's, with the envelope's status, code, message and details. */
export { ServiceError as ApiError };

/** The per-field problems of a failed write (`details[]`), empty for any other error. */
export function errorDetails(err: unknown): ErrorDetail[] {
  return err instanceof ServiceError ? err.details ?? [] : [];
}

/** The first problem the API reported for a form field (`details[].field`), if any. */
export function fieldErrorOf(err: unknown, field: string): string | undefined {
  return errorDetails(err).find((d) => d.field === field || d.field?.startsWith(`${field}.`) || d.field?.startsWith(`${field}[`))?.message;
}

/** A message that reads well in a form: the envelope's message, or a generic one. */
export function errorMessage(err: unknown): string {
  // The SDK names the address it could not reach; a person wants to know what to do.
  if (err instanceof ConnectionError) return 'Could not reach the server. Check your connection and try again.';
  return err instanceof Error ? err.message : 'Something went wrong.';
}

// Session-only shapes (`/dashboard/api`). They are not part of the public OpenAPI document, so
// they are written here from the server's schemas (users/schemas.ts, keys/, oauth/apps-routes.ts).

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

export interface User { id: string; name: string; email: string }
export interface SignUpResult { user: User; brand: { id: string; name: string; plan: Plan } }

export interface TeamMember { id: string; name: string; email: string; role: Role; joinedAt: string }
export interface InviteLink { link: string; role: Role; expiresAt: string; emailedTo?: string }

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

/** The home's setup checklist (GET /dashboard/api/setup): each step as stored, so it ticks itself. */
export interface SetupState {
  productCreated: boolean;
  linkShared: boolean;
  testPurchase: boolean;
  profileSet: boolean;
  paymentsConnected: boolean;
  live: boolean;
  teamInvited: boolean;
}

/** The parsed envelope: `{ status, message, data }`, any part of it possibly missing (a proxy's error page). */
interface Envelope<T> { status?: string; message?: string; data?: T }

/**
 * One request to `/dashboard/api`, answered with the envelope's `data`; failures are thrown as the
 * SDK's ServiceError, so a page handles both clients' errors alike. The answer's type is the one
 * the route's entry in `dashboardApi` names: this is the only place the dashboard takes the
 * server's word for a shape (the public API's types are generated).
 */
async function call<T>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: object): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken;
  let res: Response;
  try {
    res = await fetch(`/dashboard/api${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin' });
  } catch (cause) {
    throw new ConnectionError({ code: 'connection_error', message: 'Could not reach the server.', cause });
  }
  let envelope: Envelope<T & { code?: ErrorCode; details?: ErrorDetail[] }> = {};
  try {
    envelope = await res.json();
  } catch {
    // A body that is not JSON (a proxy's error page): fall through with the status alone.
  }
  if (!res.ok || envelope.status === 'error' || envelope.data === undefined) {
    const init = {
      status: res.status, code: envelope.data?.code ?? 'internal_error', message: envelope.message ?? `The server answered ${res.status}.`,
      details: envelope.data?.details, headers: res.headers,
    };
    // Sign-in says how long to wait after too many tries (sign-in.tsx).
    if (res.status === 429) throw new RateLimitError({ ...init, retryAfter: Number(res.headers.get('retry-after')) || undefined });
    throw new ServiceError(init);
  }
  return envelope.data;
}

const id = (value: string) => encodeURIComponent(value);

/** The session-only routes, one typed function each (the server's users/, keys/, oauth/, metrics/ and webhooks/ dashboard routes). */
export const dashboardApi = {
  session: {
    get: () => call<Session>('GET', '/session'),
    /** Switches the brand or the test/live mode, stored server-side. */
    update: (change: { brandId?: string; mode?: Mode }) => call<Session>('PATCH', '/session', change),
    signUp: (body: { name: string; email: string; password: string; brandName: string }) => call<SignUpResult>('POST', '/signup', body),
    signIn: (body: { email: string; password: string }) => call<{ user: User }>('POST', '/signin', body),
    signOut: () => call<{ ok: boolean }>('POST', '/signout', {}),
    changePassword: (body: { currentPassword: string; newPassword: string }) => call<{ user: User }>('POST', '/password', body),
    requestPasswordReset: (body: { email: string }) => call<{ ok: boolean }>('POST', '/password-reset/request', body),
    resetPassword: (body: { token: string; newPassword: string }) => call<{ user: User }>('POST', '/password-reset', body),
    verifyEmail: (body: { token: string }) => call<{ user: User }>('POST', '/email-verification', body),
    resendVerification: () => call<{ emailedTo: string }>('POST', '/email-verification/resend', {}),
  },
  team: {
    list: () => call<{ items: TeamMember[] }>('GET', '/team'),
    remove: (userId: string) => call<{ ok: boolean }>('DELETE', `/team/${id(userId)}`),
    invite: (body: { role: Role; email?: string }) => call<InviteLink>('POST', '/invites', body),
    acceptInvite: (body: { token: string; name?: string; password?: string; email?: string }) => call<SignUpResult>('POST', '/invites/accept', body),
  },
  keys: {
    list: () => call<{ items: ApiKey[] }>('GET', '/keys'),
    create: (body: { name: string; scopes: string[] }) => call<CreatedApiKey>('POST', '/keys', body),
    revoke: (keyId: string) => call<ApiKey>('POST', `/keys/${id(keyId)}/revoke`, {}),
    roll: (keyId: string, body: { graceSeconds: number }) => call<RolledApiKey>('POST', `/keys/${id(keyId)}/roll`, body),
  },
  apps: {
    list: () => call<{ items: ConnectedApp[] }>('GET', '/apps'),
    disconnect: (appId: string) => call<{ id: string; disconnected: boolean }>('DELETE', `/apps/${id(appId)}`),
  },
  /** The signing secret of a webhook endpoint, shown on request (never in a list). */
  webhookSecret: (endpointId: string) => call<{ signingSecret: string }>('GET', `/webhooks/${id(endpointId)}/secret`),
  setup: () => call<SetupState>('GET', '/setup'),
};
