import type { Queryable } from '../db/client.ts';
import { AppError } from '../errors.ts';
import { throttledUntil } from './attempts-repository.ts';

/**
 * Sign-in throttling (docs/dashboard.md): after 10 failed attempts for one account (by email,
 * whether or not it exists) or from one address within 15 minutes, further attempts are refused
 * with 429 until the oldest of those 10 leaves the window. Attempts live in the database, so the
 * limit holds across API processes. Refused attempts are not counted (an attacker cannot keep an
 * account locked for longer than the window by hammering it), and a successful sign-in clears
 * its account's count, not its address's.
 */
export const signInLimit = 10;
export const signInWindowMs = 15 * 60_000;

export async function refuseIfThrottled(db: Queryable, email: string, address: string, setRetryAfter: (seconds: number) => void): Promise<void> {
  const until = await throttledUntil(db, email, address, signInLimit, signInWindowMs);
  const times = [until.account, until.address].filter((t): t is Date => t !== null).map((t) => new Date(t).getTime());
  if (!times.length) return;
  const at = Math.max(...times);
  const seconds = Math.max(1, Math.ceil((at - Date.now()) / 1000));
  setRetryAfter(seconds);
  const minutes = Math.ceil(seconds / 60);
  throw new AppError('rate_limited', `Too many failed sign-in attempts. Try again in ${minutes === 1 ? 'a minute' : `${minutes} minutes`} `
    + `(after ${new Date(Date.now() + seconds * 1000).toISOString().slice(11, 16)} UTC).`);
}
