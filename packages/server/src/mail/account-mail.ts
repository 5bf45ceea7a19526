import type { Queryable } from '../db/client.ts';
import { findBrand } from '../brands/repository.ts';
import { createPasswordReset } from '../users/service.ts';
import { findUserByEmail } from '../users/repository.ts';
import { accountBrand, queueMail } from './service.ts';

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
