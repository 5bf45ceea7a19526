import { randomBytes } from 'node:crypto';
import { openPglite, openPostgres, type Db } from '../db/client.ts';
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
    const db = await openPglite();
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
