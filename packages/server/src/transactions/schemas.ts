import { Type, type Static } from 'typebox';
import { VersionFields } from '../object-version.ts';

export const Transaction = Type.Object({
  txref: Type.String({ description: 'The transaction reference; the id in /transactions/{id}.' }),
  type: Type.String({ description: '`purchase` or `renewal`.' }),
  status: Type.String({ description: '`pending`, `succeeded` or `failed`.' }),
  amount: Type.Number({ description: 'Decimal amount, e.g. 25.5.' }),
  currency: Type.String(),
  customer: Type.Object({ name: Type.String(), email: Type.String() }),
  createdAt: Type.String({ format: 'date-time' }),
  resourceID: Type.Optional(Type.String({ description: 'What was bought: a product or hub id.' })),
  metadata: Type.Record(Type.String(), Type.String(), { description: 'The metadata given when the payment link was made.' }),
  attribution: Type.Optional(Type.Object({
    utmRef: Type.Optional(Type.String({ description: 'The utm_* parameters of the checkout page\'s address, as a query string.' })),
    adClickID: Type.Optional(Type.String({ description: 'The ad click id (gclid or fbclid).' })),
    adType: Type.Optional(Type.String({ description: '`google` (gclid) or `facebook` (fbclid), or as the payment link said.' })),
  }, { description: 'Our addition: where the buyer came from, from the payment link\'s utmRef, adClickID and adType (the web checkout fills them from its address).' })),
  ...VersionFields,
}, { $id: 'Transaction' });

export type Transaction = Static<typeof Transaction>;
