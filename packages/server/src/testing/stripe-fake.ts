/**
 * A local fake of the few Stripe endpoints the service uses, for tests: an HTTP server on an
 * ephemeral port that the official `stripe` package talks to (`host`, `port`, `protocol`), with
 * objects shaped like Stripe's documented ones (checkout.session, payment_intent, invoice,
 * subscription: `id`, `object`, `livemode`, `created`, …), and helpers that play Stripe's part
 * after the buyer pays: complete or expire a session, bill or fail a renewal invoice, end a
 * subscription, and deliver the resulting events signed the way Stripe signs them.
 *
 *   const stripe = await startStripeFake();
 *   const t = await startTestApp({ stripe: stripe.appSettings });
 *   … the buyer is redirected to stripe.sessionUrl(id) …
 *   const { events } = stripe.complete(sessionId);            // checkout.session.completed, …
 *   await stripe.deliver(events[0], `${base}/providers/stripe/webhook`);
 *
 * Endpoints: POST /v1/checkout/sessions, GET /v1/checkout/sessions/:id,
 * POST and DELETE /v1/subscriptions/:id, DELETE /v1/subscriptions/:id/discount,
 * POST /v1/coupons, GET /v1/coupons/:id, POST /v1/refunds, GET /v1/refunds/:id,
 * GET /v1/payment_intents/:id, GET /v1/invoice_payments?invoice=…, GET /c/pay/:id (the "hosted page"),
 * GET /v1/subscriptions/:id, POST /v1/billing_portal/sessions and GET /p/session/:id (the billing
 * portal's page; `updateCard` plays the buyer saving a new card there).
 * Refunds follow Stripe's documented rules: a payment intent's charge can be refunded in parts up
 * to what it received; more is 400 `amount_too_large`, a fully refunded one 400
 * `charge_already_refunded`. Coupons follow Stripe's discount rules: a session's `discounts`
 * take the coupon off its total, and on a subscription the discount lasts by the coupon's
 * `duration`: the first invoice only (`once`), invoices of periods that start before the
 * discount's `end` (`repeating`, `duration_in_months` after it starts), or every one
 * (`forever`) until removed. Each `renewal()` moves the subscription on one billing period, as
 * Stripe's test clock advancing to the next billing date would. Requests need the fake's secret
 * key as a Bearer token; a repeated Idempotency-Key gets the first answer back, as Stripe does.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import type { StripeSettings } from '../config.ts';
import type { StripeEndpoint } from '../payments/stripe/client.ts';

type Obj = Record<string, any>;

export interface StripeFake {
  /** What startTestApp({ stripe }) takes: settings (a secret key and webhook secret) and this endpoint. */
  appSettings: { settings: StripeSettings; endpoint: StripeEndpoint };
  origin: string;
  sessions: Map<string, Obj>;
  subscriptions: Map<string, Obj>;
  /** Payment intents by id (each paid session or invoice has one), with `_refunded` kept beside them. */
  intents: Map<string, Obj>;
  refunds: Map<string, Obj>;
  coupons: Map<string, Obj>;
  /** Makes every later refund answer with this status (`pending` for a bank that takes days), or back to `succeeded`. */
  refundStatus: 'succeeded' | 'pending';
  /** Stripe finishes a pending refund: refund.updated (then refund.failed when it failed, charge.refunded when it succeeded). */
  settleRefund(refundId: string, status: 'succeeded' | 'failed'): Obj[];
  /** The brand refunds in Stripe's dashboard: the refund made, and Stripe's refund.created and charge.refunded events. */
  refundInDashboard(intentId: string, amount?: number): { refund: Obj; events: Obj[] };
  /** The buyer disputes the payment with their bank: the dispute, and Stripe's charge.dispute.created. */
  dispute(intentId: string, reason?: string): { dispute: Obj; events: Obj[] };
  /** The dispute is decided: charge.dispute.closed with status `won` or `lost`. */
  closeDispute(disputeId: string, status: 'won' | 'lost'): Obj[];
  /** The payment intent of a session (payment mode) or of its first invoice (subscription mode). */
  intentOfSession(sessionId: string): Obj;
  /** Every API request received: method, path and the decoded form body. */
  requests: { method: string; path: string; body: Obj }[];
  sessionUrl(id: string): string;
  /** The buyer pays: the session completes; returns the events Stripe would send, in its usual order. */
  complete(sessionId: string, options?: { paymentStatus?: 'paid' | 'unpaid' }): { session: Obj; events: Obj[] };
  expire(sessionId: string): Obj;
  /** Stripe Billing charges a renewal: invoice.paid or invoice.payment_failed for a new invoice of the subscription. */
  renewal(subscriptionId: string, outcome: 'paid' | 'failed', options?: { invoiceId?: string }): Obj;
  /** Billing portal sessions by id (billing_portal.session objects). */
  portalSessions: Map<string, Obj>;
  /**
   * The buyer saves a new card in the billing portal: it becomes the default payment method of
   * the customer's subscriptions, and Stripe pays each one's open (failed) invoice with it:
   * customer.subscription.updated, then invoice.paid for the invoice that had failed.
   */
  updateCard(portalSessionId: string): Obj[];
  /** Stripe ends the subscription (out of retries, or cancelled in its dashboard). */
  deleteSubscription(subscriptionId: string): Obj;
  /** An event as Stripe sends it. */
  event(type: string, object: Obj): Obj;
  /** POSTs the event to `url` with a valid Stripe-Signature (or `signature` as given). */
  deliver(event: Obj, url: string, options?: { signature?: string; secret?: string }): Promise<{ status: number; json: any }>;
  close(): Promise<void>;
}

const stamp = () => Math.floor(Date.now() / 1000);

/** `seconds` moved on by whole calendar months (Stripe's billing dates and a repeating discount's end). */
function addMonths(seconds: number, months: number): number {
  const d = new Date(seconds * 1000);
  d.setUTCMonth(d.getUTCMonth() + months);
  return Math.floor(d.getTime() / 1000);
}

/** The start of the next billing period after one starting at `seconds`, for a price's `recurring`. */
function addInterval(seconds: number, recurring: { interval: string; interval_count?: string | number }): number {
  const n = Number(recurring.interval_count ?? 1);
  if (recurring.interval === 'month') return addMonths(seconds, n);
  if (recurring.interval === 'year') return addMonths(seconds, 12 * n);
  return seconds + n * (recurring.interval === 'week' ? 7 : 1) * 86_400;
}

/** The subscription item's current period (where Stripe's API keeps it), from the fake's period start. */
function periodOn(sub: Record<string, any>) {
  Object.assign(sub.items.data[0], { current_period_start: sub._periodStart, current_period_end: addInterval(sub._periodStart, sub._interval) });
}
const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

/** Decodes Stripe's form encoding (`a[b][0][c]=v`) into nested objects and arrays. */
function decodeForm(raw: string): Obj {
  const out: Obj = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    const path = key.replace(/\]/g, '').split('[');
    let node: any = out;
    path.forEach((part, i) => {
      const last = i === path.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(path[i + 1]);
      if (last) node[part] = value;
      else node = node[part] ??= nextIsIndex ? [] : {};
    });
  }
  return out;
}

const body = (req: IncomingMessage) => new Promise<string>((resolve, reject) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  req.on('error', reject);
});

export async function startStripeFake(): Promise<StripeFake> {
  const secretKey = `sk_test_${randomBytes(12).toString('hex')}`;
  const webhookSecret = `whsec_${randomBytes(24).toString('base64').replace(/[^A-Za-z0-9]/g, '')}`;
  const signer = new Stripe(secretKey);
  const sessions = new Map<string, Obj>();
  const subscriptions = new Map<string, Obj>();
  const intents = new Map<string, Obj>();
  const refunds = new Map<string, Obj>();
  const disputes = new Map<string, Obj>();
  const coupons = new Map<string, Obj>();
  /** invoice id -> its invoice_payment objects. */
  const invoicePayments = new Map<string, Obj[]>();
  const idempotent = new Map<string, { status: number; json: Obj }>();
  const portalSessions = new Map<string, Obj>();
  const requests: StripeFake['requests'] = [];
  let origin = '';

  const error = (status: number, message: string, type = 'invalid_request_error') => ({
    status, json: { error: { type, message, ...(status === 404 && type === 'invalid_request_error' ? { code: 'resource_missing' } : {}) } },
  });

  function createSession(params: Obj): Obj {
    const id = newId('cs_test');
    const items: Obj[] = params.line_items ?? [];
    const subtotal = items.reduce((sum, li) => sum + Number(li.price_data?.unit_amount ?? 0) * Number(li.quantity ?? 1), 0);
    const coupon = params.discounts?.[0]?.coupon ? coupons.get(params.discounts[0].coupon) : undefined;
    const discount = coupon ? couponOff(coupon, subtotal) : 0;
    const total = subtotal - discount;
    const session = {
      id,
      object: 'checkout.session',
      livemode: false,
      created: stamp(),
      expires_at: stamp() + 86_400,
      mode: params.mode ?? 'payment',
      status: 'open',
      payment_status: 'unpaid',
      amount_total: total,
      amount_subtotal: subtotal,
      total_details: { amount_discount: discount, amount_shipping: 0, amount_tax: 0 },
      discounts: coupon ? [{ coupon: coupon.id, promotion_code: null }] : [],
      currency: items[0]?.price_data?.currency ?? null,
      client_reference_id: params.client_reference_id ?? null,
      customer: null,
      customer_email: params.customer_email ?? null,
      metadata: params.metadata ?? {},
      payment_intent: null,
      subscription: null,
      invoice: null,
      success_url: params.success_url ?? null,
      cancel_url: params.cancel_url ?? null,
      url: `${origin}/c/pay/${id}`,
      // Kept for the fake's own use (Stripe keeps these server-side too).
      _params: params,
    };
    sessions.set(id, session);
    return session;
  }

  /** What a coupon takes off an amount, never more than the amount. */
  const couponOff = (coupon: Obj, amount: number) => Math.min(amount, coupon.amount_off !== null
    ? Number(coupon.amount_off)
    : Math.round((amount * Number(coupon.percent_off)) / 100));

  function createCoupon(params: Obj): { status: number; json: Obj } {
    const duration = params.duration ?? 'once';
    if (params.amount_off === undefined && params.percent_off === undefined) return error(400, 'Must provide one of `amount_off` or `percent_off`.');
    if (params.amount_off !== undefined && !params.currency) return error(400, 'You must pass currency when passing amount_off.');
    if (duration === 'repeating' && !params.duration_in_months) return error(400, 'You must pass duration_in_months when duration is repeating.');
    if (duration !== 'repeating' && params.duration_in_months !== undefined) return error(400, 'duration_in_months may only be set when duration is repeating.');
    const coupon = {
      id: params.id ?? randomBytes(6).toString('hex'), object: 'coupon', livemode: false, created: stamp(),
      amount_off: params.amount_off === undefined ? null : Number(params.amount_off), percent_off: params.percent_off === undefined ? null : Number(params.percent_off),
      currency: params.currency ?? null, duration, duration_in_months: params.duration_in_months === undefined ? null : Number(params.duration_in_months),
      max_redemptions: params.max_redemptions === undefined ? null : Number(params.max_redemptions), metadata: params.metadata ?? {},
      name: params.name ?? null, redeem_by: null, times_redeemed: 0, valid: true,
    };
    coupons.set(coupon.id, coupon);
    return { status: 200, json: coupon };
  }

  /** A subscription's discount from a coupon, starting at `start` (seconds): `end` as Stripe sets it for a repeating one. */
  function discountOf(coupon: Obj, sub: Obj, start: number): Obj {
    const end = coupon.duration === 'repeating' ? addMonths(start, coupon.duration_in_months) : null;
    return {
      id: newId('di'), object: 'discount', checkout_session: null, customer: sub.customer, customer_account: null, end, invoice: null,
      invoice_item: null, promotion_code: null, source: { coupon: coupon.id, type: 'coupon' }, start, subscription: sub.id, subscription_item: null,
    };
  }

  const visible = (o: Obj) => Object.fromEntries(Object.entries(o).filter(([k]) => !k.startsWith('_')));

  async function route(req: IncomingMessage): Promise<{ status: number; json?: Obj; html?: string }> {
    const url = new URL(req.url ?? '/', origin);
    const raw = await body(req);
    if (req.method === 'GET' && url.pathname.startsWith('/c/pay/')) {
      const session = sessions.get(url.pathname.slice('/c/pay/'.length));
      return session
        ? { status: 200, html: `<!doctype html><title>Stripe Checkout (fake)</title><h1>Pay ${session.amount_total} ${session.currency}</h1>` }
        : { status: 404, html: 'no such session' };
    }
    if (req.method === 'GET' && url.pathname.startsWith('/p/session/')) {
      const ps = portalSessions.get(url.pathname.slice('/p/session/'.length));
      return ps
        ? { status: 200, html: `<!doctype html><title>Stripe billing portal (fake)</title><h1>Update your payment method</h1><p>${ps.customer}</p>` }
        : { status: 404, html: 'no such session' };
    }
    if (req.headers.authorization !== `Bearer ${secretKey}`) return error(401, 'Invalid API Key provided.', 'authentication_error');
    const params = decodeForm(raw);
    requests.push({ method: req.method ?? '', path: url.pathname, body: params });
    const key = req.headers['idempotency-key'];
    const cacheKey = typeof key === 'string' ? `${req.method} ${url.pathname} ${key}` : undefined;
    if (cacheKey && idempotent.has(cacheKey)) return idempotent.get(cacheKey)!;
    let answer: { status: number; json: Obj };
    let m: RegExpExecArray | null;
    if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
      const missing = (params.discounts as Obj[] | undefined)?.find((d) => !coupons.has(d.coupon));
      answer = missing ? { status: 400, json: { error: { type: 'invalid_request_error', code: 'resource_missing', param: 'discounts[0][coupon]', message: `No such coupon: '${missing.coupon}'` } } }
        : { status: 200, json: visible(createSession(params)) };
    } else if (req.method === 'GET' && (m = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(url.pathname))) {
      const s = sessions.get(m[1]);
      answer = s ? { status: 200, json: visible(s) } : error(404, `No such checkout.session: '${m[1]}'`);
    } else if (req.method === 'POST' && (m = /^\/v1\/subscriptions\/([^/]+)$/.exec(url.pathname))) {
      const sub = subscriptions.get(m[1]);
      if (!sub) answer = error(404, `No such subscription: '${m[1]}'`);
      else {
        if (params.cancel_at_period_end !== undefined) sub.cancel_at_period_end = params.cancel_at_period_end === 'true';
        answer = { status: 200, json: visible(sub) };
      }
    } else if (req.method === 'GET' && (m = /^\/v1\/subscriptions\/([^/]+)$/.exec(url.pathname))) {
      const sub = subscriptions.get(m[1]);
      answer = sub ? { status: 200, json: visible(sub) } : error(404, `No such subscription: '${m[1]}'`);
    } else if (req.method === 'POST' && url.pathname === '/v1/billing_portal/sessions') {
      answer = createPortalSession(params);
    } else if (req.method === 'DELETE' && (m = /^\/v1\/subscriptions\/([^/]+)\/discount$/.exec(url.pathname))) {
      const sub = subscriptions.get(m[1]);
      const current = sub?._discount as Obj | undefined;
      if (!sub) answer = error(404, `No such subscription: '${m[1]}'`);
      else if (!current) answer = { status: 404, json: { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No active discount for subscription: '${m[1]}'` } } };
      else {
        sub._discount = undefined;
        sub.discounts = [];
        const { end: _end, ...rest } = current;
        answer = { status: 200, json: { ...rest, deleted: true } };
      }
    } else if (req.method === 'POST' && url.pathname === '/v1/coupons') {
      answer = createCoupon(params);
    } else if (req.method === 'GET' && (m = /^\/v1\/coupons\/([^/]+)$/.exec(url.pathname))) {
      const c = coupons.get(m[1]);
      answer = c ? { status: 200, json: c } : error(404, `No such coupon: '${m[1]}'`);
    } else if (req.method === 'DELETE' && (m = /^\/v1\/subscriptions\/([^/]+)$/.exec(url.pathname))) {
      const sub = subscriptions.get(m[1]);
      if (!sub || sub.status === 'canceled') answer = error(404, `No such subscription: '${m[1]}'`);
      else {
        Object.assign(sub, { status: 'canceled', canceled_at: stamp(), ended_at: stamp() });
        answer = { status: 200, json: visible(sub) };
      }
    } else if (req.method === 'GET' && (m = /^\/v1\/payment_intents\/([^/]+)$/.exec(url.pathname))) {
      const pi = intents.get(m[1]);
      answer = pi ? { status: 200, json: visible(pi) } : error(404, `No such payment_intent: '${m[1]}'`);
    } else if (req.method === 'POST' && url.pathname === '/v1/refunds') {
      answer = createRefund(params);
    } else if (req.method === 'GET' && (m = /^\/v1\/refunds\/([^/]+)$/.exec(url.pathname))) {
      const r = refunds.get(m[1]);
      answer = r ? { status: 200, json: visible(r) } : error(404, `No such refund: '${m[1]}'`);
    } else if (req.method === 'GET' && url.pathname === '/v1/invoice_payments') {
      const invoice = url.searchParams.get('invoice') ?? '';
      const status = url.searchParams.get('status');
      const data = (invoicePayments.get(invoice) ?? []).filter((p) => !status || p.status === status);
      answer = { status: 200, json: { object: 'list', data, has_more: false, url: '/v1/invoice_payments' } };
    } else {
      answer = error(404, `Unrecognized request URL (${req.method}: ${url.pathname}).`);
    }
    if (cacheKey) idempotent.set(cacheKey, answer);
    return answer;
  }

  /** Stripe's rules for a billing portal session: a known customer; a flow's type from its list. */
  function createPortalSession(params: Obj): { status: number; json: Obj } {
    if (!params.customer) return { status: 400, json: { error: { type: 'invalid_request_error', code: 'parameter_missing', param: 'customer', message: 'Missing required param: customer.' } } };
    if (![...subscriptions.values()].some((s) => s.customer === params.customer)) return error(404, `No such customer: '${params.customer}'`);
    const flowTypes = ['payment_method_update', 'subscription_cancel', 'subscription_update', 'subscription_update_confirm'];
    if (params.flow_data && !flowTypes.includes(params.flow_data.type)) {
      return { status: 400, json: { error: { type: 'invalid_request_error', param: 'flow_data[type]', message: `Invalid flow_data[type]: must be one of ${flowTypes.join(', ')}` } } };
    }
    const id = newId('bps');
    const session = {
      id, object: 'billing_portal.session', configuration: newId('bpc'), created: stamp(), customer: params.customer,
      flow: params.flow_data ? { type: params.flow_data.type, after_completion: params.flow_data.after_completion ?? { type: 'portal_homepage' } } : null,
      livemode: false, locale: null, on_behalf_of: null, return_url: params.return_url ?? null, url: `${origin}/p/session/${id}`,
    };
    portalSessions.set(id, session);
    return { status: 200, json: session };
  }

  /** A succeeded payment intent with its charge, as Stripe makes one when a session or an invoice is paid. */
  function paidIntent(amount: number, currency: string, customer: string | null, metadata: Obj): Obj {
    const intent = {
      id: newId('pi'), object: 'payment_intent', livemode: false, created: stamp(), amount, amount_received: amount, currency, customer,
      status: 'succeeded', metadata, latest_charge: newId('ch'), _refunded: 0,
    };
    intents.set(intent.id, intent);
    return intent;
  }

  let refundStatus: 'succeeded' | 'pending' = 'succeeded';

  function refundObject(intent: Obj, amount: number, params: Obj, status: string): Obj {
    const refund = {
      id: newId('re'), object: 'refund', amount, balance_transaction: null, charge: intent.latest_charge, created: stamp(),
      currency: intent.currency, metadata: params.metadata ?? {}, payment_intent: intent.id, reason: params.reason ?? null,
      receipt_number: null, source_transfer_reversal: null, status, transfer_reversal: null,
    };
    refunds.set(refund.id, refund);
    if (status !== 'failed') intent._refunded += amount;
    return refund;
  }

  function createRefund(params: Obj): { status: number; json: Obj } {
    const intent = params.payment_intent ? intents.get(params.payment_intent) : undefined;
    if (!intent) return error(404, `No such payment_intent: '${params.payment_intent ?? ''}'`);
    const left = intent.amount_received - intent._refunded;
    if (left <= 0) return { status: 400, json: { error: { type: 'invalid_request_error', code: 'charge_already_refunded', message: `Charge ${intent.latest_charge} has already been refunded.` } } };
    const amount = params.amount === undefined ? left : Number(params.amount);
    if (amount > left) {
      return { status: 400, json: { error: { type: 'invalid_request_error', code: 'amount_too_large', param: 'amount', message: `Refund amount (${amount}) is greater than unrefunded amount on charge (${left})` } } };
    }
    return { status: 200, json: visible(refundObject(intent, amount, params, refundStatus)) };
  }

  function chargeOf(intent: Obj): Obj {
    return {
      id: intent.latest_charge, object: 'charge', livemode: false, created: intent.created, amount: intent.amount, amount_captured: intent.amount,
      amount_refunded: intent._refunded, currency: intent.currency, customer: intent.customer, metadata: intent.metadata, paid: true,
      payment_intent: intent.id, refunded: intent._refunded >= intent.amount, status: 'succeeded',
    };
  }

  const server: Server = createServer((req, res) => {
    route(req).then((a) => {
      res.writeHead(a.status, { 'content-type': a.html !== undefined ? 'text/html' : 'application/json', 'request-id': newId('req') });
      res.end(a.html ?? JSON.stringify(a.json));
    }, (err) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'api_error', message: String(err) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;

  function event(type: string, object: Obj): Obj {
    return {
      id: newId('evt'),
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: stamp(),
      data: { object: visible(object) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    };
  }

  /**
   * An invoice of the subscription for `subtotal` less `discount`; paid, it has its payment
   * intent and invoice_payment. `discount` is what the subscription's discount takes off (Stripe's
   * total_discount_amounts).
   */
  function invoiceOf(sub: Obj, billingReason: string, paid: boolean, id = newId('in'), subtotal: number = sub._amount, discount = 0): Obj {
    const total = subtotal - discount;
    if (paid) {
      // An invoice's payment intent carries none of the subscription's metadata, as in Stripe.
      const intent = paidIntent(total, sub.currency, sub.customer, {});
      invoicePayments.set(id, [{
        id: newId('inpay'), object: 'invoice_payment', amount_paid: total, amount_requested: total, created: stamp(), currency: sub.currency,
        invoice: id, is_default: true, livemode: false, payment: { type: 'payment_intent', payment_intent: intent.id }, status: 'paid',
        status_transitions: { canceled_at: null, paid_at: stamp() },
      }]);
    }
    const applied = discount > 0 && sub._discount ? sub._discount as Obj : undefined;
    return {
      id,
      object: 'invoice',
      livemode: false,
      created: sub._periodStart ?? stamp(),
      customer: sub.customer,
      currency: sub.currency,
      billing_reason: billingReason,
      status: paid ? 'paid' : 'open',
      subtotal,
      total,
      discounts: applied ? [applied.id] : [],
      total_discount_amounts: applied ? [{ amount: discount, discount: applied.id }] : [],
      amount_due: total,
      amount_paid: paid ? total : 0,
      amount_remaining: paid ? 0 : total,
      attempt_count: 1,
      next_payment_attempt: paid ? null : stamp() + 3 * 86_400,
      period_start: sub._periodStart ?? stamp(),
      parent: {
        type: 'subscription_details',
        quote_details: null,
        subscription_details: { metadata: sub.metadata, subscription: sub.id },
      },
    };
  }

  /** What the subscription's discount takes off an invoice for the period starting at `periodStart`, by the coupon's duration. */
  function renewalDiscount(sub: Obj, periodStart: number): number {
    const d = sub._discount as Obj | undefined;
    if (!d || (d.end !== null && periodStart >= d.end)) return 0;
    return couponOff(coupons.get(d.source.coupon)!, sub._amount);
  }

  const fake: StripeFake = {
    appSettings: { settings: { secretKey, webhookSecret }, endpoint: { host: '127.0.0.1', port, protocol: 'http' } },
    origin,
    sessions,
    subscriptions,
    intents,
    refunds,
    coupons,
    get refundStatus() { return refundStatus; },
    set refundStatus(status) { refundStatus = status; },
    requests,

    settleRefund(refundId, status) {
      const refund = refunds.get(refundId)!;
      const intent = intents.get(refund.payment_intent)!;
      refund.status = status;
      if (status === 'failed') intent._refunded -= refund.amount;
      const events = [event('refund.updated', refund)];
      if (status === 'failed') events.push(event('refund.failed', refund));
      else events.push(event('charge.refunded', chargeOf(intent)));
      return events;
    },

    refundInDashboard(intentId, amount) {
      const intent = intents.get(intentId)!;
      const refund = refundObject(intent, amount ?? intent.amount_received - intent._refunded, { reason: 'requested_by_customer' }, 'succeeded');
      return { refund, events: [event('refund.created', refund), event('charge.refunded', chargeOf(intent))] };
    },

    dispute(intentId, reason = 'fraudulent') {
      const intent = intents.get(intentId)!;
      const dispute: Obj = {
        id: newId('du'), object: 'dispute', livemode: false, created: stamp(), amount: intent.amount_received, currency: intent.currency,
        charge: intent.latest_charge, payment_intent: intent.id, reason, status: 'needs_response', is_charge_refundable: false, metadata: {},
      };
      disputes.set(dispute.id, dispute);
      return { dispute, events: [event('charge.dispute.created', dispute)] };
    },

    closeDispute(disputeId, status) {
      const dispute = disputes.get(disputeId)!;
      dispute.status = status;
      return [event('charge.dispute.closed', dispute)];
    },

    intentOfSession(sessionId) {
      const session = sessions.get(sessionId)!;
      if (session.payment_intent) return intents.get(session.payment_intent)!;
      const payment = invoicePayments.get(session.invoice)?.[0];
      return intents.get(payment?.payment.payment_intent)!;
    },
    sessionUrl: (id) => `${origin}/c/pay/${id}`,

    complete(sessionId, options = {}) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`The fake has no session ${sessionId}.`);
      const paid = (options.paymentStatus ?? 'paid') === 'paid';
      const customer = newId('cus');
      Object.assign(session, { status: 'complete', payment_status: paid ? 'paid' : 'unpaid', customer });
      const events: Obj[] = [];
      if (session.mode === 'subscription') {
        const recurring = (session._params.line_items as Obj[]).find((li) => li.price_data?.recurring);
        const sub = {
          id: newId('sub'),
          object: 'subscription',
          livemode: false,
          created: stamp(),
          customer,
          currency: session.currency,
          status: 'active',
          cancel_at_period_end: false,
          metadata: session._params.subscription_data?.metadata ?? {},
          items: { object: 'list', data: [{ object: 'subscription_item', price: { object: 'price', currency: session.currency, unit_amount: Number(recurring?.price_data?.unit_amount ?? 0), recurring: recurring?.price_data?.recurring } }] },
          discounts: [] as string[],
          _amount: Number(recurring?.price_data?.unit_amount ?? 0),
          _interval: recurring?.price_data?.recurring ?? { interval: 'month', interval_count: '1' },
          _periodStart: stamp(),
          _discount: undefined as Obj | undefined,
        };
        subscriptions.set(sub.id, sub);
        // The session's coupon becomes the subscription's discount (Stripe counts the redemption here).
        const coupon = session.discounts[0] ? coupons.get(session.discounts[0].coupon) : undefined;
        if (coupon) {
          coupon.times_redeemed += 1;
          sub._discount = discountOf(coupon, sub, sub._periodStart);
          sub.discounts = [sub._discount.id];
        }
        const invoice = invoiceOf(sub, 'subscription_create', paid, newId('in'), session.amount_subtotal, session.total_details.amount_discount);
        // A `once` coupon's discount is spent on the first invoice.
        if (coupon?.duration === 'once') Object.assign(sub, { _discount: undefined, discounts: [] });
        periodOn(sub);
        session.subscription = sub.id;
        session.invoice = invoice.id;
        events.push(event('checkout.session.completed', session), event(paid ? 'invoice.paid' : 'invoice.payment_failed', invoice));
      } else {
        const intent = paidIntent(session.amount_total, session.currency, customer, session._params.payment_intent_data?.metadata ?? {});
        if (!paid) Object.assign(intent, { amount_received: 0, status: 'processing' });
        session.payment_intent = intent.id;
        events.push(event('checkout.session.completed', session));
        if (paid) events.push(event('payment_intent.succeeded', intent));
      }
      return { session, events };
    },

    expire(sessionId) {
      const session = sessions.get(sessionId)!;
      Object.assign(session, { status: 'expired', url: null });
      return event('checkout.session.expired', session);
    },

    renewal(subscriptionId, outcome, options = {}) {
      const sub = subscriptions.get(subscriptionId)!;
      sub.status = outcome === 'paid' ? 'active' : 'past_due';
      // The next billing date comes: a new period starts and its invoice is made, discounted while the discount lasts.
      sub._periodStart = addInterval(sub._periodStart, sub._interval);
      periodOn(sub);
      const invoice = invoiceOf(sub, 'subscription_cycle', outcome === 'paid', options.invoiceId, sub._amount, renewalDiscount(sub, sub._periodStart));
      if (sub._discount?.end !== null && sub._discount?.end !== undefined && sub._periodStart >= sub._discount.end) Object.assign(sub, { _discount: undefined, discounts: [] });
      sub._openInvoice = outcome === 'paid' ? undefined : invoice.id;
      return event(outcome === 'paid' ? 'invoice.paid' : 'invoice.payment_failed', invoice);
    },

    portalSessions,

    updateCard(portalSessionId) {
      const ps = portalSessions.get(portalSessionId);
      if (!ps) throw new Error(`The fake has no billing portal session ${portalSessionId}.`);
      const method = newId('pm');
      const events: Obj[] = [];
      for (const sub of subscriptions.values()) {
        if (sub.customer !== ps.customer || sub.status === 'canceled') continue;
        sub.default_payment_method = method;
        events.push(event('customer.subscription.updated', sub));
        if (sub.status === 'past_due' && sub._openInvoice) {
          const invoice = { ...invoiceOf(sub, 'subscription_cycle', true, sub._openInvoice), attempt_count: 2 };
          Object.assign(sub, { status: 'active', _openInvoice: undefined });
          events.push(event('invoice.paid', invoice));
        }
      }
      return events;
    },

    deleteSubscription(subscriptionId) {
      const sub = subscriptions.get(subscriptionId)!;
      Object.assign(sub, { status: 'canceled', ended_at: stamp(), canceled_at: stamp() });
      return event('customer.subscription.deleted', sub);
    },

    event,

    async deliver(evt, url, options = {}) {
      const payload = JSON.stringify(evt, null, 2);
      const signature = options.signature
        ?? await signer.webhooks.generateTestHeaderStringAsync({ payload, secret: options.secret ?? webhookSecret });
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature }, body: payload });
      const text = await res.text();
      let json: any;
      try { json = JSON.parse(text); } catch { json = text; }
      return { status: res.status, json };
    },

    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return fake;
}
