import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadCatalog } from '../catalog/load.ts';
import { advance, buyPlan, buyProduct, recurringBrand, recurringCatalog, sub341 } from '../testing/subscriptions.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { dashboardClient, signUp } from '../testing/dashboard.ts';
import { createKey } from '../testing/factories.ts';
import { startTestSmtp, type TestSmtp } from '../testing/smtp.ts';

/**
 * Every kind of mail, as a real SMTP server receives it: renewal receipts, failed renewals, the
 * end of a membership, cancellation, and to the brand's owners a settled payout and a disabled
 * webhook endpoint; team invites and password resets whose links work when followed.
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

const mailTo = (to: string, subject?: RegExp) =>
  smtp.received.filter((m) => m.envelope.to.includes(to.toLowerCase()) || m.envelope.to.includes(to)).filter((m) => !subject || subject.test(m.parsed.subject ?? ''));

async function waitForMail(to: string, subject: RegExp, count = 1) {
  const started = Date.now();
  while (mailTo(to, subject).length < count) {
    if (Date.now() - started > 15_000) {
      throw new Error(`no "${subject}" mail for ${to}; got ${JSON.stringify(smtp.received.map((m) => [m.envelope.to, m.parsed.subject]))}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  return mailTo(to, subject);
}

async function cancel(key: string, membershipId: string, atPeriodEnd: boolean) {
  const res = await t.request({ method: 'POST', url: `/api/v1/memberships/${membershipId}/cancel`, key, payload: { atPeriodEnd } });
  assert.equal(res.statusCode, 200, res.body);
}

describe('buyer mail', () => {
  it('sends a receipt for the first payment and for each renewal of a membership', async () => {
    const b = await recurringBrand(t);
    const { email } = await buyPlan(t, b, 'monthly');
    const [first] = await waitForMail(email, /receipt/);
    assert.match(first.parsed.text ?? '', /Thank you for your purchase/);
    await advance(t, b.key, { by: '32d' });
    const receipts = await waitForMail(email, /receipt/, 2);
    const renewal = receipts.find((m) => /renewed/.test(m.parsed.text ?? ''));
    assert.ok(renewal, 'the second receipt is for the renewal');
    assert.match(renewal.parsed.text ?? '', /Club \(Monthly\)/);
    assert.match(renewal.parsed.text ?? '', /\$5\.00/);
  });

  it('tells the member each time a renewal fails, and when the membership ends', async () => {
    const b = await recurringBrand(t);
    const { email } = await buyPlan(t, b, 'monthly', sub341);
    await advance(t, b.key, { by: '32d' });
    const [failed] = await waitForMail(email, /renewal payment failed/);
    assert.match(failed.parsed.text ?? '', /could not charge \$5\.00 for Club \(Monthly\): the card was declined\./);
    await advance(t, b.key, { by: '10d' }); // past every retry (1d, 3d, 5d)
    await waitForMail(email, /renewal payment failed/, 4);
    const [ended] = await waitForMail(email, /membership has ended/);
    assert.match(ended.parsed.text ?? '', /Club \(Monthly\) ended on/);
  });

  it('confirms a cancellation at period end once, with the date access ends, and a cancellation now', async () => {
    const b = await recurringBrand(t);
    const later = await buyPlan(t, b, 'monthly');
    await cancel(b.key, later.membershipId, true);
    await cancel(b.key, later.membershipId, true); // again: nothing changes, nothing is sent
    const [mail] = await waitForMail(later.email, /cancelled/);
    assert.match(mail.parsed.text ?? '', /will not renew\. You keep access until \d+ \w+ \d{4}/);

    const now = await buyPlan(t, b, 'monthly');
    await cancel(b.key, now.membershipId, false);
    const [ended] = await waitForMail(now.email, /cancelled/);
    assert.match(ended.parsed.text ?? '', /is cancelled and your access has ended/);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(mailTo(later.email, /cancelled/).length, 1, 'the repeated cancel sent nothing');
  });
});

describe('mail to the brand\'s owners', () => {
  async function ownedBrand() {
    const owner = await signUp(t, { brandName: 'Owned Studio' });
    const ids = await t.db.transaction((tx) => loadCatalog(tx, owner.brand.id, recurringCatalog));
    const key = (await createKey(t.db, owner.brand.id, { mode: 'test' })).key;
    return { owner, b: { brandId: owner.brand.id, ids, key } };
  }

  it('tells every owner that a payout was settled', async () => {
    const { owner, b } = await ownedBrand();
    await buyProduct(t, b, 'usd');
    await advance(t, b.key, { by: '2d' });
    const [mail] = await waitForMail(owner.email, /payout of \$9\.20 settled/);
    assert.match(mail.parsed.text ?? '', /\$9\.20 \(after \$0\.80 in fees\) from 1 transactions was settled in test mode/);
    assert.match(mail.parsed.text ?? '', /See payouts: http:\/\/localhost:3000\/dashboard\/money\/payouts/);
  });

  it('tells the owners once that the service disabled a webhook endpoint, and nothing when the brand disabled one itself', async () => {
    const { owner, b } = await ownedBrand();
    // What webhooks/claim.ts does after five days of failures (or a 410): status and reason.
    const reason = `failing: every delivery attempt since ${new Date().toISOString().slice(0, 19)}Z failed`;
    await t.db.query(
      `INSERT INTO webhook_endpoints (brand_id, id, mode, url, events, status, disabled_reason, secret_sealed)
       VALUES ($1, 'we_failing1', 'test', 'https://hooks.example.com/in', '{transaction.succeeded}', 'disabled', $2, 'x'),
              ($1, 'we_byhand1', 'test', 'https://hooks.example.com/off', '{transaction.succeeded}', 'disabled', NULL, 'x')`,
      [b.brandId, reason],
    );
    const [mail] = await waitForMail(owner.email, /webhook endpoint of Owned Studio was disabled/);
    assert.match(mail.parsed.text ?? '', /We stopped sending events to https:\/\/hooks\.example\.com\/in \(test mode\): failing/);
    assert.match(mail.parsed.text ?? '', /\/dashboard\/developers\/webhooks\/we_failing1/);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(mailTo(owner.email, /disabled/).length, 1, 'told once, and not about the endpoint the brand turned off');
  });
});

describe('dashboard account mail', () => {
  it('mails a team invite whose link joins the brand when followed', async () => {
    const owner = await signUp(t, { brandName: 'Invite Studio' });
    const res = await owner.client.call('POST', '/dashboard/api/invites', { role: 'developer', email: 'new.dev@example.com' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.data.emailedTo, 'new.dev@example.com');
    const [mail] = await waitForMail('new.dev@example.com', /invited you to Invite Studio/);
    const link = /Accept the invite: (\S+)/.exec(mail.parsed.text ?? '')?.[1];
    assert.ok(link, mail.parsed.text);
    const token = new URL(link).searchParams.get('token');
    const joiner = dashboardClient(t);
    const page = await t.app.inject({ method: 'GET', url: new URL(link).pathname + new URL(link).search });
    assert.equal(page.statusCode, 200, 'the link opens the dashboard');
    const joined = await joiner.call('POST', '/dashboard/api/invites/accept', { token, name: 'New Dev', email: 'new.dev@example.com', password: 'a long enough password' }, { origin: 'http://localhost:3000' });
    assert.equal(joined.status, 200, JSON.stringify(joined.body));
    assert.equal(joined.body.data.brand.name, 'Invite Studio');
  });

  it('mails a password reset link that sets a new password, says the same for an unknown address, and mails at most one per few minutes', async () => {
    const owner = await signUp(t);
    const anon = dashboardClient(t);
    const origin = { origin: 'http://localhost:3000' };
    const asked = await anon.call('POST', '/dashboard/api/password-reset/request', { email: owner.email.toUpperCase() }, origin);
    assert.equal(asked.status, 200, JSON.stringify(asked.body));
    const unknown = await anon.call('POST', '/dashboard/api/password-reset/request', { email: 'nobody.here@example.com' }, origin);
    assert.equal(unknown.status, 200);
    assert.equal(unknown.body.message, asked.body.message, 'the same answer either way');
    await anon.call('POST', '/dashboard/api/password-reset/request', { email: owner.email }, origin);

    const [mail] = await waitForMail(owner.email, /Set a new password/);
    const link = /Set a new password: (\S+)/.exec(mail.parsed.text ?? '')?.[1];
    assert.ok(link, mail.parsed.text);
    const token = new URL(link).searchParams.get('token');
    const reset = await anon.call('POST', '/dashboard/api/password-reset', { token, newPassword: 'a brand new password' }, origin);
    assert.equal(reset.status, 200, JSON.stringify(reset.body));
    const signIn = await dashboardClient(t).call('POST', '/dashboard/api/signin', { email: owner.email, password: 'a brand new password' }, origin);
    assert.equal(signIn.status, 200, 'the new password works');
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(mailTo(owner.email, /Set a new password/).length, 1, 'one mail for two requests');
    assert.equal(mailTo('nobody.here@example.com').length, 0);
  });
});
