import type { Queryable } from '../db/client.ts';
import type { Role } from './repository.ts';

/** invites and password_resets: one-time links, stored as the SHA-256 of their token. */

export interface InviteRow {
  brand_id: string;
  id: string;
  role: Role;
}

export async function insertInvite(db: Queryable, i: { brandId: string; id: string; tokenHash: string; role: Role; createdBy: string; ttlMs: number }): Promise<void> {
  await db.query(
    `INSERT INTO invites (brand_id, id, token_hash, role, created_by, expires_at)
     VALUES ($1, $2, $3, $4, $5, clock_timestamp() + make_interval(secs => $6::double precision / 1000))`,
    [i.brandId, i.id, i.tokenHash, i.role, i.createdBy, i.ttlMs],
  );
}

/** Takes the invite if it is unused and unexpired: single use, even when two accept at once. */
export async function claimInvite(db: Queryable, tokenHash: string, userId: string): Promise<InviteRow | undefined> {
  const [row] = await db.query<InviteRow>(
    `UPDATE invites SET accepted_by = $2, accepted_at = clock_timestamp()
     WHERE token_hash = $1 AND accepted_at IS NULL AND expires_at > clock_timestamp()
     RETURNING brand_id, id, role`,
    [tokenHash, userId],
  );
  return row;
}

export async function findOpenInvite(db: Queryable, tokenHash: string): Promise<InviteRow | undefined> {
  const [row] = await db.query<InviteRow>(
    `SELECT brand_id, id, role FROM invites WHERE token_hash = $1 AND accepted_at IS NULL AND expires_at > clock_timestamp()`,
    [tokenHash],
  );
  return row;
}

export async function insertPasswordReset(db: Queryable, r: { id: string; tokenHash: string; userId: string; ttlMs: number }): Promise<void> {
  await db.query(
    `INSERT INTO password_resets (id, token_hash, user_id, expires_at)
     VALUES ($1, $2, $3, clock_timestamp() + make_interval(secs => $4::double precision / 1000))`,
    [r.id, r.tokenHash, r.userId, r.ttlMs],
  );
}

/** Uses the reset link (once) and every other open link of the same user, returning the user. */
export async function claimPasswordReset(db: Queryable, tokenHash: string): Promise<string | undefined> {
  const [row] = await db.query<{ user_id: string }>(
    `UPDATE password_resets SET used_at = clock_timestamp()
     WHERE token_hash = $1 AND used_at IS NULL AND expires_at > clock_timestamp() RETURNING user_id`,
    [tokenHash],
  );
  if (!row) return undefined;
  await db.query('UPDATE password_resets SET used_at = clock_timestamp() WHERE user_id = $1 AND used_at IS NULL', [row.user_id]);
  return row.user_id;
}

/** Reset links a day past their expiry; used ones go too, as their user's other links were voided with them. */
export async function deleteOldPasswordResets(db: Queryable): Promise<void> {
  await db.query(`DELETE FROM password_resets WHERE expires_at < clock_timestamp() - interval '1 day'`);
}

/** email_verifications: the link mailed on sign-up to confirm the address (migration 027). */
export async function insertEmailVerification(db: Queryable, r: { id: string; tokenHash: string; userId: string; ttlMs: number }): Promise<void> {
  await db.query(
    `INSERT INTO email_verifications (id, token_hash, user_id, expires_at)
     VALUES ($1, $2, $3, clock_timestamp() + make_interval(secs => $4::double precision / 1000))`,
    [r.id, r.tokenHash, r.userId, r.ttlMs],
  );
}

/** Uses a verification link, and voids the user's other open ones; answers the user. */
export async function claimEmailVerification(db: Queryable, tokenHash: string): Promise<string | undefined> {
  const [row] = await db.query<{ user_id: string }>(
    `UPDATE email_verifications SET used_at = clock_timestamp()
     WHERE token_hash = $1 AND used_at IS NULL AND expires_at > clock_timestamp() RETURNING user_id`,
    [tokenHash],
  );
  if (!row) return undefined;
  await db.query('UPDATE email_verifications SET used_at = clock_timestamp() WHERE user_id = $1 AND used_at IS NULL', [row.user_id]);
  return row.user_id;
}

/** When the user was last sent a verification link (for the resend limit). */
export async function lastEmailVerificationAt(db: Queryable, userId: string): Promise<Date | undefined> {
  const [row] = await db.query<{ at: Date | null }>('SELECT max(created_at) AS at FROM email_verifications WHERE user_id = $1', [userId]);
  return row?.at ?? undefined;
}

/** Whether anyone in the brand has made an invite, used or not (the home's setup checklist). */
export async function hasInvites(db: Queryable, brandId: string): Promise<boolean> {
  const [row] = await db.query<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM invites WHERE brand_id = $1) AS any', [brandId]);
  return row.any;
}
