import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { cp, mkdir, mkdtemp, readdir, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPostgres } from '../db/client.ts';
import { migrationSetKey, testCacheDir, testDbKind } from './db.ts';
import { runCli, urlWithSchema } from './processes.ts';

/**
 * A store of its own for CLI process tests, migrated by the CLI itself: on PostgreSQL runs a fresh
 * schema of TEST_DATABASE_URL, on the embedded database a fresh data folder. `env` is what the
 * CLI and server processes get; `cleanup` drops the schema or removes the folder.
 */
export async function migratedCliStore(name: string): Promise<{ env: Record<string, string>; cleanup: () => Promise<void> }> {
  if (testDbKind === 'pglite') {
    const dir = await mkdtemp(join(tmpdir(), `${name}-`));
    await cp(await cliMigratedFolder(), dir, { recursive: true });
    return { env: { DATA_DIR: dir }, cleanup: () => rm(dir, { recursive: true, force: true }) };
  }
  const schema = `cli_${Math.random().toString(36).slice(2, 10)}`;
  const admin = openPostgres(process.env.TEST_DATABASE_URL!, { max: 1 });
  await admin.query(`CREATE SCHEMA ${schema}`);
  const env = { DATABASE_URL: urlWithSchema(process.env.TEST_DATABASE_URL!, schema) };
  const migrated = await runCli(['migrate'], env);
  assert.equal(migrated.code, 0, migrated.stderr);
  return { env, cleanup: async () => { await admin.query(`DROP SCHEMA ${schema} CASCADE`); await admin.close(); } };
}

/**
 * An embedded data folder that `cli migrate` made, kept in this checkout's test cache for each set
 * of migrations: a CLI process on a new folder runs initdb (about 6 s of CPU), copying one is a
 * fraction of a second. Each store is a copy, so tests still never share data.
 */
async function cliMigratedFolder(): Promise<string> {
  const key = await migrationSetKey();
  const folder = join(testCacheDir, `cli-data-${key}`);
  if (await stat(join(folder, 'PG_VERSION')).then(() => true, () => false)) return folder;
  await mkdir(testCacheDir, { recursive: true });
  const building = join(testCacheDir, `building-${key}-${process.pid}-${randomBytes(4).toString('hex')}`);
  const migrated = await runCli(['migrate'], { DATA_DIR: building });
  assert.equal(migrated.code, 0, migrated.stderr);
  // Renamed into place whole; if another process got there first, its folder is as good.
  await rename(building, folder).catch(() => rm(building, { recursive: true, force: true }));
  for (const old of await readdir(testCacheDir)) {
    if (old.startsWith('cli-data-') && old !== `cli-data-${key}`) await rm(join(testCacheDir, old), { recursive: true, force: true });
  }
  return folder;
}
