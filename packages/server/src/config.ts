import { resolve } from 'node:path';

/** Every setting the service reads, parsed and validated once at start. */
export interface Config {
  port: number;
  host: string;
  /** Embedded mode's data folder; unused when databaseUrl is set. */
  dataDir: string;
  /** PostgreSQL connection string; absent means the embedded PGlite database. */
  databaseUrl?: string;
  publicUrl: string;
  logLevel: string;
  bodyLimitBytes: number;
  /** Which roles this process runs; embedded mode always runs both. */
  roles: { api: boolean; worker: boolean };
  /** How long a verified API key is trusted without asking the database again. */
  keyCacheMs: number;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}; got "${raw}".`);
  }
  return Number(raw);
}

function url(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} is not a valid URL.`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must start with ${protocols.map((p) => `${p}//`).join(' or ')}.`);
  }
  return raw;
}

export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const databaseUrl = url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  const publicUrl = (url(env, 'PUBLIC_URL', ['http:', 'https:']) ?? `http://localhost:${port}`).replace(/\/+$/, '');
  const logLevel = env.LOG_LEVEL || 'info';
  const levels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
  if (!levels.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${levels.join(', ')}; got "${logLevel}".`);

  const roleList = (env.ROLES || 'api,worker').split(',').map((r) => r.trim());
  for (const role of roleList) {
    if (role !== 'api' && role !== 'worker') throw new ConfigError(`ROLES must list api and/or worker; got "${role}".`);
  }
  // The embedded database belongs to one process, so that process must do everything.
  const roles = databaseUrl
    ? { api: roleList.includes('api'), worker: roleList.includes('worker') }
    : { api: true, worker: true };

  return {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir: resolve(env.DATA_DIR || '.data'),
    databaseUrl,
    publicUrl,
    logLevel,
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 4 * 1024 * 1024, 1024, 100 * 1024 * 1024),
    roles,
    keyCacheMs: integer(env, 'KEY_CACHE_MS', 500, 0, 1000),
  };
}
