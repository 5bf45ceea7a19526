import { Type, type Static } from 'typebox';
import { Transaction } from '../transactions/schemas.ts';

/** Money over one stretch of days in one currency, as decimals of that currency. */
export const RevenuePeriod = Type.Object({
  gross: Type.Number({ description: 'Paid sales (purchases and renewals that succeeded, refunded since or not) made in the period.' }),
  refunded: Type.Number({ description: 'Refunds that succeeded, asked for in the period (whenever the sale was).' }),
  net: Type.Number({ description: '`gross` − `refunded`; below 0 when refunds of older sales outweigh new ones.' }),
  sales: Type.Integer({ minimum: 0, description: 'How many paid sales the period had.' }),
}, { examples: [{ gross: 120, refunded: 25.5, net: 94.5, sales: 4 }] });

export const CurrencyRevenue = Type.Object({
  currency: Type.String({ description: 'ISO 4217 code. Currencies are never added together.' }),
  today: RevenuePeriod,
  last7Days: RevenuePeriod,
  last30Days: RevenuePeriod,
  daily: Type.Array(Type.Object({
    date: Type.String({ format: 'date', description: 'A calendar day in the brand\'s time zone.' }),
    gross: Type.Number(),
    refunded: Type.Number(),
    net: Type.Number(),
  }), { description: 'The last 30 days, oldest first, today last: the chart\'s points.' }),
}, { $id: 'CurrencyRevenue' });

export const FailedRenewal = Type.Object({
  membershipID: Type.String({ description: 'The membership the subscription pays for (`mem_…`).' }),
  customer: Type.Object({ name: Type.String(), email: Type.String() }),
  customerID: Type.String({ description: 'The customer (`cus_…`, GET /customers/{id}) who holds the subscription.' }),
  amount: Type.Number({ description: 'What each renewal charges, as a decimal.' }),
  currency: Type.String(),
  failedAttempts: Type.Integer({ minimum: 0, description: 'Charges tried and failed since the period ended.' }),
  periodEnded: Type.String({ format: 'date-time', description: 'When the unpaid period began (the last paid one ended).' }),
  nextRetryAt: Type.Optional(Type.String({ format: 'date-time', description: 'When the next charge is tried; absent when none is planned.' })),
}, { $id: 'FailedRenewal' });

export const MetricsSummary = Type.Object({
  timeZone: Type.String({ description: 'The brand\'s time zone (GET /brand), UTC when it has none: where "today" begins and ends.' }),
  generatedAt: Type.String({ format: 'date-time' }),
  revenue: Type.Array(CurrencyRevenue, { description: 'One entry per currency with sales or refunds in the last 30 days.' }),
  subscriptions: Type.Object({
    active: Type.Integer({ minimum: 0, description: 'Subscriptions paid up (`active`), cancelling ones included.' }),
    cancelling: Type.Integer({ minimum: 0, description: 'Of `active`, those that end at the close of their paid period.' }),
    pastDue: Type.Integer({ minimum: 0, description: 'Subscriptions whose renewal failed and is being retried.' }),
    mrr: Type.Array(Type.Object({ currency: Type.String(), amount: Type.Number() }), {
      description: 'Monthly recurring revenue per currency: every active (not cancelling) or past-due subscription\'s amount brought to a month '
        + '(yearly ÷ 12, weekly × 52 ÷ 12, daily × 365 ÷ 12, each ÷ its interval), summed, rounded once to the currency\'s minor unit.',
    }),
  }),
  newMembers: Type.Object({
    today: Type.Integer({ minimum: 0 }),
    last7Days: Type.Integer({ minimum: 0 }),
    last30Days: Type.Integer({ minimum: 0 }),
  }, { description: 'People (by email) whose first membership or purchase of this mode began in the period.' }),
  recentSales: Type.Array(Transaction, { description: 'The 10 newest paid sales, newest first.' }),
  failedRenewals: Type.Object({
    count: Type.Integer({ minimum: 0 }),
    items: Type.Array(FailedRenewal, { description: 'Up to 10, the longest unpaid first.' }),
  }, { description: 'Renewals that failed and need attention (the subscriptions that are `past_due`).' }),
}, {
  $id: 'MetricsSummary',
  examples: [{
    timeZone: 'Europe/Lisbon',
    generatedAt: '2026-11-25T21:00:00.000Z',
    revenue: [{
      currency: 'USD',
      today: { gross: 25.5, refunded: 0, net: 25.5, sales: 1 },
      last7Days: { gross: 120, refunded: 25.5, net: 94.5, sales: 4 },
      last30Days: { gross: 410, refunded: 25.5, net: 384.5, sales: 15 },
      daily: [{ date: '2026-11-25', gross: 25.5, refunded: 0, net: 25.5 }],
    }],
    subscriptions: { active: 12, cancelling: 1, pastDue: 1, mrr: [{ currency: 'USD', amount: 118 }] },
    newMembers: { today: 1, last7Days: 5, last30Days: 17 },
    recentSales: [],
    failedRenewals: { count: 1, items: [{
      membershipID: 'mem_01jd…', customer: { name: 'Ada Lovelace', email: 'ada@example.com' }, customerID: 'cus_5d41402abc4b2a76b9719d911017c592', amount: 10, currency: 'USD',
      failedAttempts: 1, periodEnded: '2026-11-24T09:00:00.000Z', nextRetryAt: '2026-11-27T09:00:00.000Z',
    }] },
  }],
});

export type MetricsSummary = Static<typeof MetricsSummary>;
export type RevenuePeriod = Static<typeof RevenuePeriod>;

/** The new brand's setup checklist (GET /dashboard/api/setup, session only): each step as stored, never as clicked. */
export const SetupState = Type.Object({
  productCreated: Type.Boolean(),
  linkShared: Type.Boolean({ description: 'A checkout link or a payment link exists, in either mode: something a buyer can open.' }),
  testPurchase: Type.Boolean({ description: 'A test-mode payment succeeded.' }),
  profileSet: Type.Boolean({ description: 'The storefront profile has a display name or a slug.' }),
  paymentsConnected: Type.Boolean({ description: 'This server takes live card payments (its Stripe settings are present).' }),
  live: Type.Boolean({ description: 'A live-mode payment succeeded.' }),
  teamInvited: Type.Boolean({ description: 'Someone else joined the brand, or an invite was made.' }),
}, { examples: [{ productCreated: true, linkShared: true, testPurchase: false, profileSet: false, paymentsConnected: false, live: false, teamInvited: false }] });

export type SetupState = Static<typeof SetupState>;
