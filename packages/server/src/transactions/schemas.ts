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
  ...VersionFields,
}, { $id: 'Transaction' });

export type Transaction = Static<typeof Transaction>;
