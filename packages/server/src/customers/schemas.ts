import { Type, type Static } from 'typebox';
import { EmailSummary } from '../mail/schemas.ts';
import { Membership } from '../memberships/schemas.ts';
import { SubscriptionSummary } from '../subscriptions/schemas.ts';
import { Transaction } from '../transactions/schemas.ts';

const CustomerId = Type.String({ description: 'The customer id (`cus_…`, from GET /customers).' });

export const LifetimeValue = Type.Object({
  currency: Type.String({ description: 'ISO 4217 code. Currencies are never added together.' }),
  paid: Type.Number({ description: 'What the person\'s paid purchases and renewals took in this currency, as a decimal.' }),
  refunded: Type.Number({ description: 'What refunds that succeeded gave back of them.' }),
  amount: Type.Number({ description: 'The lifetime value: `paid` − `refunded`.' }),
});

/** One person who bought or joined, in one mode: every membership and paid transaction of one email (ignoring case). */
export const Customer = Type.Object({
  id: Type.String({ description: '`cus_` and a digest of the brand, the mode and the email in lower case: the same person keeps it, and it names no table row (docs/customers.md).' }),
  name: Type.String({ description: 'The name given most recently.' }),
  email: Type.String({ description: 'The email as given most recently; people are told apart by it, ignoring case.' }),
  status: Type.Union([Type.Literal('active'), Type.Literal('ended')], {
    description: '`active` while the person holds an active membership or a running (active or past-due) subscription; `ended` otherwise.',
  }),
  firstSeenAt: Type.String({ format: 'date-time', description: 'Their first membership or paid transaction.' }),
  lastActivityAt: Type.String({ format: 'date-time', description: 'Their latest payment, or change to one of their memberships.' }),
  lifetimeValue: Type.Array(LifetimeValue, { description: 'Per currency, sorted by code; empty for people who only joined for free.' }),
  counts: Type.Object({
    purchases: Type.Integer({ minimum: 0, description: 'Paid (succeeded, refunded since or not) transactions of type `purchase`; renewals are not counted.' }),
    memberships: Type.Integer({ minimum: 0, description: 'Memberships of products and hubs, whatever their status.' }),
    activeMemberships: Type.Integer({ minimum: 0 }),
    activeSubscriptions: Type.Integer({ minimum: 0, description: 'Subscriptions `active` (cancelling ones included) or `past_due`.' }),
  }),
  productIDs: Type.Array(Type.String(), { description: 'The products they hold a membership of (any status).' }),
  hubIDs: Type.Array(Type.String(), { description: 'The hubs they hold a membership of (any status).' }),
  receiveEmails: Type.Optional(Type.Boolean({ description: 'Marketing consent: true when one of their checkouts ticked the email opt-in; absent when never asked.' })),
}, {
  $id: 'Customer',
  examples: [{
    id: 'cus_3f2a9c0d4b5e6f708192a3b4c5d6e7f8',
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    status: 'active',
    firstSeenAt: '2026-10-02T09:15:00.000Z',
    lastActivityAt: '2026-11-24T18:03:00.000Z',
    lifetimeValue: [{ currency: 'USD', paid: 59.5, refunded: 10, amount: 49.5 }],
    counts: { purchases: 2, memberships: 2, activeMemberships: 1, activeSubscriptions: 1 },
    productIDs: ['prod_01jd…'],
    hubIDs: ['hub_01jd…'],
    receiveEmails: true,
  }],
});

export type Customer = Static<typeof Customer>;

export const CustomerMembership = Type.Object({
  ...Membership.properties,
  productID: Type.Optional(Type.String({ description: 'The product, for a product\'s customer (a hub membership has `hubID`).' })),
});

export const CustomerDetail = Type.Object({
  ...Customer.properties,
  memberships: Type.Array(CustomerMembership, { description: 'Every membership, newest first.' }),
  subscriptions: Type.Array(SubscriptionSummary, { description: 'Every subscription, newest first.' }),
  transactions: Type.Array(Transaction, { description: 'Their newest 100 transactions (every status), newest first; GET /transactions?q=<email> has the rest.' }),
  emails: Type.Array(EmailSummary, { description: 'The newest 50 emails sent (or queued) to their address in this mode, newest first.' }),
}, { $id: 'CustomerDetail' });

export type CustomerDetail = Static<typeof CustomerDetail>;

export const CustomerListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Page size, 1 to 100 (default 20).' })),
  cursor: Type.Optional(Type.String({ description: '`nextCursor` of the previous page.' })),
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 320, description: 'Part of the name or email, ignoring case.' })),
  product: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only people holding a membership (any status) of this product id.' })),
  hub: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only people holding a membership (any status) of this hub id.' })),
  status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('ended')], { description: 'Only customers in this status (see `status`).' })),
  consent: Type.Optional(Type.Boolean({ description: '`true`: only people who agreed to marketing email; `false`: only those who did not or were never asked.' })),
}, { examples: [{ q: 'ada', status: 'active', consent: true }] });

export type CustomerListQuery = Static<typeof CustomerListQuery>;

export const CustomerParams = Type.Object({ id: CustomerId });
