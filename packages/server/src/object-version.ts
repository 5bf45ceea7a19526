import { Type } from 'typebox';

/**
 * Our addition to the reference's objects (Transaction, Membership, its subscription, Payout):
 * their version, so a webhook receiver can tell a stale event from a fresh one whatever order
 * they arrive in (docs/webhooks.md, Order and versions). The owning repository increments
 * `version` in the very statement that changes the row, and sets `updatedAt` with it.
 */
export const VersionFields = {
  version: Type.Integer({
    minimum: 1,
    description: 'Our addition: 1 when created, plus one for every change. Of two copies of the same object, the one with the higher version is newer; discard an event whose object version is not above the one you hold.',
  }),
  updatedAt: Type.String({
    format: 'date-time',
    description: 'Our addition: when the object last changed, with milliseconds (two changes may share a millisecond; compare `version`).',
  }),
};

/** The SQL that every UPDATE of a versioned row carries. */
export const bumpVersionSql = `version = version + 1, updated_at = date_trunc('milliseconds', clock_timestamp())`;

export function versionOf(row: { version: number; updated_at: Date }): { version: number; updatedAt: string } {
  return { version: row.version, updatedAt: row.updated_at.toISOString() };
}
