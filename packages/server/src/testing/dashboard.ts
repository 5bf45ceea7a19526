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
/** Signs up a fresh user with a brand of their own; the client is signed in, token read. */
export async function signUp(t: TestApp, input: { name?: string; email?: string; password?: string; brandName?: string } = {}) {
  const client = dashboardClient(t);
  const email = input.email ?? `owner${++counter}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const password = input.password ?? 'correct horse battery';
  const res = await client.call('POST', '/dashboard/api/signup', { name: input.name ?? 'Ada Owner', email, password, brandName: input.brandName ?? 'Ada Studio' });
  if (res.status !== 201) throw new Error(`signup failed: ${JSON.stringify(res.body)}`);
  await client.refresh();
  return { client, email, password, user: res.body.data.user, brand: res.body.data.brand };
}
