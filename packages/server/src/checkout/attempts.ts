import { createHmac } from 'node:crypto';
import type { Queryable } from '../db/client.ts';
import type { CheckoutFailureLimits } from '../config.ts';
import { AppError } from '../errors.ts';

/**
 * Card-testing defence of the public checkout pages (docs/checkout.md, Card testing). A card
 * tester runs many cards through a payment form, or one stolen card through many forms. Each
 * failed payment (declined, or a card the provider refused) and each refused checkout form is
 * noted under the client address and, for payments, the buyer's email and the card; past the
 * limit within the window, that address, email or card is answered 429 with Retry-After, while
 * every other buyer pays as before. Keys are stored as keyed hashes: never a card number or an
 * email in clear. The table is shared by every process, so the limits hold across them.
 */

export type FailureKind = 'address' | 'email' | 'card';
export interface FailureKeys { address?: string; email?: string; card?: string }

const hashOf = (secret: Buffer, kind: FailureKind, value: string) =>
  createHmac('sha256', secret).update(`${kind}:${kind === 'card' ? value.replace(/\D/g, '') : value.trim().toLowerCase()}`).digest('base64url');

const entries = (keys: FailureKeys) =>
  (Object.entries(keys) as [FailureKind, string | undefined][]).filter((e): e is [FailureKind, string] => typeof e[1] === 'string' && e[1] !== '');

const words: Record<FailureKind, string> = {
  address: 'from your network',
  email: 'for this email address',
  card: 'with this card',
};

/** Throws 429 rate_limited (with the seconds to wait) when any of the keys is past its limit. */
export async function refuseIfHammered(db: Queryable, secret: Buffer, limits: CheckoutFailureLimits, keys: FailureKeys): Promise<void> {
  const limitOf: Record<FailureKind, number> = { address: limits.perAddress, email: limits.perEmail, card: limits.perCard };
  for (const [kind, value] of entries(keys)) {
    const limit = limitOf[kind];
    // The limit-th newest failure in the window: while it is inside the window, the key waits until it leaves.
    const [row] = await db.query<{ at: Date }>(
      `SELECT at FROM checkout_failures WHERE kind = $1 AND key_hash = $2 AND at > clock_timestamp() - $3 * interval '1 millisecond'
       ORDER BY at DESC OFFSET $4 - 1 LIMIT 1`,
      [kind, hashOf(secret, kind, value), limits.windowMs, limit],
      'checkout_failures_nth',
    );
    if (!row) continue;
    const seconds = Math.max(1, Math.ceil((new Date(row.at).getTime() + limits.windowMs - Date.now()) / 1000));
    const minutes = Math.ceil(seconds / 60);
    throw new AppError('rate_limited', `Too many failed payment attempts ${words[kind]}. Nothing was charged. `
      + `Try again in ${minutes === 1 ? 'a minute' : `${minutes} minutes`}, or contact the seller.`, [{ field: kind, message: String(seconds) }]);
  }
}

/** Notes one failure under each key (and forgets those of the keys older than the window). */
export async function noteFailure(db: Queryable, secret: Buffer, limits: CheckoutFailureLimits, keys: FailureKeys): Promise<void> {
  for (const [kind, value] of entries(keys)) {
    const hash = hashOf(secret, kind, value);
    await db.query('DELETE FROM checkout_failures WHERE kind = $1 AND key_hash = $2 AND at <= clock_timestamp() - $3 * interval \'1 millisecond\'',
      [kind, hash, limits.windowMs]);
    await db.query('INSERT INTO checkout_failures (kind, key_hash) VALUES ($1, $2)', [kind, hash]);
  }
}

/** The seconds to wait, carried on a rate_limited error made here (for Retry-After). */
export const retryAfterOf = (err: AppError) => Number(err.details?.[0]?.message) || 60;
