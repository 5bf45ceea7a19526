import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { buildApp } from '../app.ts';
import type { App } from '../http/app-type.ts';
import type { ConsentSession, SessionReader } from '../oauth/session.ts';
import type { Lookup } from '../webhooks/url-guard.ts';
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
  /** Signs a creator in to a brand; returns the Cookie header value. */
  signIn(session: { userId: string; brandId: string }): { cookie: string; csrfToken: string };
}

export async function startOAuthServer(options: { lookup?: Lookup } = {}): Promise<OAuthTestServer> {
  const testDb = await openTestDb();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const signedIn = new Map<string, ConsentSession>();
  const sessions: SessionReader = {
    read: async (req: FastifyRequest) => {
      const token = /(?:^|; )cc_session=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
      return (token && signedIn.get(token)) || null;
    },
    signInUrl: (returnTo) => `/dashboard/sign-in?returnTo=${encodeURIComponent(returnTo)}`,
  };
  const deps = testDeps(testDb.db, { sessions, ...(options.lookup ? { lookup: options.lookup } : {}), config: { publicUrl: url } });
  const app = await buildApp(deps);
  await app.listen({ port, host: '127.0.0.1' });
  return {
    ...testDb,
    app,
    url,
    signIn(s) {
      const token = randomBytes(16).toString('base64url');
      const csrfToken = randomBytes(16).toString('base64url');
      signedIn.set(token, { ...s, csrfToken });
      return { cookie: `cc_session=${token}`, csrfToken };
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
