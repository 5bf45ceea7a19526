import { AppError } from '../errors.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { openPglite, openPostgres } from '../db/client.ts';
import { acquireDataLock, DataDirBusyError, readDataLock, type DataLock } from '../db/data-lock.ts';
import { migrate } from '../db/migrate.ts';
import { runCommand, type Command } from './commands.ts';
import { HelpRequested, parseCommand, UsageError } from './parse.ts';
import { wireEventSubscribers } from '../subscribers.ts';

/**
 * The admin CLI. With DATABASE_URL it talks to PostgreSQL directly. In embedded mode the data
 * folder belongs to one process: if the server runs, the command is sent to it (its lock file
 * names its port and admin token); if not, the CLI opens the folder itself, holding the lock
 * so that a server started meanwhile refuses to open it too.
 */
async function run(argv: string[]): Promise<unknown> {
  const cmd = await parseCommand(argv);
  const config = loadConfig();
  // A composition root too: commands that record events (order fulfil, member remove) send their
  // webhooks and mail like the API does.
  wireEventSubscribers();
  if (config.databaseUrl) {
    const db = openPostgres(config.databaseUrl, { max: 2 });
    try {
      if (cmd.command !== 'migrate') await migrate(db);
      return await runCommand(db, undefined, cmd, config);
    } finally {
      await db.close();
    }
  }
  const lock = await lockOrServer(config.dataDir);
  if ('port' in lock) return viaServer(lock, cmd);
  const db = await openPglite(config.dataDir, { sharedBuffersMb: config.pgliteSharedBuffersMb });
  try {
    if (cmd.command !== 'migrate') await migrate(db);
    return await runCommand(db, undefined, cmd, config);
  } finally {
    await db.close();
    await lock.release();
  }
}

/** How long the CLI waits for a server that is still starting, and for another CLI command. */
const waitForStartingServerMs = 30_000;
const waitForOtherCommandMs = 10_000;

/**
 * Takes the data folder, or finds the running server to send the command to. A server that holds
 * the folder but does not listen yet (it is opening the database: seconds on a cold start) is
 * waited for, and so, more briefly, is another CLI command; the wait is announced once on stderr.
 */
async function lockOrServer(dataDir: string): Promise<Awaited<ReturnType<typeof acquireDataLock>> | Required<DataLock>> {
  const started = Date.now();
  let announced = false;
  for (;;) {
    const holder = await readDataLock(dataDir);
    if (holder?.role === 'server' && holder.port && holder.adminToken) return holder as Required<DataLock>;
    if (!holder) {
      try {
        return await acquireDataLock(dataDir, { role: 'cli' });
      } catch (err) {
        if (err instanceof DataDirBusyError) continue; // taken meanwhile: look at the new holder
        throw err;
      }
    }
    const limit = holder.role === 'server' ? waitForStartingServerMs : waitForOtherCommandMs;
    if (Date.now() - started > limit) {
      throw new Error(`The data folder ${dataDir} is busy (process ${holder.pid}, ${holder.role === 'server' ? 'a server that has not finished starting' : 'another CLI command'}); try again in a moment.`);
    }
    if (!announced) {
      announced = true;
      process.stderr.write(holder.role === 'server'
        ? `Waiting for the server (process ${holder.pid}) to finish starting (up to ${waitForStartingServerMs / 1000} s)…\n`
        : `Waiting for another CLI command (process ${holder.pid}) to finish (up to ${waitForOtherCommandMs / 1000} s)…\n`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function viaServer(holder: Required<DataLock>, cmd: Command): Promise<unknown> {
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
  if (err instanceof HelpRequested) {
    // Asked for: the answer, on stdout, and success.
    process.stdout.write(`${err.message}\n`);
  } else {
    const message = err instanceof UsageError || err instanceof ConfigError || err instanceof AppError || err instanceof Error
      ? err.message
      : String(err);
    process.stderr.write(`${message}\n`);
    process.exitCode = 1;
  }
}
