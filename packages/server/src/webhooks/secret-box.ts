import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, type Config } from '../config.ts';

/**
 * Signing secrets at rest: AES-256-GCM under the server key. Stored as
 * `v1.<iv b64url>.<tag b64url>.<ciphertext b64url>`; the endpoint's brand and id are the
 * additional data, so a sealed secret copied onto another endpoint row does not open.
 */
export function sealSecret(key: Buffer, secret: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context));
  const ct = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), ct].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
}

export function openSecret(key: Buffer, sealed: string, context: string): string {
  const [version, iv, tag, ct] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || ct === undefined) throw new Error('sealed webhook secret has an unknown format');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
}

export const secretContext = (brandId: string, endpointId: string) => `${brandId}/${endpointId}`;

const keyFile = 'webhook-secret.key';

/**
 * The key that seals signing secrets. WEBHOOK_SECRET_KEY when set. Embedded mode without it
 * generates one on first use and keeps it in the data folder (mode 0600) beside the database, so
 * a restart still opens the secrets. With DATABASE_URL every process must share one key, so it
 * has to be configured: guessing one per machine would fail only later, at delivery time.
 */
export function webhookKey(config: Pick<Config, 'databaseUrl' | 'dataDir' | 'webhooks'>): Buffer {
  if (config.webhooks.secretKey) return config.webhooks.secretKey;
  if (config.databaseUrl) {
    throw new ConfigError('WEBHOOK_SECRET_KEY must be set when DATABASE_URL is set: every api and worker process needs the same key to seal and open webhook signing secrets. Make one with `openssl rand -base64 32`.');
  }
  const path = join(config.dataDir, keyFile);
  try {
    return decodeKeyFile(readFileSync(path, 'utf8'), path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(config.dataDir, { recursive: true });
  try {
    writeFileSync(path, `${randomBytes(32).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err; // another process won the race
  }
  return decodeKeyFile(readFileSync(path, 'utf8'), path);
}

function decodeKeyFile(text: string, path: string): Buffer {
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== 32) throw new ConfigError(`${path} does not hold a 32-byte base64 key; restore it from a backup or set WEBHOOK_SECRET_KEY.`);
  return key;
}
