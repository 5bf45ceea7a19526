import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { embeddedSettings, openPglite, openPostgres, type Db, type Queryable } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';

/**
 * Which database this test run uses: PGlite unless scripts/test.ts set TEST_DB=postgres (it does
 * when TEST_DATABASE_URL is set).
 */
export const testDbKind: 'pglite' | 'postgres' = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';

export interface TestDb {
  db: Db;
  /** For tests that start a second process or pool on the same data (PostgreSQL only). */
  url?: string;
  searchPath?: string;
  close(): Promise<void>;
}

/** A fresh, migrated database for one test file: in-memory PGlite, or its own PostgreSQL schema. */
export async function openTestDb(): Promise<TestDb> {
  if (testDbKind === 'pglite') {
    const db = await openPglite(undefined, { loadDataDir: await migratedPgliteImage() });
    // Nothing to apply (the image is migrated); still asked, as every start asks.
    await migrate(db);
    return { db, close: () => db.close() };
  }
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL.');
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = openPostgres(url, { max: 1 });
  await admin.query(`CREATE SCHEMA ${schema}`);
  const db = openPostgres(url, { searchPath: schema });
  await migrate(db);
  return {
    db,
    url,
    searchPath: schema,
    async close() {
      await db.close();
      await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      await admin.close();
    },
  };
}

const migrationsDir = new URL('../db/migrations/', import.meta.url);
/** This checkout's own cache of migrated databases (npm ci empties it; another checkout has its own migrations). */
export const testCacheDir = new URL('../../../../node_modules/.cache/creator-commerce-tests/', import.meta.url).pathname;
// The package does not export its package.json; it sits one folder above the entry point.
const pgliteVersion = (JSON.parse(readFileSync(new URL('../package.json', import.meta.resolve('@electric-sql/pglite')), 'utf8')) as { version: string }).version;
let image: Promise<Blob> | undefined;

/**
 * An empty embedded database with every migration applied, as the tar PGlite loads. Starting an
 * empty PGlite runs initdb, which took most of a test file's set-up (about 15 s of a 20 s open
 * and migrate on the shared 2-core machine, against 2 to 4 s to load this). The tar is made once
 * per set of migrations, PGlite version and settings, and kept in node_modules/.cache for
 * every test process (and the next run) to load; a changed migration names another file.
 */
function migratedPgliteImage(): Promise<Blob> {
  image ??= (async () => {
    const name = `cc-test-pglite-${await migrationSetKey()}.tar`;
    const path = join(testCacheDir, name);
    const cached = await readFile(path).catch(() => undefined);
    if (cached) return new Blob([cached]);
    const tar = await buildImage();
    await mkdir(testCacheDir, { recursive: true });
    // Written aside and renamed: a process reading the path sees a whole file or none.
    const partial = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
    await writeFile(partial, new Uint8Array(await tar.arrayBuffer()));
    await rename(partial, path);
    // Images of older migration sets are no use to anyone.
    for (const old of await readdir(testCacheDir)) {
      if (old.startsWith('cc-test-pglite-') && old.endsWith('.tar') && old !== name) await unlink(join(testCacheDir, old)).catch(() => {});
    }
    return tar;
  })();
  return image;
}

/**
 * What names one set of migrations on one PGlite with one set of settings: a migrated copy made
 * for one key serves every test of it (testing/cli-store.ts keeps a migrated data folder by it too).
 */
export async function migrationSetKey(): Promise<string> {
  const files = (await readdir(migrationsDir)).filter((f) => f.endsWith('.sql')).sort();
  const hash = createHash('sha256').update(pgliteVersion).update(JSON.stringify(embeddedSettings()));
  for (const file of files) hash.update(file).update(await readFile(new URL(file, migrationsDir)));
  return hash.digest('hex').slice(0, 16);
}

/**
 * Migrates an empty in-memory database with the service's own migrate(), then tars it. The
 * handle below is the least of a Db that migrate() needs, on a PGlite kept at hand for the dump.
 */
async function buildImage(): Promise<Blob> {
  const settings = Object.entries(embeddedSettings()).flatMap(([name, value]) => ['-c', `${name}=${value}`]);
  const lite = await PGlite.create('memory://', { startParams: [...PGlite.defaultStartParams, ...settings] });
  const on = (q: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
    query: async <R>(sql: string, params: unknown[] = []) => (await q.query<R>(sql, params)).rows,
    exec: async (sql: string) => { await q.exec(sql); },
  });
  const db: Db = {
    kind: 'pglite',
    ...on(lite),
    transaction: (fn) => lite.transaction((tx) => fn(on(tx))),
    listen: () => { throw new Error('migrations do not listen'); },
    onCommit: () => () => {},
    close: () => lite.close(),
  };
  await migrate(db);
  // Written to the data files now, so a loaded copy starts without replaying the log.
  await lite.exec('CHECKPOINT');
  const tar = await lite.dumpDataDir('none');
  await lite.close();
  return tar;
}
