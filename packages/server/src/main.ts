import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openPglite, openPostgres, type Db } from './db/client.ts';
import { acquireDataLock, DataDirBusyError } from './db/data-lock.ts';
import { startEmbeddedMaintenance } from './db/maintenance.ts';
import { migrate } from './db/migrate.ts';
import { workSources } from './worker/sources.ts';
import { startWorker } from './worker/loop.ts';

async function main() {
  const config = loadConfig();
  const log = pino({ level: config.logLevel });

  let db: Db;
  let lock: Awaited<ReturnType<typeof acquireDataLock>> | undefined;
  const adminToken = config.databaseUrl ? undefined : randomBytes(24).toString('base64url');
  if (config.databaseUrl) {
    db = openPostgres(config.databaseUrl);
  } else {
    try {
      lock = await acquireDataLock(config.dataDir, { role: 'server', adminToken });
    } catch (err) {
      if (err instanceof DataDirBusyError) {
        process.stderr.write(`${err.message} Stop it first, or point DATA_DIR at another folder.\n`);
        process.exit(1);
      }
      throw err;
    }
    db = await openPglite(config.dataDir);
  }

  const applied = await migrate(db);
  if (applied.length) log.info({ applied }, 'migrations applied');
  const stopMaintenance = startEmbeddedMaintenance(db, (err) => log.error({ err }, 'ANALYZE failed'));

  const app = config.roles.api ? await buildApp({ db, config, adminToken }) : undefined;
  if (app) {
    await app.listen({ port: config.port, host: config.host });
    const address = app.server.address();
    await lock?.update({ port: typeof address === 'object' && address ? address.port : config.port });
  }
  const worker = config.roles.worker ? await startWorker(db, workSources({ db, config, log }), log) : undefined;
  log.info({ database: db.kind, roles: config.roles, port: config.port }, 'service started');

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down');
    stopMaintenance();
    await app?.close();
    await worker?.stop();
    await db.close();
    await lock?.release();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

try {
  await main();
} catch (err) {
  // A setting found wrong during start-up (some are checked only once the data folder or the
  // database is open) stops the process with its message, not a stack trace.
  if (!(err instanceof ConfigError)) throw err;
  process.stderr.write(`Configuration error: ${err.message}\n`);
  process.exit(1);
}
