import { link, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * PGlite keeps one database in a folder and must be opened by one process at a time. Whoever
 * opens it writes `lock.json` there first; the CLI reads it to find the running server.
 */
export interface DataLock {
  pid: number;
  role: 'server' | 'cli';
  /** The server's port, once it listens, and the token its admin route accepts. */
  port?: number;
  adminToken?: string;
}

export class DataDirBusyError extends Error {
  readonly holder: DataLock;
  constructor(dataDir: string, holder: DataLock) {
    super(`The data folder ${dataDir} is in use by process ${holder.pid} (${holder.role}).`);
    this.holder = holder;
  }
}

const lockPath = (dataDir: string) => join(dataDir, 'lock.json');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The lock's holder if a live process holds it; a lock left by a dead process is ignored. */
export async function readDataLock(dataDir: string): Promise<DataLock | undefined> {
  try {
    const lock = JSON.parse(await readFile(lockPath(dataDir), 'utf8')) as DataLock;
    return alive(lock.pid) && lock.pid !== process.pid ? lock : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Writes the lock file whole: to a temporary file first, then moved into place, so a reader never
 * sees it half-written (and never mistakes a half-written lock for a dead one and removes it).
 * `exclusive` fails with EEXIST when a lock is there already.
 */
async function writeLock(dataDir: string, lock: DataLock, exclusive: boolean) {
  const temporary = join(dataDir, `lock.json.${process.pid}.tmp`);
  await writeFile(temporary, JSON.stringify(lock), { mode: 0o600 });
  try {
    if (exclusive) await link(temporary, lockPath(dataDir));
    else await rename(temporary, lockPath(dataDir));
  } finally {
    await rm(temporary, { force: true });
  }
}

/** Takes the folder for this process, or throws DataDirBusyError naming the live holder. */
export async function acquireDataLock(dataDir: string, lock: Omit<DataLock, 'pid'>) {
  await mkdir(dataDir, { recursive: true, mode: 0o700 }); // openPglite tightens it further (secureDataDir)
  const mine: DataLock = { pid: process.pid, ...lock };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeLock(dataDir, mine, true);
      return {
        update: (more: Partial<DataLock>) => writeLock(dataDir, Object.assign(mine, more), false),
        release: () => rm(lockPath(dataDir), { force: true }),
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = await readDataLock(dataDir);
      if (holder) throw new DataDirBusyError(dataDir, holder);
      await rm(lockPath(dataDir), { force: true }); // left by a process that died
    }
  }
  throw new Error(`Could not take the lock on ${dataDir}.`);
}
