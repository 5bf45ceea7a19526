import { createHmac, generateKeyPairSync } from 'node:crypto';
import type { Queryable } from '../db/client.ts';
import { openSecret, sealSecret } from '../security/secret-box.ts';
import { findSetting, keepSetting, replaceSetting } from './repository.ts';

const jwksId = 'signing-jwks';

/**
 * The authorization server's signing key (JWKS), made once and kept in the database sealed with
 * the server key (WEBHOOK_SECRET_KEY, or the data folder's key in embedded mode), so every
 * process signs and verifies with the same key and a restart keeps it. Two processes starting
 * at once both generate one; the first insert wins and both use it.
 */
export async function signingKeys(db: Queryable, serverKey: Buffer, log?: { warn(msg: string): void }): Promise<{ keys: Record<string, unknown>[] }> {
  const context = `oauth/${jwksId}`;
  const sealed = await findSetting(db, jwksId) ?? await keepSetting(db, jwksId, sealSecret(serverKey, JSON.stringify(newJwks()), context));
  try {
    return JSON.parse(openSecret(serverKey, sealed, context)) as { keys: Record<string, unknown>[] };
  } catch {
    // The server key changed (WEBHOOK_SECRET_KEY rotated, or a new data folder key). Access and
    // refresh tokens are opaque and stored, so they do not depend on this key; only ID tokens
    // already issued stop verifying. Make a new key rather than refuse to start.
    log?.warn('the OAuth signing key could not be opened with the current server key; a new one was made');
    const jwks = newJwks();
    await replaceSetting(db, jwksId, sealSecret(serverKey, JSON.stringify(jwks), context));
    return jwks;
  }
}

export function newJwks() {
  const jwk = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
  return { keys: [{ ...jwk, kid: `k${Date.now().toString(36)}`, alg: 'ES256', use: 'sig' }] as Record<string, unknown>[] };
}

/** Keys for the provider's signed cookies, derived from the server key so every process agrees. */
export const cookieKeys = (serverKey: Buffer) => [createHmac('sha256', serverKey).update('oauth cookie keys v1').digest('base64url')];
