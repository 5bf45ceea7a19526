import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { buildApp } from '../app.ts';
import { createBrand } from '../testing/factories.ts';
import { startTestApp, testDeps, type TestApp } from '../testing/app.ts';
import { createSession, dashboardClient } from '../testing/dashboard.ts';
import { accountsPurgeSource } from './jobs.ts';
import { startSession } from './session.ts';

const apps: TestApp[] = [];
after(async () => { for (const t of apps) await t.close(); });

describe('session cookies and budgets', () => {
  it('marks the cookie Secure when PUBLIC_URL is https, and takes writes only from that origin', async () => {
    const t = await startTestApp({ publicUrl: 'https://shop.example.com' });
    apps.push(t);
    const client = dashboardClient(t);
    const res = await client.call('POST', '/dashboard/api/signup', { name: 'S', email: 'secure@example.com', password: 'long enough pw', brandName: 'Secure' }, { origin: 'https://shop.example.com' });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const cookie = String([res.headers['set-cookie']].flat()[0]);
    assert.match(cookie, /; Secure/);
    assert.match(cookie, /HttpOnly/);
    await client.refresh();
    assert.equal((await client.call('PATCH', '/dashboard/api/session', { mode: 'live' }, { origin: 'http://shop.example.com' })).status, 403, 'http is another origin');
    assert.equal((await client.call('PATCH', '/dashboard/api/session', { mode: 'live' }, { origin: 'https://shop.example.com' })).status, 200);
  });

  it('counts rate limits per user across their sessions', async () => {
    const t = await startTestApp();
    apps.push(t);
    const app = await buildApp(testDeps(t.db, { config: { rateLimits: { live: 3, test: 3, authFailuresPerMinute: 1_000_000, registrationsPerHour: 1_000_000 } } }));
    try {
      const brand = await createBrand(t.db);
      const first = await createSession(t.db, brand.id);
      const otherUser = await createSession(t.db, brand.id);
      // A second session (another device) of the first user.
      const again = await startSession(t.db, { userId: first.userId, brandId: brand.id });
      const ping = (cookie: string) => app.inject({ method: 'GET', url: '/api/v1/ping', headers: { cookie } });
      let limited = false;
      for (let round = 0; round < 3 && !limited; round++) {
        const answers = await Promise.all([ping(first.cookie), ping(first.cookie), ping(`cc_session=${again.token}`), ping(`cc_session=${again.token}`)]);
        limited = answers.some((r) => r.statusCode === 429);
        const other = await ping(otherUser.cookie);
        assert.equal(other.statusCode, 200, 'another user has a budget of their own');
        await new Promise((r) => setTimeout(r, 1100));
      }
      assert.ok(limited, 'four requests a second from two sessions of one user exceed a budget of three');
    } finally {
      await app.close();
    }
  });
});

describe('the accounts purge', () => {
  it('deletes ended sessions and old failed sign-ins, and keeps live ones', async () => {
    const t = await startTestApp();
    apps.push(t);
    const brand = await createBrand(t.db);
    const live = await createSession(t.db, brand.id);
    const ended = await createSession(t.db, brand.id);
    await t.db.query(`UPDATE sessions SET last_seen_at = now() - interval '15 days' WHERE id = $1`, [ended.sessionId]);
    await t.db.query(`INSERT INTO sign_in_attempts (email, address, created_at) VALUES ('old@example.com', '10.9.9.9', now() - interval '1 hour'), ('new@example.com', '10.9.9.9', now())`);
    await accountsPurgeSource({ db: t.db, log: t.deps.log, everyMs: 0 }).runOnce();
    const sessions = await t.db.query<{ id: string }>('SELECT id FROM sessions');
    assert.deepEqual(sessions.map((s) => s.id), [live.sessionId]);
    const attempts = await t.db.query<{ email: string }>('SELECT email FROM sign_in_attempts');
    assert.deepEqual(attempts.map((a) => a.email), ['new@example.com']);
  });
});
