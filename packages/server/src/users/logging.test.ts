import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../app.ts';
import type { App } from '../http/app-type.ts';
import { createLogger } from '../logger.ts';
import { testDeps } from '../testing/app.ts';
import { openTestDb, type TestDb } from '../testing/db.ts';
import { createPasswordReset } from './service.ts';

/** Secrets of the dashboard never reach the log, at the most talkative level. */
let db: TestDb;
let app: App;
let logged = '';
before(async () => {
  db = await openTestDb();
  const stream = new PassThrough();
  stream.on('data', (c: Buffer) => { logged += c; });
  const log = createLogger('trace', stream);
  app = await buildApp(testDeps(db.db, { log }));
  await app.ready();
});
after(async () => {
  await app.close();
  await db.close();
});

describe('dashboard secrets in the log', () => {
  it('logs no password, session cookie, CSRF token or one-time link token', async () => {
    const password = 'logged-never-4711';
    const signup = await app.inject({ method: 'POST', url: '/dashboard/api/signup', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ name: 'Log', email: 'log@example.com', password, brandName: 'Logs' }) });
    assert.equal(signup.statusCode, 201);
    const cookie = String([signup.headers['set-cookie']].flat()[0]).split(';')[0];
    const session = await app.inject({ method: 'GET', url: '/dashboard/api/session', headers: { cookie } });
    const csrf = session.json().data.csrfToken as string;
    await app.inject({ method: 'PATCH', url: '/dashboard/api/session', headers: { cookie, 'x-csrf-token': csrf, 'content-type': 'application/json' }, payload: '{"mode":"live"}' });
    await app.inject({ method: 'POST', url: '/dashboard/api/signin', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ email: 'log@example.com', password: 'wrong-but-secret-0815' }) });
    const { link } = await db.db.transaction((tx) => createPasswordReset(tx, 'http://localhost:3000', 'log@example.com'));
    const token = new URL(link).searchParams.get('token')!;
    // The reset page's own request (the SPA's page) carries the token in its URL.
    await app.inject({ method: 'GET', url: `/dashboard/reset-password?token=${token}` });
    await app.inject({ method: 'POST', url: '/dashboard/api/password-reset', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ token, newPassword: 'new-secret-1234' }) });
    // Something that logs a whole request's headers, or a body, is redacted too.
    app.log.info({ req: { headers: { cookie, 'x-csrf-token': csrf } }, body: { password, token } }, 'a careless log line');

    assert.match(logged, /reset-password\?token=\[redacted\]/);
    for (const secret of [password, 'wrong-but-secret-0815', 'new-secret-1234', cookie.split('=')[1], csrf, token]) {
      assert.ok(!logged.includes(secret), `the log holds ${secret.slice(0, 6)}…`);
    }
  });
});

describe('secrets sent in a query string by mistake', () => {
  it('masks them in the logged URL', async () => {
    const secrets = { refresh_token: 'rt-secret-1', access_token: 'at-secret-2', client_secret: 'cs-secret-3', password: 'pw-secret-4', code_verifier: 'cv-secret-5', api_key: 'svc_test_secret6' };
    await app.inject({ method: 'GET', url: `/api/v1/products?${new URLSearchParams(secrets)}&page=2` });
    for (const [name, value] of Object.entries(secrets)) {
      assert.ok(!logged.includes(value), `the log holds ${name}`);
      assert.match(logged, new RegExp(`${name}=\\[redacted\\]`));
    }
    assert.match(logged, /&page=2/, 'other parameters stay readable');
  });
});
