import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPostgres } from '../db/client.ts';
import { testDbKind } from './db.ts';
import { runCli, urlWithSchema } from './processes.ts';

/**
 * A store of its own for CLI process tests, migrated by the CLI itself: on PostgreSQL runs a fresh
 * schema of TEST_DATABASE_URL, on the embedded database a fresh data folder. `env` is what the
 * CLI and server processes get; `cleanup` drops the schema or removes the folder.
 */
export async function migratedCliStore(name: string): Promise<{ env: Record<string, string>; cleanup: () => Promise<void> }> {
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;
  if (testDbKind === 'postgres') {
    const schema = `cli_${Math.random().toString(36).slice(2, 10)}`;
    const admin = openPostgres(process.env.TEST_DATABASE_URL!, { max: 1 });
    await admin.query(`CREATE SCHEMA ${schema}`);
    env = { DATABASE_URL: urlWithSchema(process.env.TEST_DATABASE_URL!, schema) };
    cleanup = async () => { await admin.query(`DROP SCHEMA ${schema} CASCADE`); await admin.close(); };
  } else {
    const dir = await mkdtemp(join(tmpdir(), `${name}-`));
    env = { DATA_DIR: dir };
    cleanup = () => rm(dir, { recursive: true, force: true });
  }
  const migrated = await runCli(['migrate'], env);
  assert.equal(migrated.code, 0, migrated.stderr);
  return { env, cleanup };
}
