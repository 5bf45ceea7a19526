import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { advance, buyPlan, eventTypes, recurringBrand, sub341 } from '../testing/subscriptions.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { createLink } from '../testing/checkout-fixtures.ts';
import { startTestSmtp, type TestSmtp } from '../testing/smtp.ts';
import { startStripeFake, type StripeFake } from '../testing/stripe-fake.ts';
import { until } from '../testing/until.ts';

/**
 * A renewal that failed, from the buyer's side (docs/portal.md, Update card): the failed-renewal
 * mail's "Update your card" link, through sign-in, to the portal's card form; a new sandbox card
 * that the retry then charges; stopping the retries, which ends the membership as the API's
 * cancel does; and, for a subscription Stripe bills, Stripe's billing portal through the
 * official `stripe` package against testing/stripe-fake.ts.
 */
let t: TestApp;
let smtp: TestSmtp;
before(async () => {
  smtp = await startTestSmtp();
  t = await startTestApp({ publicUrl: 'http://portal.test', worker: true, mail: { smtpUrl: smtp.url, from: 'receipts@portal.test', retryScheduleMs: [50] } });
});
after(async () => {
  await t?.close();
  await smtp?.stop();
});

const mailTo = (email: string, subject: RegExp) => until(`a mail to ${email} matching ${subject}`,
  async () => smtp.received.find((m) => m.envelope.to.includes(email) && subject.test(String(m.parsed.subject))));

const subscriptionOf = async (membershipId: string) => (await t.db.query<{ id: string; status: string; periods_paid: number; failed_attempts: number; payment_method: string; current_period_end: Date }>(
  'SELECT s.* FROM subscriptions s JOIN memberships m ON m.brand_id = s.brand_id AND m.subscription_id = s.id WHERE m.id = $1', [membershipId]))[0];

const form = (path: string, cookie: string, fields: Record<string, string>, origin = 'http://portal.test') => t.app.inject({
  method: 'POST', url: path, headers: { cookie, origin, 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(fields).toString(),
});
const page = (path: string, cookie = '') => t.app.inject({ method: 'GET', url: path, headers: cookie ? { cookie } : {} });

/** Buys the monthly plan with the card that declines from its second charge, and moves the clock to its first renewal, which fails. */
async function failedRenewal() {
  const b = await recurringBrand(t);
  const bought = await buyPlan(t, b, 'monthly', sub341);
  const sub = await subscriptionOf(bought.membershipId);
  await advance(t, b.key, { to: new Date(sub.current_period_end.getTime() + 60_000).toISOString() });
  const failed = await subscriptionOf(bought.membershipId);
  assert.equal(failed.status, 'past_due');
  return { b, ...bought, sub: failed };
}

/** Signs in through a customer session (the emailed link is covered by the first test). */
async function signIn(key: string, email: string) {
  const minted = (await t.request({ method: 'POST', url: '/api/v1/customer-sessions', key, payload: { email } })).json().data;
  const res = await page(new URL(minted.url).pathname + new URL(minted.url).search);
  return { cookie: String(res.headers['set-cookie']).split(';')[0], home: new URL(String(res.headers.location)).pathname };
}

describe('a failed renewal in the buyer portal', () => {
  it('lands from the failed-renewal mail through sign-in, saves a new sandbox card, and the retry charges it', async () => {
    const { b, membershipId, email, sub } = await failedRenewal();
    const mail = await mailTo(email, /renewal payment failed/);
    const cardUrl = /Update your card: (http:\/\/portal\.test\/portal\/\S+\/memberships\/\S+\/card)/.exec(mail.parsed.text ?? '')?.[1];
    assert.ok(cardUrl, `the mail links the portal's card form: ${mail.parsed.text}`);
    assert.ok(cardUrl.endsWith(`/memberships/${membershipId}/card`));
    assert.equal(mail.parsed.headerLines.find((h) => h.key === 'list-unsubscribe'), undefined, 'transactional mail has no List-Unsubscribe');

    // Not signed in: the sign-in page, which remembers where the buyer was going.
    const cardPath = new URL(cardUrl).pathname;
    const anon = await page(cardPath);
    assert.equal(anon.statusCode, 401);
    assert.match(anon.body, new RegExp(`name="focus" value="${membershipId}"`));
    const home = cardPath.replace(/\/memberships\/.*/, '');
    const asked = await form(`${home}/sign-in`, '', { email, focus: membershipId });
    assert.equal(asked.statusCode, 200, asked.body);
    const signInMail = await mailTo(email, /sign-in link/);
    const enter = /(http:\/\/portal\.test\S+\/enter\?token=[\w-]+)/.exec(signInMail.parsed.text ?? '')![1];
    const entered = await page(new URL(enter).pathname + new URL(enter).search);
    assert.equal(entered.statusCode, 303);
    assert.match(String(entered.headers.location), new RegExp(`\\?focus=${membershipId}#${membershipId}$`), 'back to the membership the mail was about');
    const cookie = String(entered.headers['set-cookie']).split(';')[0];

    const overview = await page(home, cookie);
    assert.match(overview.body, /Payment failed/);
    assert.match(overview.body, /We will try again on/);
    assert.match(overview.body, new RegExp(`href="http://portal.test${cardPath}">Update card`));
    assert.match(overview.body, /Stop retrying and end my membership/);

    const cardForm = await page(cardPath, cookie);
    assert.equal(cardForm.statusCode, 200);
    assert.match(cardForm.body, /Update your card/);
    assert.match(cardForm.body, /<label for="card">Card number<\/label>/);

    // A card the sandbox declines is refused when saved; the subscription keeps its card.
    const declined = await form(cardPath, cookie, { card: '4000 0000 0000 0002' });
    assert.equal(declined.statusCode, 400);
    assert.match(declined.body, /The card was declined\. Try another card\./);
    assert.equal((await subscriptionOf(membershipId)).payment_method, sub.payment_method);
    assert.equal((await form(cardPath, cookie, { card: '1234' })).statusCode, 400, 'not a test card');
    assert.equal((await form(cardPath, cookie, { card: '4242 4242 4242 4242' }, 'https://evil.example.com')).statusCode, 403, 'a form from another site');

    const saved = await form(cardPath, cookie, { card: '4242 4242 4242 4242' });
    assert.equal(saved.statusCode, 303, saved.body);
    assert.match(String(saved.headers.location), /done=card-retrying/);
    assert.match((await page(String(saved.headers.location).replace('http://portal.test', ''), cookie)).body, /We are charging it for the renewal that failed now/);

    // The worker retries at once with the new card: renewed, the period paid, a receipt.
    const renewed = await until('the retry to succeed', async () => {
      const s = await subscriptionOf(membershipId);
      return s.status === 'active' && s.periods_paid === 2 ? s : undefined;
    });
    assert.equal(renewed.failed_attempts, 0);
    assert.notEqual(renewed.payment_method, sub.payment_method);
    const renewals = await t.db.query<{ status: string }>('SELECT status FROM transactions WHERE brand_id = $1 AND type = \'renewal\' ORDER BY created_at', [b.brandId]);
    assert.deepEqual(renewals.map((r) => r.status), ['failed', 'succeeded']);
    assert.deepEqual((await eventTypes(t, b.brandId, (type) => type.startsWith('subscription.'))).map((e) => e.type), ['subscription.renewed']);
    await until('the renewal\'s receipt', async () => smtp.received.find((m) => m.envelope.to.includes(email) && /Your membership renewed/.test(m.parsed.text ?? '')));
    assert.match((await page(home, cookie)).body, /Renews on/);
  });

  it('stops the retries: the membership ends now, with the API\'s events and a confirmation', async () => {
    const { b, membershipId, email } = await failedRenewal();
    const { cookie, home } = await signIn(b.key, email);
    const stopped = await form(`${home}/memberships/${membershipId}/cancel`, cookie, {});
    assert.equal(stopped.statusCode, 303);
    assert.match(String(stopped.headers.location), /done=ended/);
    assert.match((await page(String(stopped.headers.location).replace('http://portal.test', ''), cookie)).body, /We will not try to charge your card again/);
    const sub = await subscriptionOf(membershipId);
    assert.equal(sub.status, 'cancelled');
    const m = (await t.request({ method: 'GET', url: `/api/v1/hubs/${b.ids.club}/members/${membershipId}`, key: b.key })).json().data;
    assert.equal(m.status, 'expired');
    const tail = (await eventTypes(t, b.brandId, (type) => type === 'subscription.expired' || type === 'member.removed')).map((e) => e.type);
    assert.deepEqual(tail, ['subscription.expired', 'member.removed']);
    const confirmation = await mailTo(email, /membership is cancelled/);
    assert.match(confirmation.parsed.text ?? '', /your access has ended/);
    // Nothing is retried any more, and there is no card to update.
    await advance(t, b.key, { by: '10d' });
    const renewals = await t.db.query('SELECT 1 FROM transactions WHERE brand_id = $1 AND type = \'renewal\'', [b.brandId]);
    assert.equal(renewals.length, 1);
    assert.equal((await page(`${home}/memberships/${membershipId}/card`, cookie)).statusCode, 409);
  });

  it('refuses another buyer\'s card form and a membership with nothing to renew', async () => {
    const { b, membershipId } = await failedRenewal();
    const other = await buyPlan(t, b, 'monthly');
    const { cookie, home } = await signIn(b.key, other.email);
    assert.equal((await page(`${home}/memberships/${membershipId}/card`, cookie)).statusCode, 404);
    assert.equal((await form(`${home}/memberships/${membershipId}/card`, cookie, { card: '4242 4242 4242 4242' })).statusCode, 404);
    const free = await buyPlan(t, b, 'free');
    const freeSession = await signIn(b.key, free.email);
    assert.equal((await page(`${freeSession.home}/memberships/${free.membershipId}/card`, freeSession.cookie)).statusCode, 409);
  });
});

describe('updating the card of a subscription Stripe bills', () => {
  let s: TestApp;
  let stripe: StripeFake;
  let hook: string;
  before(async () => {
    stripe = await startStripeFake();
    s = await startTestApp({ stripe: stripe.appSettings, publicUrl: 'http://portal.test' });
    await s.app.listen({ port: 0, host: '127.0.0.1' });
    hook = `http://127.0.0.1:${(s.app.server.address() as AddressInfo).port}/providers/stripe/webhook`;
  });
  after(async () => {
    await s?.close();
    await stripe?.close();
  });

  it('sends the buyer to Stripe\'s billing portal on its payment-method flow; the card saved there pays the failed invoice', async () => {
    const b = await recurringBrand(s);
    const email = 'stripe-buyer@example.com';
    const link = await createLink(s, b.liveKey, { items: [{ id: b.ids.club, plan: b.ids.monthly, type: 'membership' }], form: { formData: { fullName: 'Ada Lovelace', email } } });
    const paid = await s.app.inject({ method: 'POST', url: `${link.path}/pay`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '' });
    assert.equal(paid.statusCode, 303, paid.body);
    const [tx] = await s.db.query<{ provider_reference: string }>('SELECT provider_reference FROM transactions WHERE brand_id = $1', [b.brandId]);
    const { session, events } = stripe.complete(tx.provider_reference);
    for (const e of events) assert.equal((await stripe.deliver(e, hook)).status, 200);
    assert.equal((await stripe.deliver(stripe.renewal(session.subscription, 'failed'), hook)).json.data.outcome, 'applied');
    const [m] = await s.db.query<{ id: string }>('SELECT id FROM memberships WHERE brand_id = $1', [b.brandId]);
    const sub = async () => (await s.db.query<{ status: string; periods_paid: number }>('SELECT status, periods_paid FROM subscriptions WHERE brand_id = $1', [b.brandId]))[0];
    assert.equal((await sub()).status, 'past_due');

    const minted = (await s.request({ method: 'POST', url: '/api/v1/customer-sessions', key: b.liveKey, payload: { email } })).json().data;
    const entered = await s.app.inject({ method: 'GET', url: new URL(minted.url).pathname + new URL(minted.url).search });
    const cookie = String(entered.headers['set-cookie']).split(';')[0];
    const home = new URL(String(entered.headers.location)).pathname;
    assert.match((await s.app.inject({ method: 'GET', url: home, headers: { cookie } })).body, /Update card/);
    const card = await s.app.inject({ method: 'GET', url: `${home}/memberships/${m.id}/card`, headers: { cookie } });
    assert.equal(card.statusCode, 303, card.body);
    const [created] = stripe.requests.filter((r) => r.path === '/v1/billing_portal/sessions');
    assert.ok(created, 'a billing portal session was made');
    const portalSession = [...stripe.portalSessions.values()][0];
    assert.equal(card.headers.location, portalSession.url);
    assert.equal(created.body.customer, stripe.subscriptions.get(session.subscription)!.customer);
    assert.equal(created.body.flow_data.type, 'payment_method_update');
    assert.equal(created.body.return_url, `http://portal.test${home}?done=card&focus=${m.id}`);
    assert.equal((await fetch(portalSession.url)).status, 200);

    // The buyer saves a card in Stripe's portal: Stripe pays the open invoice and tells us.
    for (const e of stripe.updateCard(portalSession.id)) assert.equal((await stripe.deliver(e, hook)).status, 200);
    assert.deepEqual(await sub(), { status: 'active', periods_paid: 2 });
  });
});
