import type { Queryable } from '../db/client.ts';
import type { Role } from './repository.ts';

/** sessions: server-side dashboard sessions, found by the SHA-256 of the cookie's token. */

export interface SessionRow {
  id: string;
  user_id: string;
  brand_id: string;
  mode: 'test' | 'live';
  csrf_token: string;
  email: string;
  name: string;
  role: Role;
  /** Whether last_seen_at is older than a minute (so the caller touches it). */
  stale: boolean;
}

export async function insertSession(db: Queryable, s: { id: string; tokenHash: string; userId: string; brandId: string; mode: 'test' | 'live'; csrfToken: string; absoluteMs: number }): Promise<void> {
  await db.query(
    `INSERT INTO sessions (id, token_hash, user_id, brand_id, mode, csrf_token, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, clock_timestamp() + make_interval(secs => $7::double precision / 1000))`,
    [s.id, s.tokenHash, s.userId, s.brandId, s.mode, s.csrfToken, s.absoluteMs],
  );
}

/**
 * The live session with this token hash, with its user and their role in the session's brand.
 * A session whose user is no longer a member of its brand is not found (removing a member also
 * deletes those sessions; the join makes it hold even in between).
 */
export async function findLiveSession(db: Queryable, tokenHash: string, idleMs: number): Promise<SessionRow | undefined> {
  const [row] = await db.query<SessionRow>(
    `SELECT s.id, s.user_id, s.brand_id, s.mode, s.csrf_token, u.email, u.name, m.role,
            s.last_seen_at < clock_timestamp() - interval '1 minute' AS stale
     FROM sessions s
     JOIN users u ON u.id = s.user_id
     JOIN brand_members m ON m.brand_id = s.brand_id AND m.user_id = s.user_id
     WHERE s.token_hash = $1 AND s.expires_at > clock_timestamp()
       AND s.last_seen_at > clock_timestamp() - make_interval(secs => $2::double precision / 1000)`,
    [tokenHash, idleMs],
    'session_by_token',
  );
  return row;
}

/** Idle expiry counts from here; written at most once a minute per session, not per request. */
export async function touchSession(db: Queryable, id: string): Promise<void> {
  await db.query(`UPDATE sessions SET last_seen_at = date_trunc('milliseconds', clock_timestamp()) WHERE id = $1`, [id]);
}

export async function updateSession(db: Queryable, id: string, change: { brandId?: string; mode?: 'test' | 'live' }): Promise<void> {
  await db.query(
    `UPDATE sessions SET brand_id = COALESCE($2, brand_id), mode = COALESCE($3, mode) WHERE id = $1`,
    [id, change.brandId ?? null, change.mode ?? null],
  );
}

export async function deleteSession(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM sessions WHERE id = $1', [id]);
}

/** Ends every session of the user, but `keep` (the one changing its password). */
export async function deleteUserSessions(db: Queryable, userId: string, keep?: string): Promise<number> {
  const rows = await db.query('DELETE FROM sessions WHERE user_id = $1 AND id <> $2 RETURNING id', [userId, keep ?? '']);
  return rows.length;
}

/** A removed member's sessions in that brand end. */
export async function deleteBrandSessionsOfUser(db: Queryable, brandId: string, userId: string): Promise<void> {
  await db.query('DELETE FROM sessions WHERE brand_id = $1 AND user_id = $2', [brandId, userId]);
}

/** Sessions past their absolute end or idle timeout; called now and then, so the table stays small. */
export async function deleteExpiredSessions(db: Queryable, idleMs: number): Promise<void> {
  await db.query(
    `DELETE FROM sessions WHERE expires_at <= clock_timestamp()
       OR last_seen_at <= clock_timestamp() - make_interval(secs => $1::double precision / 1000)`,
    [idleMs],
  );
}
