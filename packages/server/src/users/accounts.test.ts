import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { dashboardClient, signUp } from '../testing/dashboard.ts';
import { createTransaction } from '../testing/factories.ts';
import { readSession, signInUrl } from './session.ts';

let t: TestApp;
before(async () => { t = await startTestApp(); });
after(async () => { await t.close(); });

describe('dashboard accounts and sessions', () => {
  it('signs up with a brand on the free plan in test mode, and the cookie works on /api/v1', async () => {
    const client = dashboardClient(t);
    const res = await client.call('POST', '/dashboard/api/signup', { name: 'Ada', email: 'Ada.Founder@Example.com', password: 'correct horse battery', brandName: 'Ada Prints' });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.data.user.email, 'Ada.Founder@Example.com');
    assert.equal(res.body.data.brand.plan, 'free');
    const cookie = String([res.headers['set-cookie']].flat()[0]);
    assert.match(cookie, /^cc_session=[A-Za-z0-9_-]{43};/);
    assert.match(cookie, /HttpOnly/);
    assert.match(cookie, /SameSite=Lax/);
    assert.match(cookie, /Path=\//);
    assert.doesNotMatch(cookie, /Secure/, 'PUBLIC_URL is http here');

    const session = await client.refresh();
    assert.equal(session.status, 200);
    assert.deepEqual(session.body.data.brand, { id: res.body.data.brand.id, name: 'Ada Prints', plan: 'free', role: 'owner' });
    assert.equal(session.body.data.mode, 'test');
    assert.equal(session.body.data.brands.length, 1);
    assert.match(session.body.data.csrfToken, /^[A-Za-z0-9_-]{43}$/);

    const ping = await client.call('GET', '/api/v1/ping');
    assert.equal(ping.status, 200);
    assert.equal(ping.body.data.brandID, res.body.data.brand.id);
    assert.equal(ping.body.data.mode, 'test');
    assert.ok(ping.body.data.scopes.includes('products:read'));

    // The token is stored hashed: the cookie's value is nowhere in the table.
    const rows = await t.db.query<{ token_hash: string }>('SELECT token_hash FROM sessions');
    assert.ok(rows.every((r) => r.token_hash !== client.cookie && r.token_hash.length === 64));
    const [user] = await t.db.query<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = $1', [res.body.data.user.id]);
    assert.match(user.password_hash, /^\$argon2id\$/);
  });

  it('switches between test and live, and /api/v1/transactions follows the session mode', async () => {
    const { client, brand } = await signUp(t);
    const testTxn = await createTransaction(t.db, { brandId: brand.id, mode: 'test' });
    const liveTxn = await createTransaction(t.db, { brandId: brand.id, mode: 'live' });
    const inTest = await client.call('GET', '/api/v1/transactions');
    assert.deepEqual(inTest.body.data.items.map((x: any) => x.txref), [testTxn.txref]);

    const switched = await client.call('PATCH', '/dashboard/api/session', { mode: 'live' });
    assert.equal(switched.status, 200, JSON.stringify(switched.body));
    assert.equal(switched.body.data.mode, 'live');
    const inLive = await client.call('GET', '/api/v1/transactions');
    assert.deepEqual(inLive.body.data.items.map((x: any) => x.txref), [liveTxn.txref]);
    assert.equal((await client.call('GET', '/api/v1/ping')).body.data.mode, 'live');

    const otherBrand = await client.call('PATCH', '/dashboard/api/session', { brandId: 'brand_notmine' });
    assert.equal(otherBrand.status, 404);
    const badMode = await client.call('PATCH', '/dashboard/api/session', { mode: 'staging' });
    assert.equal(badMode.status, 400);
    assert.equal(badMode.body.data.code, 'validation_failed');
  });

  it('refuses session writes without the CSRF token or from a foreign Origin', async () => {
    const { client } = await signUp(t);
    const body = { url: 'https://example.com/hook', events: ['member.joined'] };
    const noToken = await client.call('POST', '/api/v1/webhooks', body, { 'x-csrf-token': '' });
    assert.equal(noToken.status, 403);
    assert.equal(noToken.body.data.code, 'csrf_failed');
    const wrongToken = await client.call('POST', '/api/v1/webhooks', body, { 'x-csrf-token': 'x'.repeat(43) });
    assert.equal(wrongToken.status, 403);
    const foreign = await client.call('POST', '/api/v1/webhooks', body, { origin: 'https://evil.example' });
    assert.equal(foreign.status, 403);
    assert.equal(foreign.body.data.code, 'csrf_failed');
    const dashboardNoToken = await client.call('PATCH', '/dashboard/api/session', { mode: 'live' }, { 'x-csrf-token': '' });
    assert.equal(dashboardNoToken.status, 403);
    const foreignSignIn = await dashboardClient(t).call('POST', '/dashboard/api/signin', { email: 'a@example.com', password: 'whatever12' }, { origin: 'https://evil.example' });
    assert.equal(foreignSignIn.status, 403);

    const good = await client.call('POST', '/api/v1/webhooks', body, { origin: 'http://localhost:3000' });
    assert.equal(good.status, 200, JSON.stringify(good.body));
    // Reads need no token.
    assert.equal((await client.call('GET', '/api/v1/webhooks', undefined, { 'x-csrf-token': '' })).status, 200);
  });

  it('signing out ends the session for every request', async () => {
    const { client, email, password } = await signUp(t);
    const second = dashboardClient(t);
    assert.equal((await second.call('POST', '/dashboard/api/signin', { email, password })).status, 200);
    const stolen = client.cookie;
    const out = await client.call('POST', '/dashboard/api/signout');
    assert.equal(out.status, 200);
    assert.match(String([out.headers['set-cookie']].flat()[0]), /Max-Age=0/);
    const replay = dashboardClient(t);
    replay.cookie = stolen;
    const ping = await replay.call('GET', '/api/v1/ping');
    assert.equal(ping.status, 401);
    assert.equal(ping.body.data.code, 'authentication_required');
    assert.equal((await replay.call('GET', '/dashboard/api/session')).status, 401);
    assert.equal((await second.call('GET', '/api/v1/ping')).status, 401, 'sessions on other devices end too');
  });

  it('a password change ends the other sessions and keeps this one', async () => {
    const { client, email, password } = await signUp(t);
    const other = dashboardClient(t);
    await other.call('POST', '/dashboard/api/signin', { email, password });
    assert.equal((await other.call('GET', '/api/v1/ping')).status, 200);

    const wrong = await client.call('POST', '/dashboard/api/password', { currentPassword: 'not it at all', newPassword: 'a brand new secret' });
    assert.equal(wrong.status, 400);
    const short = await client.call('POST', '/dashboard/api/password', { currentPassword: password, newPassword: 'short' });
    assert.equal(short.status, 400);
    assert.match(short.body.message, /newPassword/);

    const changed = await client.call('POST', '/dashboard/api/password', { currentPassword: password, newPassword: 'a brand new secret' });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.equal((await client.call('GET', '/api/v1/ping')).status, 200);
    assert.equal((await other.call('GET', '/api/v1/ping')).status, 401);
    assert.equal((await dashboardClient(t).call('POST', '/dashboard/api/signin', { email, password })).status, 401);
    assert.equal((await dashboardClient(t).call('POST', '/dashboard/api/signin', { email, password: 'a brand new secret' })).status, 200);
  });

  it('answers one generic message for a wrong password or an unknown email', async () => {
    const { email } = await signUp(t);
    const wrong = await dashboardClient(t).call('POST', '/dashboard/api/signin', { email, password: 'wrong password' });
    const unknown = await dashboardClient(t).call('POST', '/dashboard/api/signin', { email: 'nobody@example.com', password: 'wrong password' });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.data.code, 'invalid_credentials');
    assert.equal(unknown.body.message, wrong.body.message);
    assert.equal(unknown.body.data.code, wrong.body.data.code);
  });

  it('refuses bad sign-up input with 4xx in the envelope', async () => {
    const { email } = await signUp(t);
    const client = dashboardClient(t);
    const cases: [unknown, number, RegExp][] = [
      [{ name: 'A', email: 'fresh1@example.com', password: 'short', brandName: 'B' }, 400, /password/],
      [{ name: 'A', email: 'not-an-email', password: 'long enough pw', brandName: 'B' }, 400, /email/],
      [{ name: 'A', email: email.toUpperCase(), password: 'long enough pw', brandName: 'B' }, 409, /already exists/],
      [{ name: 'A', email: 'fresh2@example.com', password: 'long enough pw' }, 400, /brandName/],
      [{ name: '   ', email: 'fresh3@example.com', password: 'long enough pw', brandName: 'B' }, 400, /name/],
      [{ name: 'A', email: 'fresh4@example.com', password: 'long enough pw', brandName: 'B', admin: true }, 400, /admin/],
    ];
    for (const [body, status, message] of cases) {
      const res = await client.call('POST', '/dashboard/api/signup', body);
      assert.equal(res.status, status, JSON.stringify(res.body));
      assert.equal(res.body.status, 'error');
      assert.match(res.body.message, message);
    }
    const notJson = await t.app.inject({ method: 'POST', url: '/dashboard/api/signup', headers: { 'content-type': 'application/json' }, payload: '{' });
    assert.equal(notJson.statusCode, 400);
    assert.equal((await dashboardClient(t).call('GET', '/dashboard/api/session')).status, 401);
  });

  it('readSession and signInUrl, as other parts of the server use them', async () => {
    const { client, user, brand } = await signUp(t);
    const info = await readSession(t.db, { headers: { cookie: `other=1; cc_session=${client.cookie}` } } as never);
    assert.equal(info?.userId, user.id);
    assert.equal(info?.brandId, brand.id);
    assert.equal(info?.role, 'owner');
    assert.equal(info?.mode, 'test');
    assert.equal(info?.csrfToken, client.csrfToken);
    assert.equal(await readSession(t.db, { headers: { cookie: 'cc_session=nope' } } as never), null);
    assert.equal(await readSession(t.db, { headers: {} } as never), null);

    assert.equal(signInUrl('/dashboard/products?x=1'), '/dashboard/signin?returnTo=%2Fdashboard%2Fproducts%3Fx%3D1');
    for (const bad of ['//evil.example/x', 'https://evil.example', '/\\evil.example', 'dashboard', '/a\nb']) {
      assert.equal(signInUrl(bad), '/dashboard/signin?returnTo=%2Fdashboard', bad);
    }
  });
});
