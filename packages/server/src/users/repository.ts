import type { Queryable } from '../db/client.ts';

/** users and brand_members: who can sign in, and to which brands with which role. */

export type Role = 'owner' | 'developer';

export interface UserRow {
  id: string;
  email: string;
  name: string;
  password_hash: string | null;
}

export interface MemberRow {
  brand_id: string;
  user_id: string;
  role: Role;
  email: string;
  name: string;
  created_at: Date;
}

export interface MembershipOfUser {
  brand_id: string;
  name: string;
  plan: 'free' | 'plus';
  role: Role;
}

const userColumns = 'id, email, name, password_hash';

export async function insertUser(db: Queryable, u: UserRow): Promise<UserRow> {
  const [row] = await db.query<UserRow>(
    `INSERT INTO users (id, email, name, password_hash) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING ${userColumns}`,
    [u.id, u.email, u.name, u.password_hash],
  );
  return row;
}

export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | undefined> {
  const [row] = await db.query<UserRow>(`SELECT ${userColumns} FROM users WHERE lower(email) = lower($1)`, [email], 'user_by_email');
  return row;
}

export async function findUser(db: Queryable, id: string): Promise<UserRow | undefined> {
  const [row] = await db.query<UserRow>(`SELECT ${userColumns} FROM users WHERE id = $1`, [id]);
  return row;
}

export async function setPasswordHash(db: Queryable, userId: string, hash: string): Promise<void> {
  await db.query(`UPDATE users SET password_hash = $2, updated_at = date_trunc('milliseconds', clock_timestamp()) WHERE id = $1`, [userId, hash]);
}

/** Adds the membership, or changes the role of an existing one. */
export async function upsertMember(db: Queryable, brandId: string, userId: string, role: Role): Promise<void> {
  await db.query(
    `INSERT INTO brand_members (brand_id, user_id, role) VALUES ($1, $2, $3)
     ON CONFLICT (brand_id, user_id) DO UPDATE SET role = EXCLUDED.role`,
    [brandId, userId, role],
  );
}

export async function findMember(db: Queryable, brandId: string, userId: string): Promise<MemberRow | undefined> {
  const [row] = await db.query<MemberRow>(
    `SELECT m.brand_id, m.user_id, m.role, u.email, u.name, m.created_at
     FROM brand_members m JOIN users u ON u.id = m.user_id WHERE m.brand_id = $1 AND m.user_id = $2`,
    [brandId, userId],
  );
  return row;
}

/** The brand's team, oldest first (the founder at the top). */
export async function listMembers(db: Queryable, brandId: string): Promise<MemberRow[]> {
  return db.query<MemberRow>(
    `SELECT m.brand_id, m.user_id, m.role, u.email, u.name, m.created_at
     FROM brand_members m JOIN users u ON u.id = m.user_id WHERE m.brand_id = $1 ORDER BY m.created_at, m.user_id`,
    [brandId],
  );
}

/** Locks the brand's owner rows, so two owners removing each other cannot leave none. */
export async function lockOwners(db: Queryable, brandId: string): Promise<string[]> {
  const rows = await db.query<{ user_id: string }>(
    `SELECT user_id FROM brand_members WHERE brand_id = $1 AND role = 'owner' ORDER BY user_id FOR UPDATE`,
    [brandId],
  );
  return rows.map((r) => r.user_id);
}

export async function deleteMember(db: Queryable, brandId: string, userId: string): Promise<boolean> {
  const rows = await db.query(`DELETE FROM brand_members WHERE brand_id = $1 AND user_id = $2 RETURNING user_id`, [brandId, userId]);
  return rows.length > 0;
}

/** Every brand the user belongs to, oldest membership first. */
export async function brandsOfUser(db: Queryable, userId: string): Promise<MembershipOfUser[]> {
  return db.query<MembershipOfUser>(
    `SELECT m.brand_id, b.name, b.plan, m.role FROM brand_members m JOIN brands b ON b.id = m.brand_id
     WHERE m.user_id = $1 ORDER BY m.created_at, m.brand_id`,
    [userId],
  );
}

/** Whether the user confirmed their address (migration 027: NULL after sign-up until they do). */
export async function isEmailVerified(db: Queryable, userId: string): Promise<boolean> {
  const [row] = await db.query<{ verified: boolean }>('SELECT email_verified_at IS NOT NULL AS verified FROM users WHERE id = $1', [userId]);
  return row?.verified ?? false;
}

export async function setEmailVerified(db: Queryable, userId: string, verified: boolean): Promise<void> {
  await db.query(
    `UPDATE users SET email_verified_at = CASE WHEN $2 THEN COALESCE(email_verified_at, date_trunc('milliseconds', clock_timestamp())) END WHERE id = $1`,
    [userId, verified],
  );
}

/** How many people belong to the brand (the home's setup checklist: has the team been invited). */
export async function memberCount(db: Queryable, brandId: string): Promise<number> {
  const [row] = await db.query<{ n: number }>('SELECT count(*)::integer AS n FROM brand_members WHERE brand_id = $1', [brandId]);
  return row.n;
}
