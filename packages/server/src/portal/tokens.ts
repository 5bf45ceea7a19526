import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Mode } from '../auth/principal.ts';

/** A fresh secret for a link or a session cookie, and the hash the database keeps of it. */
export function newToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashOf(token) };
}

export const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** What a signed download URL grants: one buyer, one item, until `exp` (ms since the epoch). */
export interface DownloadGrant {
  brandId: string;
  mode: Mode;
  email: string;
  itemId: string;
  exp: number;
}

/**
 * Download URLs are signed (HMAC-SHA-256 under a key derived from the server key) rather than
 * stored: any API process can check one, and an expired one needs no clean-up. The buyer's right
 * to the item is checked again when it is used, so a refund or removal within the 15 minutes
 * still refuses it.
 */
const keyFor = (serverKey: Buffer) => createHmac('sha256', serverKey).update('portal-download-v1').digest();

export function signDownload(serverKey: Buffer, grant: DownloadGrant): string {
  const body = Buffer.from(JSON.stringify([grant.brandId, grant.mode, grant.email, grant.itemId, grant.exp])).toString('base64url');
  const mac = createHmac('sha256', keyFor(serverKey)).update(body).digest('base64url');
  return `${body}.${mac}`;
}

/** The grant a token carries, or why it is refused. */
export function openDownload(serverKey: Buffer, token: string, now = Date.now()): DownloadGrant | 'invalid' | 'expired' {
  const [body, mac] = token.split('.');
  if (!body || !mac) return 'invalid';
  const want = createHmac('sha256', keyFor(serverKey)).update(body).digest();
  const got = Buffer.from(mac, 'base64url');
  if (got.length !== want.length || !timingSafeEqual(got, want)) return 'invalid';
  let parts: unknown;
  try { parts = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')); } catch { return 'invalid'; }
  if (!Array.isArray(parts) || parts.length !== 5) return 'invalid';
  const [brandId, mode, email, itemId, exp] = parts as [string, Mode, string, string, number];
  if (exp <= now) return 'expired';
  return { brandId, mode, email, itemId, exp };
}
