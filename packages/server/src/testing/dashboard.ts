import type { Mode } from '../auth/principal.ts';
import type { Queryable } from '../db/client.ts';
import { newId } from '../ids.ts';
import { insertUser, upsertMember, type Role } from '../users/repository.ts';
import { startSession } from '../users/session.ts';
import type { TestApp } from './app.ts';

/**
 * A browser-like client of the dashboard's JSON routes on a test app: keeps the cc_session cookie
 * it is given and sends the CSRF token on writes, as the SPA does.
 */
export interface DashboardClient {
  cookie?: string;
  csrfToken?: string;
  call(method: string, url: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; headers: Record<string, unknown>; body: any }>;
  /** Reads the session (and with it the CSRF token). */
  refresh(): Promise<any>;
}

export function dashboardClient(t: TestApp, options: { address?: string } = {}): DashboardClient {
  const client: DashboardClient = {
    async call(method, url, body, headers = {}) {
      const res = await t.app.inject({
        method: method as never,
        url,
        ...(options.address ? { remoteAddress: options.address } : {}),
        headers: {
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(client.cookie ? { cookie: `cc_session=${client.cookie}` } : {}),
          ...(client.csrfToken && method !== 'GET' ? { 'x-csrf-token': client.csrfToken } : {}),
          ...headers,
        },
        ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
      });
      const setCookie = [res.headers['set-cookie'] ?? []].flat().find((c) => String(c).startsWith('cc_session='));
      if (setCookie) client.cookie = String(setCookie).slice('cc_session='.length).split(';')[0] || undefined;
      return { status: res.statusCode, headers: res.headers, body: res.body ? JSON.parse(res.body) : undefined };
    },
    async refresh() {
      const res = await client.call('GET', '/dashboard/api/session');
      client.csrfToken = res.body?.data?.csrfToken;
      return res;
    },
  };
  return client;
}

let counter = 0;
/**
 * Follows the confirmation link that sign-up mailed to `email`, as its owner would: the link is
 * read from the outbox (the message's data, as the worker renders it), the token posted.
 */
export async function confirmEmail(t: TestApp, email: string) {
  const [mail] = await t.db.query<{ link: string }>(
    "SELECT data->>'link' AS link FROM mail_messages WHERE kind = 'email_verification' AND lower(to_address) = lower($1) ORDER BY created_at DESC LIMIT 1", [email]);
  if (!mail) throw new Error(`no confirmation mail for ${email}`);
  const token = new URL(mail.link).searchParams.get('token');
  const res = await dashboardClient(t).call('POST', '/dashboard/api/email-verification', { token });
  if (res.status !== 200) throw new Error(`confirming ${email} failed: ${JSON.stringify(res.body)}`);
}

/** Signs up a fresh user with a brand of their own; the client is signed in, token read, the address confirmed unless `confirm: false`. */
export async function signUp(t: TestApp, input: { name?: string; email?: string; password?: string; brandName?: string; confirm?: boolean } = {}) {
  const client = dashboardClient(t);
  const email = input.email ?? `owner${++counter}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const password = input.password ?? 'correct horse battery';
  const res = await client.call('POST', '/dashboard/api/signup', { name: input.name ?? 'Ada Owner', email, password, brandName: input.brandName ?? 'Ada Studio' });
  if (res.status !== 201) throw new Error(`signup failed: ${JSON.stringify(res.body)}`);
  if (input.confirm !== false) await confirmEmail(t, email);
  await client.refresh();
  return { client, email, password, user: res.body.data.user, brand: res.body.data.brand };
}

/**
 * A signed-in dashboard session of a new user with `role` in the brand, made directly (no
 * password to hash), for checks that need many: the cookie header and the CSRF token.
 */
export async function createSession(db: Queryable, brandId: string, input: { role?: Role; mode?: Mode } = {}) {
  const user = await insertUser(db, { id: newId('usr'), email: `session-${newId('usr').slice(4, 14)}@example.com`, name: 'Session user', password_hash: null });
  await upsertMember(db, brandId, user.id, input.role ?? 'owner');
  const { sessionId, token } = await startSession(db, { userId: user.id, brandId, mode: input.mode ?? 'test' });
  const [row] = await db.query<{ csrf_token: string }>('SELECT csrf_token FROM sessions WHERE id = $1', [sessionId]);
  return { cookie: `cc_session=${token}`, csrfToken: row.csrf_token, sessionId, userId: user.id };
}
