import { Type } from 'typebox';

/**
 * GET /events and GET /events/{id}: our addition to the reference. The events themselves, in the
 * delivery body's shape, so a receiver that was down can reconcile from one list instead of
 * resending deliveries one by one. Mode-scoped, newest first, kept at least 30 days.
 */
export const Event = Type.Object({
  id: Type.String(),
  type: Type.String(),
  created: Type.String({ format: 'date-time' }),
  data: Type.Record(Type.String(), Type.Unknown(), { description: 'What the event is about: a Transaction, a Membership record or a payout.' }),
  appId: Type.Optional(Type.String({ description: 'Our addition: the OAuth app (its client id) the event came about through, e.g. the payment of a link the app created. Absent otherwise, so such an event is exactly its delivery body; deliveries never carry it.' })),
}, { $id: 'Event' });
