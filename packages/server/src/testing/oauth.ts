import { randomBytes } from 'node:crypto';
import { buildApp } from '../app.ts';
import type { App } from '../http/app-type.ts';
import type { Config } from '../config.ts';
import type { Lookup } from '../security/url-guard.ts';
import { openTestDb, type TestDb } from './db.ts';
import { testDeps } from './app.ts';
import { freePort } from './processes.ts';

/**
 * A real server on an ephemeral port whose PUBLIC_URL is that port (the OAuth issuer and the
 * resources must be the URLs clients use), with dashboard sessions a test signs in directly.
 */
export interface OAuthTestServer extends TestDb {
  app: App;
  url: string;
  /** Signs a creator up (a new brand, owner), on the plan given; returns the Cookie header value, CSRF token and brand id. */
  signUp(plan: 'free' | 'plus'): Promise<{ cookie: string; csrfToken: string; brandId: string }>;
}

export async function startOAuthServer(options: { lookup?: Lookup; config?: Partial<Config> } = {}): Promise<OAuthTestServer> {
  const testDb = await openTestDb();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const deps = testDeps(testDb.db, { ...(options.lookup ? { lookup: options.lookup } : {}), config: { ...options.config, publicUrl: url } });
  const app = await buildApp(deps);
  await app.listen({ port, host: '127.0.0.1' });
  return {
    ...testDb,
    app,
    url,
    async signUp(plan) {
      const email = `creator-${randomBytes(6).toString('hex')}@example.com`;
      const res = await fetch(`${url}/dashboard/api/signup`, {
        method: 'POST', headers: { 'content-type': 'application/json', origin: url },
        body: JSON.stringify({ name: 'Casey Creator', email, password: 'correct horse battery staple', brandName: 'Casey\'s Studio' }),
      });
      if (res.status !== 201) throw new Error(`signup answered ${res.status}: ${await res.text()}`);
      const cookie = res.headers.getSetCookie().find((c) => c.startsWith('cc_session='))!.split(';')[0];
      const session = await (await fetch(`${url}/dashboard/api/session`, { headers: { cookie } })).json() as { data: { csrfToken: string; brand: { id: string } } };
      await testDb.db.query('UPDATE brands SET plan = $2 WHERE id = $1', [session.data.brand.id, plan]);
      return { cookie, csrfToken: session.data.csrfToken, brandId: session.data.brand.id };
    },
    async close() {
      // Clients' keep-alive connections would hold close() open.
      app.server.closeAllConnections();
      await app.close();
      await testDb.close();
    },
  };
}

/** A cookie jar good enough for one authorization: every cookie goes back on every request to the server. */
export class CookieJar {
  readonly cookies = new Map<string, string>();
  constructor(extra = '') {
    for (const pair of extra.split('; ').filter(Boolean)) {
      const [name, ...value] = pair.split('=');
      this.cookies.set(name, value.join('='));
    }
  }
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  take(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = pair.split('=');
      if (/expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value.join('='));
    }
  }
}

export interface ConsentChoice {
  decision: 'approve' | 'read-only' | 'deny';
  mode?: 'test' | 'live';
  /** Scopes left ticked; all that were asked when absent. */
  scopes?: string[];
}

/**
 * Plays the creator's browser from the authorization URL to the app's redirect: follows the
 * provider's redirects to the consent page, reads its CSRF token and ticked scopes, posts the
 * choice, and follows on until the redirect URI. Returns the final redirect URL and the page seen.
 */
export async function authorizeAsCreator(server: { url: string }, authorizationUrl: string, sessionCookie: string, choice: ConsentChoice) {
  const jar = new CookieJar(sessionCookie);
  let next = authorizationUrl;
  let consentHtml = '';
  for (let hop = 0; hop < 10; hop++) {
    if (!next.startsWith(server.url)) return { redirect: new URL(next), consentHtml };
    const res = await fetch(next, { redirect: 'manual', headers: { cookie: jar.header() } });
    jar.take(res);
    if (res.status === 303 || res.status === 302) {
      next = new URL(res.headers.get('location')!, next).href;
      continue;
    }
    if (res.status !== 200) throw new Error(`authorization stopped at ${next}: ${res.status} ${await res.text()}`);
    consentHtml = await res.text();
    const csrf = /name="csrf" value="([^"]+)"/.exec(consentHtml)?.[1] ?? '';
    const asked = [...consentHtml.matchAll(/name="scope" value="([^"]+)"/g)].map((m) => m[1]);
    const form = new URLSearchParams({ csrf, decision: choice.decision, mode: choice.mode ?? 'live' });
    for (const s of choice.scopes ?? asked) form.append('scope', s);
    const posted = await fetch(next, {
      method: 'POST', redirect: 'manual',
      headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
      body: form.toString(),
    });
    jar.take(posted);
    if (posted.status !== 303) throw new Error(`consent answered ${posted.status}: ${await posted.text()}`);
    next = new URL(posted.headers.get('location')!, next).href;
  }
  throw new Error('too many redirects');
}
