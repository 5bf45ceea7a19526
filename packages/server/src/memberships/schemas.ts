import { Type, type Static } from 'typebox';
import { VersionFields } from '../object-version.ts';
import { Subscription } from '../subscriptions/schemas.ts';
import { OneOf } from '../http/shapes.ts';

/** The reference's Membership record: a hub member or a product's customer. */
export const Membership = Type.Object({
  membershipId: Type.String(),
  name: Type.String(),
  email: Type.String(),
  phone: Type.Optional(Type.String({ description: 'Present when the person gave one.' })),
  hubID: Type.Optional(Type.String({ description: 'The hub, for hub memberships.' })),
  status: OneOf(['active', 'expired', 'removed', 'cancelled'], { description: '`active`, `expired`, `removed` or `cancelled`.' }),
  plan: Type.Optional(Type.String({ description: 'The tier id the membership is on.' })),
  joinedAt: Type.String({ format: 'date-time' }),
  receiveEmails: Type.Optional(Type.Boolean({ description: 'Our addition: the marketing consent the person gave at checkout (the `receive_emails` opt-in); absent when never asked.' })),
  ...VersionFields,
  subscription: Type.Optional(Type.Unsafe<Subscription>({ ...Subscription, description: 'Our addition: the recurring side of a membership bought on a recurring tier (docs/subscriptions.md).' })),
}, { $id: 'Membership' });

export type Membership = Static<typeof Membership>;

export const MembershipStatus = Type.Union(
  [Type.Literal('active'), Type.Literal('expired'), Type.Literal('removed'), Type.Literal('cancelled')],
  { description: 'Only memberships in this status.' },
);

/**
 * Our addition: the filters of the hub-member and product-customer lists (the dashboard's search
 * by email and status filter). `email` matches exactly, ignoring case, because a person holds at
 * most one membership of a hub or product per mode, and exact matching is served by the unique
 * (brand, mode, hub or product, lower(email)) index; a prefix search would need its own index and
 * could not keep newest-first order cheaply.
 */
export const MembershipListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Page size, 1 to 100 (default 20).' })),
  cursor: Type.Optional(Type.String({ description: '`nextCursor` of the previous page.' })),
  email: Type.Optional(Type.String({ format: 'email', maxLength: 320, description: 'Only the membership of this email address (exact match, ignoring case).' })),
  status: Type.Optional(MembershipStatus),
});

export type MembershipListQuery = Static<typeof MembershipListQuery>;
