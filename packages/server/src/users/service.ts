import { insertBrand } from '../brands/repository.ts';
import type { Db, Queryable } from '../db/client.ts';
import { AppError, invalid, notFound } from '../errors.ts';
import { newId } from '../ids.ts';
import { clearAccount, recordFailure } from './attempts-repository.ts';
import * as links from './links-repository.ts';
import { checkPassword, hashPassword, verifyPassword } from './passwords.ts';
import * as repo from './repository.ts';
import type { Role, UserRow } from './repository.ts';
import { hashToken, newToken, type SessionInfo } from './session.ts';
import * as sessions from './sessions-repository.ts';
import { refuseIfThrottled, signInWindowMs } from './throttle.ts';

/**
 * Accounts, sessions, roles and invites (docs/dashboard.md). Like every service these take the
 * transaction from the edge and never commit; sign-in is the one flow that writes on failure (the
 * failed attempt must stay recorded while the request fails), so it takes the database itself.
 */

export const inviteTtlMs = 7 * 86_400_000;
export const passwordResetTtlMs = 24 * 3_600_000;
export const emailVerificationTtlMs = 7 * 86_400_000;

export interface User { id: string; name: string; email: string }
export const userOf = (u: UserRow): User => ({ id: u.id, name: u.name, email: u.email });

/** Trimmed and checked; kept as typed (shown back), compared without regard to case. */
export function checkEmail(email: string, field = 'email'): string {
  const e = email.trim();
  if (e.length > 254 || !/^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(e)) throw invalid(field, 'must be an email address such as ada@example.com');
  return e;
}

function checkName(name: string, field: string): string {
  const n = name.trim();
  if (!n) throw invalid(field, 'must not be blank');
  return n;
}

/** A new user with a password (or none yet); 409 when the email is taken. */
export async function createUser(tx: Queryable, input: { name: string; email: string; password?: string }): Promise<UserRow> {
  const email = checkEmail(input.email);
  const name = checkName(input.name, 'name');
  if (input.password !== undefined) checkPassword(input.password);
  const passwordHash = input.password !== undefined ? await hashPassword(input.password) : null;
  const user = await repo.insertUser(tx, { id: newId('usr'), email, name, password_hash: passwordHash });
  if (!user) throw new AppError('conflict', 'An account with this email already exists; sign in instead.');
  return user;
}

/** Sign-up: the user, their brand on the free plan, and the owner membership. */
export async function signUp(tx: Queryable, input: { name: string; email: string; password: string; brandName: string }) {
  const brandName = checkName(input.brandName, 'brandName');
  const user = await createUser(tx, input);
  const brand = await insertBrand(tx, { id: newId('brand'), name: brandName, plan: 'free' });
  await repo.upsertMember(tx, brand.id, user.id, 'owner');
  // Whoever typed the address has not shown they receive its mail yet (docs/dashboard.md).
  await repo.setEmailVerified(tx, user.id, false);
  return { user: userOf(user), brand };
}

/**
 * Checks the email and password, throttled per account and per address; one answer for a wrong
 * email or a wrong password (and the same work: an unknown email is checked against a dummy hash).
 */
export async function verifyCredentials(db: Db, input: { email: string; password: string; address: string }, setRetryAfter: (seconds: number) => void, needsBrand: boolean) {
  const account = input.email.trim().toLowerCase();
  await refuseIfThrottled(db, account, input.address, setRetryAfter);
  const user = await repo.findUserByEmail(db, account);
  const ok = await verifyPassword(user?.password_hash, input.password);
  const brands = ok && user ? await repo.brandsOfUser(db, user.id) : [];
  if (!ok || !user || (needsBrand && !brands.length)) {
    await recordFailure(db, account, input.address, signInWindowMs);
    throw new AppError('invalid_credentials', 'That email and password do not match an account.');
  }
  await clearAccount(db, account);
  return { user, brands };
}

/** Sign-in: the user and the brand to sign in to (their first). */
export async function signIn(db: Db, input: { email: string; password: string; address: string }, setRetryAfter: (seconds: number) => void) {
  const { user, brands } = await verifyCredentials(db, input, setRetryAfter, true);
  return { user: userOf(user), brandId: brands[0].brand_id };
}

export async function sessionView(db: Queryable, session: SessionInfo) {
  const brands = (await repo.brandsOfUser(db, session.userId)).map((b) => ({ id: b.brand_id, name: b.name, plan: b.plan, role: b.role }));
  const brand = brands.find((b) => b.id === session.brandId);
  if (!brand) throw new AppError('authentication_required', 'Your session has ended; sign in to the dashboard again.');
  return {
    user: { id: session.userId, name: session.name, email: session.email },
    brand,
    brands,
    mode: session.mode,
    csrfToken: session.csrfToken,
    emailVerified: await repo.isEmailVerified(db, session.userId),
  };
}

/** Switches the session's brand (one the user belongs to) and/or its test/live mode. */
export async function switchSession(tx: Queryable, session: SessionInfo, change: { brandId?: string; mode?: 'test' | 'live' }): Promise<void> {
  if (change.brandId !== undefined && change.brandId !== session.brandId) {
    if (!(await repo.findMember(tx, change.brandId, session.userId))) throw notFound('brand');
  }
  await sessions.updateSession(tx, session.sessionId, change);
}

/** Changes the password; every other session of the user ends, this one stays. */
export async function changePassword(tx: Queryable, session: SessionInfo, input: { currentPassword: string; newPassword: string }): Promise<void> {
  checkPassword(input.newPassword, 'newPassword');
  const user = await repo.findUser(tx, session.userId);
  if (!user || !(await verifyPassword(user.password_hash, input.currentPassword))) {
    throw invalid('currentPassword', 'is not your current password');
  }
  await repo.setPasswordHash(tx, user.id, await hashPassword(input.newPassword));
  await sessions.deleteUserSessions(tx, user.id, session.sessionId);
}

/** A one-time link to set a new password ({PUBLIC_URL}/dashboard/reset-password?token=…). */
export async function createPasswordReset(tx: Queryable, publicUrl: string, email: string): Promise<{ link: string; userId: string; expiresAt: string }> {
  const user = await repo.findUserByEmail(tx, email.trim());
  if (!user) throw new AppError('not_found', `No user with email ${email.trim()} exists.`);
  const token = newToken();
  await links.insertPasswordReset(tx, { id: newId('pwr'), tokenHash: hashToken(token), userId: user.id, ttlMs: passwordResetTtlMs });
  return { link: `${publicUrl}/dashboard/reset-password?token=${token}`, userId: user.id, expiresAt: new Date(Date.now() + passwordResetTtlMs).toISOString() };
}

/** Uses a reset link: the new password holds, every session of the user ends. Returns the user and their first brand. */
export async function resetPassword(tx: Queryable, input: { token: string; newPassword: string }) {
  checkPassword(input.newPassword, 'newPassword');
  const userId = await links.claimPasswordReset(tx, hashToken(input.token));
  if (!userId) throw invalid('token', 'this reset link is unknown, used or expired; ask for a new one');
  await repo.setPasswordHash(tx, userId, await hashPassword(input.newPassword));
  await sessions.deleteUserSessions(tx, userId);
  // The link came by mail to the account's address: following it shows they receive that mail.
  await repo.setEmailVerified(tx, userId, true);
  const user = (await repo.findUser(tx, userId))!;
  const [first] = await repo.brandsOfUser(tx, userId);
  return { user: userOf(user), brandId: first?.brand_id };
}

/** A one-time link that confirms the user's address ({PUBLIC_URL}/dashboard/verify-email?token=…). */
export async function createEmailVerification(tx: Queryable, publicUrl: string, userId: string): Promise<{ link: string; expiresAt: string }> {
  const token = newToken();
  await links.insertEmailVerification(tx, { id: newId('evf'), tokenHash: hashToken(token), userId, ttlMs: emailVerificationTtlMs });
  return { link: `${publicUrl}/dashboard/verify-email?token=${token}`, expiresAt: new Date(Date.now() + emailVerificationTtlMs).toISOString() };
}

/** Follows a verification link: the address is confirmed. Signed in or not, the token is the proof. */
export async function verifyEmail(tx: Queryable, token: string): Promise<User> {
  const userId = await links.claimEmailVerification(tx, hashToken(token));
  if (!userId) throw invalid('token', 'this confirmation link is unknown, used or expired; sign in and ask for a new one');
  await repo.setEmailVerified(tx, userId, true);
  return userOf((await repo.findUser(tx, userId))!);
}

/** 403 in words for what an account with an unconfirmed address may not do yet. */
export async function requireVerifiedEmail(db: Queryable, session: SessionInfo, what: string): Promise<void> {
  if (await repo.isEmailVerified(db, session.userId)) return;
  throw new AppError('forbidden', `Confirm your email address first to ${what}: follow the link we mailed to ${session.email}, or ask for a new one in the dashboard.`);
}

function requireOwner(session: SessionInfo, what: string): void {
  if (session.role !== 'owner') throw new AppError('forbidden', `Only the brand's owners can ${what}.`);
}

export async function listTeam(db: Queryable, session: SessionInfo) {
  requireOwner(session, 'see the team');
  const members = await repo.listMembers(db, session.brandId);
  return { items: members.map((m) => ({ id: m.user_id, name: m.name, email: m.email, role: m.role, joinedAt: new Date(m.created_at).toISOString() })) };
}

export async function createInvite(tx: Queryable, publicUrl: string, session: SessionInfo, role: Role) {
  requireOwner(session, 'invite people');
  const token = newToken();
  await links.insertInvite(tx, { brandId: session.brandId, id: newId('inv'), tokenHash: hashToken(token), role, createdBy: session.userId, ttlMs: inviteTtlMs });
  return { link: `${publicUrl}/dashboard/invite?token=${token}`, role, expiresAt: new Date(Date.now() + inviteTtlMs).toISOString() };
}

/** Removes a member (owners only); the last owner cannot be removed. Their sessions in the brand end. */
export async function removeMember(tx: Queryable, session: SessionInfo, userId: string): Promise<void> {
  requireOwner(session, 'remove members');
  const owners = await repo.lockOwners(tx, session.brandId);
  const member = await repo.findMember(tx, session.brandId, userId);
  if (!member) throw notFound('team member');
  if (member.role === 'owner' && owners.length <= 1) {
    throw new AppError('conflict', 'This is the brand\'s last owner; invite or promote another owner first.');
  }
  await repo.deleteMember(tx, session.brandId, userId);
  await sessions.deleteBrandSessionsOfUser(tx, session.brandId, userId);
}

/** For the CLI: adds (or makes) the user as a member of the brand. */
export async function addUserToBrand(tx: Queryable, input: { brandId: string; email: string; name?: string; password?: string; role: Role }) {
  const found = await repo.findUserByEmail(tx, checkEmail(input.email));
  if (found && input.password !== undefined) {
    throw new AppError('conflict', `A user with email ${found.email} already exists; it was not changed (use user reset-password to set a new password).`);
  }
  const user = found ?? await createUser(tx, { name: input.name ?? input.email.trim().split('@')[0], email: input.email, password: input.password });
  const current = await repo.findMember(tx, input.brandId, user.id);
  // Never a demotion here: that could leave the brand without an owner.
  if (!current || (current.role === 'developer' && input.role === 'owner')) await repo.upsertMember(tx, input.brandId, user.id, input.role);
  return { user, created: !found, role: current?.role === 'owner' ? 'owner' as const : input.role };
}

