import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ownerAddresses } from '../mail/repository.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { dashboardClient, signUp } from '../testing/dashboard.ts';
import { startTestSmtp, type TestSmtp } from '../testing/smtp.ts';

/**
 * Dashboard email verification on sign-up (docs/dashboard.md, Confirming your address), through a
 * real SMTP server: the mailed link confirms the address; until then the account works but the
 * service mails no one else for it.
 */
let t: TestApp;
let smtp: TestSmtp;
before(async () => {
  smtp = await startTestSmtp();
  t = await startTestApp({ worker: true, mail: { smtpUrl: smtp.url, from: 'hello@shop.test', retryScheduleMs: [100] } });
});
after(async () => {
  await t.close();
  await smtp.stop();
});

async function waitForMail(to: string, subject: RegExp, count = 1) {
  const started = Date.now();
  const got = () => smtp.received.filter((m) => m.envelope.to.includes(to.toLowerCase()) && subject.test(m.parsed.subject ?? ''));
  while (got().length < count) {
    if (Date.now() - started > 15_000) throw new Error(`no "${subject}" mail for ${to}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return got();
}

const linkIn = (text: string) => {
  const link = /Confirm my address: (\S+)/.exec(text)?.[1];
  assert.ok(link, text);
  return new URL(link);
};

describe('confirming a dashboard account\'s address', () => {
  it('mails a link on sign-up that confirms the address once, and the session says so', async () => {
    const owner = await signUp(t, { confirm: false, name: 'Ada Owner' });
    assert.equal((await owner.client.refresh()).body.data.emailVerified, false);
    const [mail] = await waitForMail(owner.email, /^Confirm your email address$/);
    assert.match(mail.parsed.text ?? '', /Hi Ada Owner, thank you for signing up/);
    const link = linkIn(mail.parsed.text ?? '');
    assert.equal(link.pathname, '/dashboard/verify-email');
    const page = await t.app.inject({ method: 'GET', url: link.pathname + link.search });
    assert.equal(page.statusCode, 200, 'the link opens the dashboard');

    // Followed on another device, signed out: the token is the proof.
    const res = await dashboardClient(t).call('POST', '/dashboard/api/email-verification', { token: link.searchParams.get('token') });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.data.user.email, owner.email);
    assert.equal((await owner.client.refresh()).body.data.emailVerified, true);

    const again = await dashboardClient(t).call('POST', '/dashboard/api/email-verification', { token: link.searchParams.get('token') });
    assert.equal(again.status, 400);
    assert.equal(again.body.data.details[0].field, 'token');
    assert.match(again.body.message, /unknown, used or expired/);
    const bad = await dashboardClient(t).call('POST', '/dashboard/api/email-verification', {});
    assert.equal(bad.status, 400);
    assert.match(bad.body.message, /token/);
  });

  it('lets an unconfirmed owner work, but not invite someone by mail, and mails them no owner notices', async () => {
    const owner = await signUp(t, { confirm: false });
    const byMail = await owner.client.call('POST', '/dashboard/api/invites', { role: 'developer', email: 'friend@example.com' });
    assert.equal(byMail.status, 403);
    assert.match(byMail.body.message, new RegExp(`Confirm your email address first to invite someone by mail .*${owner.email.replace(/[.+]/g, '\\$&')}`));
    const asLink = await owner.client.call('POST', '/dashboard/api/invites', { role: 'developer' });
    assert.equal(asLink.status, 200, 'an invite link to share by hand still works');
    const key = await owner.client.call('POST', '/dashboard/api/keys', { name: 'Test key', scopes: ['products:read'] });
    assert.equal(key.status, 200, `the dashboard works: ${JSON.stringify(key.body)}`);

    const [{ n }] = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM brand_members m JOIN users u ON u.id = m.user_id WHERE m.brand_id = $1 AND u.email_verified_at IS NULL`, [owner.brand.id]);
    assert.equal(n, 1);
    assert.deepEqual(await ownerAddresses(t.db, owner.brand.id), [], 'owner notices skip an unconfirmed address');
  });

  it('sends a new link on request at most once a minute, and a password reset by mail confirms the address too', async () => {
    const owner = await signUp(t, { confirm: false });
    const soon = await owner.client.call('POST', '/dashboard/api/email-verification/resend');
    assert.equal(soon.status, 429);
    assert.match(soon.body.message, /less than a minute ago/);

    const anon = dashboardClient(t);
    await anon.call('POST', '/dashboard/api/password-reset/request', { email: owner.email });
    const [reset] = await waitForMail(owner.email, /Set a new password/);
    const token = new URL(/Set a new password: (\S+)/.exec(reset.parsed.text ?? '')![1]).searchParams.get('token');
    const done = await anon.call('POST', '/dashboard/api/password-reset', { token, newPassword: 'a brand new password' });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.equal((await anon.refresh()).body.data.emailVerified, true);
  });
});
