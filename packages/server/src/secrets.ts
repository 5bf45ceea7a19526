import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, type Config } from './config.ts';
import type { Secrets } from './deps.ts';

const keyFile = 'webhook-secret.key';

/**
 * The secrets a process needs, resolved once at start, before the database is touched, so a
 * missing one stops start-up with its name instead of failing later.
 *
 * The webhook sealing key is WEBHOOK_SECRET_KEY when set. Embedded mode without it generates one
 * on first start and keeps it in the data folder (mode 0600) beside the database, so a restart
 * still opens the secrets. With DATABASE_URL every process must share one key, so it has to be
 * configured: guessing one per machine would fail only later, at delivery time.
 */
export function resolveSecrets(config: Pick<Config, 'databaseUrl' | 'dataDir' | 'webhooks'>): Secrets {
  return { webhookKey: webhookKey(config) };
}

function webhookKey(config: Pick<Config, 'databaseUrl' | 'dataDir' | 'webhooks'>): Buffer {
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
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  chmodSync(config.dataDir, 0o700);
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
