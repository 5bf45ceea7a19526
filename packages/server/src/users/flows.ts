import { findBrand } from '../brands/repository.ts';
import type { Db } from '../db/client.ts';
import { invalid } from '../errors.ts';
import * as links from './links-repository.ts';
import * as repo from './repository.ts';
import type { UserRow } from './repository.ts';
import { createUser, userOf, verifyCredentials } from './service.ts';
import { hashToken, type SessionInfo } from './session.ts';

/*
 * Account steps that commit between their parts (STYLE.md, flows): accepting an invite signed
 * out proves the account first, and that proof's throttling (a failed password counts) must
 * stand even when the joining that follows does not happen.
 */

/**
 * Accepts an invite: as the signed-in user, or signed out as an existing account (email and
 * password, throttled like sign-in) or a new one (name, email, password). Single use; returns the
 * user and the brand joined (the caller signs them in to it).
 */
export async function acceptInvite(
  db: Db,
  session: SessionInfo | null,
  input: { token: string; name?: string; email?: string; password?: string; address: string },
  setRetryAfter: (seconds: number) => void,
) {
  const tokenHash = hashToken(input.token);
  if (!(await links.findOpenInvite(db, tokenHash))) throw invalid('token', 'this invite link is unknown, used or expired; ask the owner for a new one');
  let existing: UserRow | undefined;
  if (!session) {
    if (input.email === undefined || input.password === undefined) {
      throw invalid(input.email === undefined ? 'email' : 'password', 'is needed to accept an invite when signed out');
    }
    if (await repo.findUserByEmail(db, input.email.trim())) {
      // Proving an existing account is a sign-in, with its throttling and its one message.
      existing = (await verifyCredentials(db, { email: input.email, password: input.password, address: input.address }, setRetryAfter, false)).user;
    } else if (input.name === undefined) {
      throw invalid('name', 'is needed to make a new account');
    }
  }
  return db.transaction(async (tx) => {
    const user = session ? (await repo.findUser(tx, session.userId))! : existing ?? await createUser(tx, { name: input.name!, email: input.email!, password: input.password! });
    const invite = await links.claimInvite(tx, tokenHash, user.id);
    if (!invite) throw invalid('token', 'this invite link is unknown, used or expired; ask the owner for a new one');
    const current = await repo.findMember(tx, invite.brand_id, user.id);
    // Joining never demotes: an owner who follows a developer invite stays an owner.
    if (!current || (current.role === 'developer' && invite.role === 'owner')) await repo.upsertMember(tx, invite.brand_id, user.id, invite.role);
    const brand = (await findBrand(tx, invite.brand_id))!;
    return { user: userOf(user), brand };
  });
}
