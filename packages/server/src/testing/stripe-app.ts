import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { startTestApp, type TestApp } from './app.ts';
import { createLink } from './checkout-fixtures.ts';
import { startStripeFake, type StripeFake } from './stripe-fake.ts';

/**
 * The app with live payments on the Stripe fake (testing/stripe-fake.ts), listening on a real
 * port so the fake's hosted page can send buyers back and its events reach our webhook route.
 */
export interface StripeApp {
  t: TestApp;
  stripe: StripeFake;
  /** The app's origin, `http://127.0.0.1:<port>`. */
  base: string;
  /** Our Stripe webhook route, where the fake's events are delivered. */
  hook: string;
  close(): Promise<void>;
}

export async function startStripeApp(): Promise<StripeApp> {
  const stripe = await startStripeFake();
  const t = await startTestApp({ stripe: stripe.appSettings });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  return {
    t, stripe, base, hook: `${base}/providers/stripe/webhook`,
    async close() {
      await t.close();
      await stripe.close();
    },
  };
}

/** Pays a live link on Stripe's (fake) page and delivers Stripe's events, as live checkout does; returns our transaction. */
export async function buyLive(s: StripeApp, liveKey: string, brandId: string, body: unknown) {
  const link = await createLink(s.t, liveKey, body);
  const res = await fetch(`${s.base}${link.path}/pay`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
  assert.equal(res.status, 303);
  const [payment] = await s.t.db.query<{ txref: string; provider_reference: string }>('SELECT * FROM transactions WHERE brand_id = $1 AND payment_link_id = $2', [brandId, link.id]);
  const { session, events } = s.stripe.complete(payment.provider_reference);
  for (const e of events) assert.equal((await s.stripe.deliver(e, s.hook)).status, 200);
  return { txref: payment.txref, session, intent: s.stripe.intentOfSession(session.id) };
}
