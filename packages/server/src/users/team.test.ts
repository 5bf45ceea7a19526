import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { dashboardClient, signUp } from '../testing/dashboard.ts';
import { createPasswordReset } from './service.ts';

let t: TestApp;
before(async () => { t = await startTestApp(); });
after(async () => { await t.close(); });

const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

describe('roles, invites and the team', () => {
  it('invites a developer by a one-time link, who sees developer settings only', async () => {
    const owner = await signUp(t, { brandName: 'Team Studio' });
    const invite = await owner.client.call('POST', '/dashboard/api/invites', { role: 'developer' });
    assert.equal(invite.status, 200, JSON.stringify(invite.body));
    assert.match(invite.body.data.link, /^http:\/\/localhost:3000\/dashboard\/invite\?token=[A-Za-z0-9_-]{43}$/);
    const token = tokenOf(invite.body.data.link);

    const dev = dashboardClient(t);
    const accepted = await dev.call('POST', '/dashboard/api/invites/accept', { token, name: 'Dev Eloper', email: 'dev@example.com', password: 'developer secret' });
    assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
    assert.equal(accepted.body.data.brand.id, owner.brand.id);
    await dev.refresh();
    const session = await dev.call('GET', '/dashboard/api/session');
    assert.equal(session.body.data.brand.role, 'developer');

    const products = await dev.call('GET', '/api/v1/products');
    assert.equal(products.status, 403);
    assert.equal(products.body.data.code, 'scope_missing');
    assert.match(products.body.message, /^Your account lacks the products:read scope/);
    assert.equal((await dev.call('GET', '/api/v1/webhooks')).status, 200);
    assert.deepEqual((await dev.call('GET', '/api/v1/ping')).body.data.scopes, ['webhooks:write']);

    // Single use.
    const again = await dashboardClient(t).call('POST', '/dashboard/api/invites/accept', { token, name: 'Someone', email: 'someone@example.com', password: 'someone secret' });
    assert.equal(again.status, 400);
    assert.match(again.body.message, /unknown, used or expired/);

    // Developers cannot invite, list or remove.
    assert.equal((await dev.call('POST', '/dashboard/api/invites', { role: 'owner' })).status, 403);
    assert.equal((await dev.call('GET', '/dashboard/api/team')).status, 403);
    assert.equal((await dev.call('DELETE', `/dashboard/api/team/${owner.user.id}`)).status, 403);

    const team = await owner.client.call('GET', '/dashboard/api/team');
    assert.deepEqual(team.body.data.items.map((m: any) => [m.email, m.role]), [[owner.email, 'owner'], ['dev@example.com', 'developer']]);
    assert.ok(!JSON.stringify(team.body).includes('password'), 'no hashes in lists');
  });

  it('an existing account joins by signing in on the invite, and switches brands', async () => {
    const owner = await signUp(t, { brandName: 'Joinable' });
    const other = await signUp(t, { brandName: 'Own brand' });
    const link = (await owner.client.call('POST', '/dashboard/api/invites', { role: 'owner' })).body.data.link;
    const wrong = await dashboardClient(t).call('POST', '/dashboard/api/invites/accept', { token: tokenOf(link), email: other.email, password: 'not the password' });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.data.code, 'invalid_credentials');
    const fresh = dashboardClient(t);
    const joined = await fresh.call('POST', '/dashboard/api/invites/accept', { token: tokenOf(link), email: other.email, password: other.password });
    assert.equal(joined.status, 200, JSON.stringify(joined.body));
    const session = await fresh.refresh();
    assert.equal(session.body.data.brand.id, owner.brand.id);
    assert.equal(session.body.data.brands.length, 2);
    const back = await fresh.call('PATCH', '/dashboard/api/session', { brandId: other.brand.id });
    assert.equal(back.body.data.brand.id, other.brand.id);
    assert.equal((await fresh.call('GET', '/api/v1/ping')).body.data.brandID, other.brand.id);

    // Signed in already: the token alone joins.
    const link2 = (await owner.client.call('POST', '/dashboard/api/invites', { role: 'developer' })).body.data.link;
    const third = await signUp(t);
    const res = await third.client.call('POST', '/dashboard/api/invites/accept', { token: tokenOf(link2) });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal((await third.client.call('GET', '/api/v1/ping')).body.data.brandID, owner.brand.id);
  });

  it('refuses an expired invite and bad invite input', async () => {
    const owner = await signUp(t);
    const link = (await owner.client.call('POST', '/dashboard/api/invites', { role: 'developer' })).body.data.link;
    assert.equal((await owner.client.call('POST', '/dashboard/api/invites', { role: 'admin' })).status, 400);
    const noName = await dashboardClient(t).call('POST', '/dashboard/api/invites/accept', { token: tokenOf(link), email: 'new@example.com', password: 'long enough' });
    assert.equal(noName.status, 400);
    assert.match(noName.body.message, /name/);
    await t.db.query(`UPDATE invites SET expires_at = now() - interval '1 second'`);
    const expired = await dashboardClient(t).call('POST', '/dashboard/api/invites/accept', { token: tokenOf(link), name: 'N', email: 'new@example.com', password: 'long enough' });
    assert.equal(expired.status, 400);
  });

  it('removes members, owners only, never the last owner, and ends their sessions', async () => {
    const owner = await signUp(t);
    const link = (await owner.client.call('POST', '/dashboard/api/invites', { role: 'developer' })).body.data.link;
    const dev = dashboardClient(t);
    const joined = await dev.call('POST', '/dashboard/api/invites/accept', { token: tokenOf(link), name: 'D', email: `d${Date.now()}@example.com`, password: 'developer secret' });
    const last = await owner.client.call('DELETE', `/dashboard/api/team/${owner.user.id}`);
    assert.equal(last.status, 409);
    assert.match(last.body.message, /last owner/);
    assert.equal((await owner.client.call('DELETE', '/dashboard/api/team/usr_nobody')).status, 404);
    assert.equal((await owner.client.call('DELETE', '/dashboard/api/team/not%20an%20id')).status, 404);
    const removed = await owner.client.call('DELETE', `/dashboard/api/team/${joined.body.data.user.id}`);
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.equal((await dev.call('GET', '/api/v1/webhooks')).status, 401);
  });

  it('resets a password through a one-time link, ending every session', async () => {
    const { client, email } = await signUp(t);
    const { link } = await t.db.transaction((tx) => createPasswordReset(tx, t.config.publicUrl, email));
    assert.match(link, /^http:\/\/localhost:3000\/dashboard\/reset-password\?token=/);
    const short = await dashboardClient(t).call('POST', '/dashboard/api/password-reset', { token: tokenOf(link), newPassword: 'short' });
    assert.equal(short.status, 400);
    const fresh = dashboardClient(t);
    const reset = await fresh.call('POST', '/dashboard/api/password-reset', { token: tokenOf(link), newPassword: 'reset to this one' });
    assert.equal(reset.status, 200, JSON.stringify(reset.body));
    assert.equal((await client.call('GET', '/api/v1/ping')).status, 401, 'the old session ended');
    assert.equal((await fresh.call('GET', '/api/v1/ping')).status, 200, 'the reset signs in');
    const reused = await dashboardClient(t).call('POST', '/dashboard/api/password-reset', { token: tokenOf(link), newPassword: 'and again this' });
    assert.equal(reused.status, 400);
    assert.equal((await dashboardClient(t).call('POST', '/dashboard/api/signin', { email, password: 'reset to this one' })).status, 200);
  });
});
