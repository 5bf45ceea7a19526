import type { Config } from '../config.ts';
import { timingSafeEqual } from 'node:crypto';
import Value from 'typebox/value';
import type { Db } from '../db/client.ts';
import type { App } from '../http/app-type.ts';
import { AppError } from '../errors.ts';
import type { KeyCache } from '../keys/cache.ts';
import { Command, runCommand } from './commands.ts';

/**
 * Embedded mode's data folder belongs to the server process, so the CLI sends its commands here.
 * The token is random per server start and readable only from the data folder's lock file.
 */
export function adminRoutes(app: App, deps: { db: Db; keyCache: KeyCache; adminToken: string; config: Config }) {
  const expected = Buffer.from(deps.adminToken);
  app.post('/internal/cli', { schema: { hide: true } }, async (req) => {
    const given = Buffer.from(String(req.headers['x-admin-token'] ?? ''));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new AppError('authentication_required', 'The admin token is missing or wrong.');
    }
    if (!Value.Check(Command, req.body)) throw new AppError('validation_failed', 'Not a known admin command.');
    try {
      return { status: 'success', message: 'done', data: await runCommand(deps.db, deps.keyCache, req.body, deps.config) };
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw new AppError('validation_failed', (err as Error).message);
    }
  });
}
