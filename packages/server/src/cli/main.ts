import { AppError } from '../errors.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { openPglite, openPostgres } from '../db/client.ts';
import { acquireDataLock, DataDirBusyError, readDataLock, type DataLock } from '../db/data-lock.ts';
import { migrate } from '../db/migrate.ts';
import { runCommand, type Command } from './commands.ts';
import { parseCommand, UsageError } from './parse.ts';

/**
 * The admin CLI. With DATABASE_URL it talks to PostgreSQL directly. In embedded mode the data
 * folder belongs to one process: if the server runs, the command is sent to it (its lock file
 * names its port and admin token); if not, the CLI opens the folder itself, holding the lock
 * so that a server started meanwhile refuses to open it too.
 */
async function run(argv: string[]): Promise<unknown> {
  const cmd = await parseCommand(argv);
  const config = loadConfig();
  if (config.databaseUrl) {
    const db = openPostgres(config.databaseUrl, { max: 2 });
    try {
      if (cmd.command !== 'migrate') await migrate(db);
      return await runCommand(db, undefined, cmd);
    } finally {
      await db.close();
    }
  }
  const holder = await readDataLock(config.dataDir);
  if (holder) return viaServer(holder, cmd, config.dataDir);
  let lock;
  try {
    lock = await acquireDataLock(config.dataDir, { role: 'cli' });
  } catch (err) {
    if (err instanceof DataDirBusyError) return viaServer(err.holder, cmd, config.dataDir);
    throw err;
  }
  const db = await openPglite(config.dataDir);
  try {
    if (cmd.command !== 'migrate') await migrate(db);
    return await runCommand(db, undefined, cmd);
  } finally {
    await db.close();
    await lock.release();
  }
}

async function viaServer(holder: DataLock, cmd: Command, dataDir: string): Promise<unknown> {
  if (holder.role !== 'server' || !holder.port || !holder.adminToken) {
    throw new Error(`The data folder ${dataDir} is busy (process ${holder.pid}, ${holder.role}); try again in a moment.`);
  }
  const res = await fetch(`http://127.0.0.1:${holder.port}/internal/cli`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-admin-token': holder.adminToken },
    body: JSON.stringify(cmd),
  });
  const body = (await res.json()) as { status: string; message: string; data: unknown };
  if (body.status !== 'success') throw new Error(body.message);
  return body.data;
}

try {
  const result = await run(process.argv.slice(2));
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
} catch (err) {
  const message = err instanceof UsageError || err instanceof ConfigError || err instanceof AppError || err instanceof Error
    ? err.message
    : String(err);
  process.stderr.write(`${message}\n`);
  process.exitCode = 1;
}
