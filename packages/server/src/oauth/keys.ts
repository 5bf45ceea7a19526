import { createHmac, generateKeyPairSync } from 'node:crypto';
import type { Queryable } from '../db/client.ts';
import { openSecret, sealSecret } from '../webhooks/secret-box.ts';
import { findSetting, keepSetting } from './repository.ts';

const jwksId = 'signing-jwks';

/**
 * The authorization server's signing key (JWKS), made once and kept in the database sealed with
 * the server key (WEBHOOK_SECRET_KEY, or the data folder's key in embedded mode), so every
 * process signs and verifies with the same key and a restart keeps it. Two processes starting
 * at once both generate one; the first insert wins and both use it.
 */
export async function signingKeys(db: Queryable, serverKey: Buffer): Promise<{ keys: Record<string, unknown>[] }> {
  let sealed = await findSetting(db, jwksId);
  if (!sealed) {
    const jwk = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
    const jwks = { keys: [{ ...jwk, kid: `k${Date.now().toString(36)}`, alg: 'ES256', use: 'sig' }] };
    sealed = await keepSetting(db, jwksId, sealSecret(serverKey, JSON.stringify(jwks), `oauth/${jwksId}`));
  }
  return JSON.parse(openSecret(serverKey, sealed, `oauth/${jwksId}`)) as { keys: Record<string, unknown>[] };
}

/** Keys for the provider's signed cookies, derived from the server key so every process agrees. */
export const cookieKeys = (serverKey: Buffer) => [createHmac('sha256', serverKey).update('oauth cookie keys v1').digest('base64url')];
