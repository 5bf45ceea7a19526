import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { advance, buyPlan, recurringBrand } from '../testing/subscriptions.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { startTestSmtp, type TestSmtp } from '../testing/smtp.ts';

/**
 * The refund confirmation and the "your subscription ends on …" notice, as a real SMTP server
 * receives them, and neither when the brand turned its kind off.
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
  smtp.received.filter((m) => m.envelope.to.includes(to.toLowerCase())).filter((m) => !subject || subject.test(m.parsed.subject ?? ''));

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

async function txrefOf(brandId: string, email: string) {
  const [row] = await t.db.query<{ txref: string }>('SELECT txref FROM transactions WHERE brand_id = $1 AND customer_email = $2 AND status = \'succeeded\'', [brandId, email]);
  return row.txref;
}

async function refund(key: string, txref: string, body: object) {
  const res = await t.request({ method: 'POST', url: `/api/v1/transactions/${txref}/refund`, key, payload: body });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().data;
}

async function turnOff(key: string, kind: string) {
  const res = await t.request({ method: 'PATCH', url: '/api/v1/email-settings', key, payload: { buyerEmails: { [kind]: false } } });
  assert.equal(res.statusCode, 200, res.body);
}

describe('refund confirmation', () => {
  it('confirms a partial refund (access kept), then the rest (access ended), each once', async () => {
    const b = await recurringBrand(t);
    const { email } = await buyPlan(t, b, 'monthly');
    const txref = await txrefOf(b.brandId, email);
    await refund(b.key, txref, { amount: 2, reason: 'A late start' });
    const [first] = await waitForMail(email, /Your refund from/);
    assert.equal(first.envelope.to.length, 1);
    const text = first.parsed.text ?? '';
    assert.match(text, /refunded \$2\.00 of your payment for Club \(Monthly\): A late start/);
    assert.match(text, /Your access to Club \(Monthly\) is not affected\./);
    assert.match(text, new RegExp(`Payment:\\s*${txref}`));
    assert.doesNotMatch(text, /Refunded in all/);

    await refund(b.key, txref, { revokeAccess: true });
    const both = await waitForMail(email, /Your refund from/, 2);
    const second = both.find((m) => m !== first)!;
    assert.match(second.parsed.text ?? '', /refunded \$3\.00 of your payment/);
    assert.match(second.parsed.text ?? '', /Refunded in all:\s*\$5\.00 of \$5\.00/);
    assert.match(second.parsed.text ?? '', /Your access to Club \(Monthly\) has ended with this refund\./);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(mailTo(email, /Your refund from/).length, 2, 'one mail per refund');
  });

  it('sends nothing when the brand turned refund mail off', async () => {
    const b = await recurringBrand(t);
    await turnOff(b.key, 'refund');
    const { email } = await buyPlan(t, b, 'monthly');
    await waitForMail(email, /receipt/);
    await refund(b.key, await txrefOf(b.brandId, email), {});
    const [kept] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM mail_messages WHERE brand_id = $1 AND kind = \'refund\'', [b.brandId]);
    assert.equal(kept.n, 0, 'not even queued');
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(mailTo(email, /refund/i).length, 0);
  });
});

describe('your subscription ends on …', () => {
  it('tells the member when the renewal that starts the last period of a counted tier goes through, and not before', async () => {
    const b = await recurringBrand(t);
    const { email, membershipId } = await buyPlan(t, b, 'yearly'); // 4 periods
    await advance(t, b.key, { by: '366d' });
    await advance(t, b.key, { by: '366d' });
    await waitForMail(email, /receipt/, 3);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(mailTo(email, /subscription ends on/).length, 0, 'nothing before the last period');

    await advance(t, b.key, { by: '366d' });
    const [mail] = await waitForMail(email, /subscription ends on/);
    const sub = (await t.request({ method: 'GET', url: `/api/v1/hubs/${b.ids.club}/members/${membershipId}`, key: b.key })).json().data;
    const [row] = await t.db.query<{ current_period_end: Date }>('SELECT current_period_end FROM subscriptions WHERE brand_id = $1 AND id = (SELECT subscription_id FROM memberships WHERE brand_id = $1 AND id = $2)', [b.brandId, membershipId]);
    const endsOn = row.current_period_end.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
    assert.equal(sub.status, 'active');
    assert.equal(mail.parsed.subject, `Your ${(await brandName(b.brandId))} subscription ends on ${endsOn}`);
    assert.match(mail.parsed.text ?? '', /this is the last of the 4 periods of Club \(Yearly\)/);
    assert.match(mail.parsed.text ?? '', /It will not renew and you will not be charged again\./);
  });

  it('sends nothing for a tier that renews until cancelled, or when the brand turned the kind off', async () => {
    const b = await recurringBrand(t);
    await turnOff(b.key, 'subscription_ending');
    const counted = await buyPlan(t, b, 'yearly');
    for (let i = 0; i < 3; i++) await advance(t, b.key, { by: '366d' });
    await waitForMail(counted.email, /receipt/, 4);

    const other = await recurringBrand(t);
    const open = await buyPlan(t, other, 'monthly');
    await advance(t, other.key, { by: '32d' });
    await advance(t, other.key, { by: '32d' });
    await waitForMail(open.email, /receipt/, 3);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(mailTo(counted.email, /subscription ends on/).length, 0);
    assert.equal(mailTo(open.email, /subscription ends on/).length, 0);
  });
});

async function brandName(brandId: string) {
  const [row] = await t.db.query<{ name: string }>('SELECT name FROM brands WHERE id = $1', [brandId]);
  return row.name;
}
