import { readdir, readFile } from 'node:fs/promises';
import type { Db } from './client.ts';
import { ensureLogPartitionsAround } from './partitions.ts';

const dir = new URL('./migrations/', import.meta.url);

/**
 * Applies every migration in db/migrations that this database has not seen, in file-name order,
 * each in its own transaction. Safe to run from several processes at once: an advisory lock
 * makes the second one wait and then find nothing left to do. Then makes sure the delivery log
 * has its daily partitions from yesterday to two days ahead (db/partitions.ts): every process asks
 * this at start, so an API-only deployment, with no worker to make them hourly, never fails an
 * insert for want of today's partition (one catalogue read when they are all there).
 */
export async function migrate(db: Db): Promise<string[]> {
  const applied = await applyMigrations(db);
  await ensureLogPartitionsAround(db);
  return applied;
}

async function applyMigrations(db: Db): Promise<string[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
  if (await allApplied(db, files)) return [];
  const applied: string[] = [];
  await db.transaction(async (tx) => {
    // A migration may take longer than the service's statement_timeout allows a request.
    await tx.query('SET LOCAL statement_timeout = 0');
    await tx.query('SELECT pg_advisory_xact_lock(7283541)');
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      name text PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const done = new Set((await tx.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name));
    for (const file of files) {
      if (done.has(file)) continue;
      const sql = await readFile(new URL(file, dir), 'utf8');
      await tx.exec(sql);
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
      applied.push(file);
    }
  });
  return applied;
}

/**
 * Whether this database has applied every file already: what nearly every start finds, told by
 * one read, without the transaction, the lock and the CREATE TABLE IF NOT EXISTS below. A
 * migration that another process is applying at this moment is not in the table yet, so this
 * answers false and the caller waits on the lock as before.
 */
async function allApplied(db: Db, files: string[]): Promise<boolean> {
  const [{ present }] = await db.query<{ present: boolean }>(`SELECT to_regclass('schema_migrations') IS NOT NULL AS present`);
  if (!present) return false;
  const done = new Set((await db.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name));
  return files.every((file) => done.has(file));
}
