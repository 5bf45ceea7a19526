import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { dashboardClient, signUp } from '../testing/dashboard.ts';

/** Sign-in throttling, by the client address Fastify sees (inject's remoteAddress). */
let t: TestApp;
before(async () => { t = await startTestApp(); });
after(async () => { await t.close(); });

const signIn = (address: string, email: string, password: string) =>
  dashboardClient(t, { address }).call('POST', '/dashboard/api/signin', { email, password });

describe('sign-in throttling', () => {
  it('refuses the 11th failed attempt for one account with 429 and Retry-After, even with the right password', async () => {
    const { email, password } = await signUp(t);
    for (let i = 1; i <= 10; i++) {
      const res = await signIn('10.0.1.1', email, `wrong password ${i}`);
      assert.equal(res.status, 401, `attempt ${i}`);
    }
    const eleventh = await signIn('10.0.1.1', email, 'wrong password 11');
    assert.equal(eleventh.status, 429);
    assert.equal(eleventh.body.data.code, 'rate_limited');
    const retryAfter = Number(eleventh.headers['retry-after']);
    assert.ok(retryAfter > 800 && retryAfter <= 900, `Retry-After ${retryAfter}`);
    assert.match(eleventh.body.message, /Try again in 15 minutes \(after \d\d:\d\d UTC\)/);
    assert.equal((await signIn('10.0.1.1', email, password)).status, 429, 'the right password waits too');
  });

  it('counts one account across several addresses', async () => {
    const { email, password } = await signUp(t);
    for (let i = 1; i <= 10; i++) assert.equal((await signIn(`10.0.2.${i}`, email, 'not the password')).status, 401);
    const res = await signIn('10.0.2.99', email, password);
    assert.equal(res.status, 429);
    assert.ok(Number(res.headers['retry-after']) > 0);
  });

  it('counts one address across accounts, known or not', async () => {
    const { email, password } = await signUp(t);
    for (let i = 1; i <= 10; i++) assert.equal((await signIn('10.0.3.1', `nobody${i}@example.com`, 'not the password')).status, 401);
    assert.equal((await signIn('10.0.3.1', email, password)).status, 429);
    assert.equal((await signIn('10.0.3.2', email, password)).status, 200, 'another address still signs in');
  });

  it('a successful sign-in clears the account count, not the address count', async () => {
    const { email, password } = await signUp(t);
    for (let i = 1; i <= 9; i++) assert.equal((await signIn(`10.0.4.${i}`, email, 'not the password')).status, 401);
    assert.equal((await signIn('10.0.4.50', email, password)).status, 200);
    for (let i = 1; i <= 9; i++) assert.equal((await signIn(`10.0.4.${100 + i}`, email, 'not the password')).status, 401);
    assert.equal((await signIn('10.0.4.51', email, password)).status, 200, 'nine fresh failures are under the limit');
  });

  it('lets the window pass', async () => {
    const { email, password } = await signUp(t);
    for (let i = 1; i <= 10; i++) await signIn('10.0.5.1', email, 'not the password');
    assert.equal((await signIn('10.0.5.1', email, password)).status, 429);
    // Age the failures past the 15-minute window instead of waiting for it.
    await t.db.query(`UPDATE sign_in_attempts SET created_at = created_at - interval '16 minutes' WHERE address = '10.0.5.1'`);
    assert.equal((await signIn('10.0.5.1', email, password)).status, 200);
  });
});
