import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { dashboardClient, signUp, type DashboardClient } from '../testing/dashboard.ts';
import { createKey } from '../testing/factories.ts';

/**
 * The developer settings' session routes (HELPERS.md, "API keys from the dashboard"): a person
 * signed up through POST /dashboard/api/signup makes, lists, rolls and revokes keys and reveals a
 * webhook secret with the session cookie and x-csrf-token, and the keys work on the API.
 */

let t: TestApp;
before(async () => { t = await startTestApp({ keyCacheMs: 1000 }); });
after(async () => { await t?.close(); });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ping = async (key: string) => (await t.request({ method: 'GET', url: '/api/v1/ping', key }));

async function makeKey(client: DashboardClient, body: object = { name: 'Zapier', scopes: ['products:read', 'webhooks:write'] }) {
  const res = await client.call('POST', '/dashboard/api/keys', body);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data;
}

describe('API keys in the dashboard', () => {
  it('creates a key shown once, in the session\'s mode, that works on the API', async () => {
    const { client, brand } = await signUp(t);
    assert.deepEqual((await client.call('GET', '/dashboard/api/keys')).body.data.items, []);
    const made = await makeKey(client);
    assert.match(made.key, /^svc_test_[A-Za-z0-9_-]{32}$/, 'a new brand starts in test mode');
    assert.equal(made.mode, 'test');
    assert.equal(made.name, 'Zapier');
    assert.deepEqual(made.scopes, ['products:read', 'webhooks:write']);
    assert.equal(made.prefix, made.key.slice(0, 13));
    assert.equal(made.lastFour, made.key.slice(-4));
    const use = await ping(made.key);
    assert.equal(use.statusCode, 200);
    assert.equal(use.json().data.brandID, brand.id);

    const list = await client.call('GET', '/dashboard/api/keys');
    assert.equal(list.status, 200);
    const [item] = list.body.data.items;
    assert.deepEqual(Object.keys(item).sort(), ['createdAt', 'expiresAt', 'id', 'lastFour', 'lastUsedAt', 'mode', 'name', 'prefix', 'revokedAt', 'scopes']);
    assert.ok(!JSON.stringify(list.body).includes(made.key.slice(13, -4)), 'the list never shows the key');

    // The toggle: live mode shows live keys only, and makes live keys.
    assert.equal((await client.call('PATCH', '/dashboard/api/session', { mode: 'live' })).status, 200);
    assert.deepEqual((await client.call('GET', '/dashboard/api/keys')).body.data.items, []);
    assert.match((await makeKey(client, { name: 'prod', scopes: ['products:read'] })).key, /^svc_live_/);
    assert.equal((await client.call('POST', `/dashboard/api/keys/${made.id}/revoke`)).status, 404, 'a test key is not found in live mode');
  });

  it('rolls a key: both work during the grace period, the old one is refused after it', async () => {
    const { client } = await signUp(t);
    const made = await makeKey(client);
    assert.equal((await ping(made.key)).statusCode, 200);
    const res = await client.call('POST', `/dashboard/api/keys/${made.id}/roll`, { graceSeconds: 2 });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const { key: next, previous } = res.body.data;
    assert.match(next.key, /^svc_test_/);
    assert.equal(next.name, made.name);
    assert.deepEqual(next.scopes, made.scopes);
    assert.equal(previous.id, made.id);
    assert.equal(previous.key, undefined, 'the old record never carries a key');
    const expiresAt = Date.parse(previous.expiresAt);
    assert.equal((await ping(next.key)).statusCode, 200);
    while (Date.now() < expiresAt - 500) {
      assert.equal((await ping(made.key)).statusCode, 200, 'the old key works during its grace');
      await sleep(100);
    }
    await sleep(Math.max(0, expiresAt - Date.now()) + 20);
    assert.equal((await ping(made.key)).statusCode, 401, 'and is refused after it');
    assert.equal((await ping(next.key)).statusCode, 200);
  });

  it('rolls with grace 0 and revokes: the old key is refused on the next request', async () => {
    const { client } = await signUp(t);
    const made = await makeKey(client);
    assert.equal((await ping(made.key)).statusCode, 200);
    const rolled = (await client.call('POST', `/dashboard/api/keys/${made.id}/roll`, { graceSeconds: 0 })).body.data;
    assert.equal((await ping(made.key)).statusCode, 401);
    assert.equal((await ping(rolled.key.key)).statusCode, 200);
    const revoked = await client.call('POST', `/dashboard/api/keys/${rolled.key.id}/revoke`);
    assert.equal(revoked.status, 200);
    assert.ok(revoked.body.data.revokedAt);
    assert.equal((await ping(rolled.key.key)).statusCode, 401);
    assert.equal((await client.call('POST', `/dashboard/api/keys/${rolled.key.id}/roll`, { graceSeconds: 60 })).status, 409, 'a revoked key cannot be rolled');
  });

  it('refuses bad input with a 400 naming the field', async () => {
    const { client } = await signUp(t);
    const made = await makeKey(client);
    const cases: [string, string, object, RegExp][] = [
      ['/dashboard/api/keys', 'POST', { name: 'x', scopes: ['products:read', 'root'] }, /scopes\[1\]/],
      ['/dashboard/api/keys', 'POST', { name: 'x', scopes: [] }, /scopes/],
      ['/dashboard/api/keys', 'POST', { name: '', scopes: ['products:read'] }, /name/],
      ['/dashboard/api/keys', 'POST', { scopes: ['products:read'] }, /name/],
      [`/dashboard/api/keys/${made.id}/roll`, 'POST', { graceSeconds: 604_801 }, /graceSeconds/],
      [`/dashboard/api/keys/${made.id}/roll`, 'POST', { graceSeconds: -1 }, /graceSeconds/],
      [`/dashboard/api/keys/${made.id}/roll`, 'POST', {}, /graceSeconds/],
    ];
    for (const [url, method, body, field] of cases) {
      const res = await client.call(method, url, body);
      assert.equal(res.status, 400, `${JSON.stringify(body)}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.data.code, 'validation_failed');
      assert.match(res.body.message, field);
    }
  });

  it('is session only, checks CSRF, and hides other brands\' keys', async () => {
    const { client, brand } = await signUp(t);
    const made = await makeKey(client);
    // No x-csrf-token, or a foreign Origin: 403 csrf_failed, nothing made.
    const noToken = await client.call('POST', '/dashboard/api/keys', { name: 'x', scopes: ['products:read'] }, { 'x-csrf-token': '' });
    assert.equal(noToken.status, 403);
    assert.equal(noToken.body.data.code, 'csrf_failed');
    const foreign = await client.call('POST', `/dashboard/api/keys/${made.id}/revoke`, undefined, { origin: 'https://evil.example' });
    assert.equal(foreign.status, 403);
    assert.equal(foreign.body.data.code, 'csrf_failed');
    assert.equal((await client.call('GET', '/dashboard/api/keys')).body.data.items.length, 1);
    assert.equal((await ping(made.key)).statusCode, 200, 'the refused revoke did nothing');
    // An API key, even the brand's own with every scope, cannot manage keys.
    const key = await createKey(t.db, brand.id);
    const byKey = await t.request({ method: 'POST', url: '/dashboard/api/keys', key: key.key, payload: { name: 'x', scopes: ['products:read'] } });
    assert.equal(byKey.statusCode, 403, byKey.body);
    assert.equal((await t.request({ method: 'GET', url: '/dashboard/api/keys', key: key.key })).statusCode, 403);
    // Signed out: 401.
    assert.equal((await dashboardClient(t).call('GET', '/dashboard/api/keys')).status, 401);
    // Another brand's person sees none of it.
    const other = await signUp(t);
    assert.deepEqual((await other.client.call('GET', '/dashboard/api/keys')).body.data.items, []);
    assert.equal((await other.client.call('POST', `/dashboard/api/keys/${made.id}/revoke`)).status, 404);
    assert.equal((await other.client.call('POST', `/dashboard/api/keys/${made.id}/roll`, { graceSeconds: 0 })).status, 404);
    assert.equal((await ping(made.key)).statusCode, 200);
    for (const bad of ['key%00x', 'a%20b', 'k'.repeat(3000)]) {
      assert.equal((await client.call('POST', `/dashboard/api/keys/${bad}/revoke`)).status, 404, bad.slice(0, 10));
      assert.equal((await client.call('GET', `/dashboard/api/webhooks/${bad}/secret`)).status, 404, bad.slice(0, 10));
    }
  });

  it('lets a developer member manage keys too', async () => {
    const owner = await signUp(t);
    const invite = await owner.client.call('POST', '/dashboard/api/invites', { role: 'developer' });
    assert.equal(invite.status, 200, JSON.stringify(invite.body));
    const token = new URL(invite.body.data.link).searchParams.get('token');
    const dev = dashboardClient(t);
    const joined = await dev.call('POST', '/dashboard/api/invites/accept', { token, name: 'Dev', email: `dev-${Date.now()}@example.com`, password: 'another horse battery' });
    assert.equal(joined.status, 200, JSON.stringify(joined.body));
    await dev.refresh();
    const made = await makeKey(dev, { name: 'ci', scopes: ['webhooks:write'] });
    assert.equal((await ping(made.key)).json().data.brandID, owner.brand.id);
    assert.equal((await owner.client.call('GET', '/dashboard/api/keys')).body.data.items[0].id, made.id);
  });
});

describe('revealing a webhook signing secret in the dashboard', () => {
  it('shows the current secret to a signed-in member, after a roll the new one, and to no one else', async () => {
    const { client, brand } = await signUp(t);
    // The session works on /api/v1 too (accounts), with the CSRF token on writes.
    const created = await client.call('POST', '/api/v1/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['transaction.succeeded'] });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const ep = created.body.data;
    const shown = await client.call('GET', `/dashboard/api/webhooks/${ep.id}/secret`);
    assert.equal(shown.status, 200, JSON.stringify(shown.body));
    assert.equal(shown.body.data.signingSecret, ep.signingSecret);
    assert.equal(shown.headers['cache-control'], 'no-store');

    const rolled = await client.call('POST', `/api/v1/webhooks/${ep.id}/secret/roll`, { overlapSeconds: 0 });
    assert.equal(rolled.status, 200, JSON.stringify(rolled.body));
    assert.equal((await client.call('GET', `/dashboard/api/webhooks/${ep.id}/secret`)).body.data.signingSecret, rolled.body.data.signingSecret);

    const other = await signUp(t);
    assert.equal((await other.client.call('GET', `/dashboard/api/webhooks/${ep.id}/secret`)).status, 404);
    const key = await createKey(t.db, brand.id);
    assert.equal((await t.request({ method: 'GET', url: `/dashboard/api/webhooks/${ep.id}/secret`, key: key.key })).statusCode, 403, 'not with an API key');
    assert.equal((await dashboardClient(t).call('GET', `/dashboard/api/webhooks/${ep.id}/secret`)).status, 401);
  });

  it('lets a developer member grant, roll and revoke only the scopes the role holds', async () => {
    const owner = await signUp(t);
    const ownerKey = await makeKey(owner.client, { name: 'Everything', scopes: ['customers:read', 'webhooks:write'] });
    const link = (await owner.client.call('POST', '/dashboard/api/invites', { role: 'developer' })).body.data.link;
    const dev = dashboardClient(t);
    const token = new URL(link).searchParams.get('token');
    const email = `dev-${Date.now()}@example.com`;
    assert.equal((await dev.call('POST', '/dashboard/api/invites/accept', { token, name: 'Dev', email, password: 'developer secret' })).status, 200);
    await dev.refresh();

    const beyond = await dev.call('POST', '/dashboard/api/keys', { name: 'Sneaky', scopes: ['customers:read'] });
    assert.equal(beyond.status, 403, JSON.stringify(beyond.body));
    assert.match(beyond.body.message, /customers:read/);
    const rolled = await dev.call('POST', `/dashboard/api/keys/${ownerKey.id}/roll`, { graceSeconds: 0 });
    assert.equal(rolled.status, 403, 'rolling would show the developer a key that reads customers');
    assert.equal((await ping(ownerKey.key)).statusCode, 200, 'the refused roll left the owner\'s key working');
    const revoked = await dev.call('POST', `/dashboard/api/keys/${ownerKey.id}/revoke`);
    assert.equal(revoked.status, 403, 'revoking follows the same rule as rolling');
    assert.match(revoked.body.message, /revoke a key that holds customers:read/);
    assert.equal((await ping(ownerKey.key)).statusCode, 200, 'the refused revoke left the owner\'s key working');

    const own = await dev.call('POST', '/dashboard/api/keys', { name: 'Hooks', scopes: ['webhooks:write'] });
    assert.equal(own.status, 200, JSON.stringify(own.body));
  });
});
