import { hash, verify } from '@node-rs/argon2';
import { invalid } from '../errors.ts';

/**
 * Passwords are hashed with argon2id (@node-rs/argon2's default algorithm) at its default cost:
 * 19 MiB, 2 passes, 1 lane, OWASP's recommended minimum, about 30 ms on this machine's cores.
 */
export const passwordMinLength = 8;
export const passwordMaxLength = 256;

export function checkPassword(password: string, field = 'password'): void {
  if (password.length < passwordMinLength) throw invalid(field, `must be at least ${passwordMinLength} characters long`);
  if (password.length > passwordMaxLength) throw invalid(field, `must be at most ${passwordMaxLength} characters long`);
}

export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/**
 * A hash of nothing anyone knows, checked against when the email is unknown (or has no password
 * yet), so that answer costs the same time as a wrong password and does not tell who has an account.
 */
let dummy: Promise<string> | undefined;

export async function verifyPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  if (!stored) {
    await verify(await (dummy ??= hash('no account has this password: it is only checked for its cost')), password).catch(() => false);
    return false;
  }
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}
