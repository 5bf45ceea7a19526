import { Type, type Static } from 'typebox';
import { Mode } from '../http/shapes.ts';

/** Most records one import request may carry (docs/imports.md). */
export const maxImportRecords = 10_000;

/**
 * Import requests get a larger body limit than the app-wide default: 10,000 records of about
 * 1.6 KB each (long names, several checkout fields) still fit. Authentication runs before the
 * body is read, so only a key holding customers:write can make us parse this much.
 */
export const importBodyLimitBytes = 16 * 1024 * 1024;

/**
 * One person. Records are checked one by one in the service, after this light schema check,
 * so that every problem comes back as `{ index, field, message }`: a JSON schema validator
 * cannot say which record a problem is in, in that shape.
 */
const ImportRecord = Type.Unknown({
  description: 'One person: an object keyed by checkout-field id. `fullName` (non-empty) and `email` (a valid address) are required. '
    + 'Hub records take only those two keys; product records may add `phone` and any id in the product\'s `checkoutFields`, '
    + 'with a value of the field\'s type (text, email, phone and select: string; number: number; checkbox: boolean; date: YYYY-MM-DD or an ISO 8601 timestamp).',
  examples: [{ fullName: 'Ada Lovelace', email: 'ada@example.com' }],
});

export const ImportBody = Type.Object({
  records: Type.Array(ImportRecord, {
    minItems: 1,
    maxItems: maxImportRecords,
    description: `The people to import, 1 to ${maxImportRecords.toLocaleString('en-US')} per request. Records repeating an earlier record's email (case-insensitive) are counted once.`,
  }),
  plan: Type.Optional(Type.String({ minLength: 1, description: 'A tier id. Hubs: one of the hub\'s membership tiers (default: its free tier). Products: one of the product\'s tiers (default: its default tier).' })),
}, { additionalProperties: false });

export type ImportBody = Static<typeof ImportBody>;

export const ImportQueued = Type.Object({
  queued: Type.Boolean(),
  count: Type.Integer({ description: 'Records accepted: the people that will be imported, each counted once.' }),
  importID: Type.String({ description: 'Look the import up with GET /imports/{id} (our addition to the reference).' }),
  duplicates: Type.Integer({ description: 'Records that repeated an earlier record\'s email and were counted once (our addition).' }),
});

export const ImportOutcome = Type.Union([Type.Literal('created'), Type.Literal('reactivated'), Type.Literal('unchanged'), Type.Literal('refused')], {
  description: '`created` (a new membership), `reactivated` (a removed or expired membership made active again), `unchanged` (already an active member) or `refused` (the membership was cancelled; an import does not undo that).',
});

export const ImportRecordOutcome = Type.Object({
  index: Type.Integer({ minimum: 0, description: 'The record\'s position in the request\'s `records`, from 0. Folded duplicates have no entry of their own.' }),
  outcome: ImportOutcome,
  membershipID: Type.String({ description: 'The membership the record now names (created, reactivated or left as it was).' }),
}, { $id: 'ImportRecordOutcome', examples: [{ index: 0, outcome: 'reactivated', membershipID: 'mem_8cJ2kQpV1sXe' }] });

export const ImportQuery = Type.Object({
  records: Type.Optional(Type.Boolean({ description: 'Also answer `records`: what happened to each record processed so far.' })),
}, { additionalProperties: false, examples: [{ records: true }] });

export const ImportStatus = Type.Union([Type.Literal('queued'), Type.Literal('processing'), Type.Literal('completed'), Type.Literal('failed')], {
  description: '`queued` (nothing processed yet), `processing`, `completed` (every record processed) or `failed` (stopped after repeated errors; see `error`).',
});

export const Import = Type.Object({
  id: Type.String(),
  status: ImportStatus,
  mode: Mode,
  hubID: Type.Optional(Type.String({ description: 'Set for a hub member import.' })),
  productID: Type.Optional(Type.String({ description: 'Set for a product customer import.' })),
  plan: Type.String({ description: 'The tier every imported person joins on.' }),
  count: Type.Integer({ description: 'Records accepted, as the import request answered.' }),
  duplicates: Type.Integer({ description: 'Records folded into an earlier record with the same email.' }),
  created: Type.Integer({ description: 'People who became members or customers.' }),
  alreadyPresent: Type.Integer({ description: 'People who already had a membership of this hub or product in this mode and were left as they were: `unchanged` plus `refused`.' }),
  reactivated: Type.Integer({ description: 'Our addition: people whose removed or expired membership became active again (same id, one `member.joined` each).' }),
  unchanged: Type.Integer({ description: 'Our addition: people who were already active members, left as they were.' }),
  refused: Type.Integer({ description: 'Our addition: people whose membership was `cancelled`, which an import does not undo.' }),
  records: Type.Optional(Type.Array(ImportRecordOutcome, { description: 'Our addition, with `?records=true`: what happened to each record processed so far, in request order.' })),
  failed: Type.Integer({ description: 'People not imported because the import failed.' }),
  pending: Type.Integer({ description: 'People not processed yet.' }),
  error: Type.Optional(Type.String({ description: 'Why a failed import stopped.' })),
  createdAt: Type.String({ format: 'date-time' }),
  startedAt: Type.Optional(Type.String({ format: 'date-time', description: 'When the first batch committed.' })),
  finishedAt: Type.Optional(Type.String({ format: 'date-time', description: 'When the import completed or failed.' })),
  updatedAt: Type.String({ format: 'date-time' }),
}, { $id: 'Import' });

export type Import = Static<typeof Import>;
