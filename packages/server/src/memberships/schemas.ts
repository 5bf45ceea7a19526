import { Type, type Static } from 'typebox';
import { VersionFields } from '../object-version.ts';
import { Subscription } from '../subscriptions/schemas.ts';

/** The reference's Membership record: a hub member or a product's customer. */
export const Membership = Type.Object({
  membershipId: Type.String(),
  name: Type.String(),
  email: Type.String(),
  phone: Type.Optional(Type.String({ description: 'Present when the person gave one.' })),
  hubID: Type.Optional(Type.String({ description: 'The hub, for hub memberships.' })),
  status: Type.String({ description: '`active`, `expired`, `removed` or `cancelled`.' }),
  plan: Type.Optional(Type.String({ description: 'The tier id the membership is on.' })),
  joinedAt: Type.String({ format: 'date-time' }),
  ...VersionFields,
  subscription: Type.Optional(Type.Unsafe<Subscription>({ ...Subscription, description: 'Our addition: the recurring side of a membership bought on a recurring tier (docs/subscriptions.md).' })),
}, { $id: 'Membership' });

export type Membership = Static<typeof Membership>;
