import type { Queryable } from '../db/client.ts';
import { findBrand } from '../brands/repository.ts';
import { createEmailVerification, createPasswordReset } from './service.ts';
import { findUser, findUserByEmail } from './repository.ts';
import { lastEmailVerificationAt } from './links-repository.ts';
import { AppError } from '../errors.ts';
import { accountBrand, queueMail } from '../mail/service.ts';

/**
 * Mail for dashboard users: team invites and password resets. The one-time links are the ones the
 * CLI prints (users/service.ts), so an operator without a mail server still has those.
 */

export async function mailInvite(tx: Queryable, input: { brandId: string; inviterName: string; to: string; invite: { link: string; role: string; expiresAt: string } }) {
  const brand = await findBrand(tx, input.brandId);
  await queueMail(tx, {
    brandId: input.brandId, mode: null, kind: 'team_invite', to: { email: input.to },
    data: { brandName: brand?.name ?? 'a brand', inviterName: input.inviterName, role: input.invite.role, link: input.invite.link, expiresAt: input.invite.expiresAt },
    // Each invite is its own link; the token's tail names it without being usable.
    dedupeKey: `invite:${input.invite.link.slice(-12)}`,
  });
}

/** At most one reset mail per account per this long, however often the form is sent. */
const resetMailEveryMs = 5 * 60_000;

/**
 * "Forgot your password?": mails a one-time reset link to an account's address. Says nothing
 * about whether the account exists (the caller answers the same either way).
 */
export async function mailPasswordReset(tx: Queryable, publicUrl: string, email: string): Promise<void> {
  const user = await findUserByEmail(tx, email.trim());
  if (!user) return;
  const dedupeKey = `reset:${user.id}:${Math.floor(Date.now() / resetMailEveryMs)}`;
  const [already] = await tx.query('SELECT 1 FROM mail_messages WHERE brand_id = $1 AND dedupe_key = $2', [accountBrand, dedupeKey]);
  if (already) return;
  const reset = await createPasswordReset(tx, publicUrl, user.email);
  await queueMail(tx, {
    brandId: accountBrand, mode: null, kind: 'password_reset', to: { email: user.email, name: user.name },
    data: { link: reset.link, expiresAt: reset.expiresAt },
    dedupeKey,
  });
}

/** At most one confirmation link per account per this long (sign-up sends the first). */
const verificationMailEveryMs = 60_000;

/**
 * Mails a link that confirms the user's address: on sign-up, and when they ask again from the
 * dashboard's banner (429 with the wait in words when asked again within a minute).
 */
export async function mailEmailVerification(tx: Queryable, publicUrl: string, userId: string): Promise<{ emailedTo: string }> {
  const user = await findUser(tx, userId);
  if (!user) throw new AppError('not_found', 'No such user.');
  const last = await lastEmailVerificationAt(tx, userId);
  if (last && Date.now() - last.getTime() < verificationMailEveryMs) {
    throw new AppError('rate_limited', `A confirmation link was sent to ${user.email} less than a minute ago; check your inbox (and spam folder), or ask again in a minute.`);
  }
  const verification = await createEmailVerification(tx, publicUrl, user.id);
  await queueMail(tx, {
    brandId: accountBrand, mode: null, kind: 'email_verification', to: { email: user.email, name: user.name },
    data: { name: user.name, link: verification.link, expiresAt: verification.expiresAt },
    dedupeKey: `verify:${verification.link.slice(-12)}`,
  });
  return { emailedTo: user.email };
}
