import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../app.ts';
import type { App } from '../http/app-type.ts';
import { KeyCache } from '../keys/cache.ts';
import { openTestDb, type TestDb } from './db.ts';

export interface TestApp extends TestDb {
  app: App;
  keyCache: KeyCache;
  /** app.inject with the key header set when `key` is given; the JSON body parsed. */
  request(options: InjectOptions & { key?: string }): Promise<LightMyRequestResponse & { body: string; json: <T = any>() => T }>;
}

/** The real app on a fresh database; call close() in after(). */
export async function startTestApp(overrides: { keyCacheMs?: number; publicUrl?: string } = {}): Promise<TestApp> {
  const testDb = await openTestDb();
  const keyCache = new KeyCache(overrides.keyCacheMs ?? 500);
  const app = await buildApp({
    db: testDb.db,
    keyCache,
    config: { bodyLimitBytes: 4 * 1024 * 1024, logLevel: process.env.TEST_LOG_LEVEL ?? 'silent', keyCacheMs: 500, publicUrl: overrides.publicUrl ?? 'http://localhost:3000' },
  });
  await app.ready();
  return {
    ...testDb,
    app,
    keyCache,
    request: ({ key, headers, ...options }) =>
      app.inject({ ...options, headers: { ...headers, ...(key ? { 'x-service-api': key } : {}) } }) as never,
    async close() {
      await app.close();
      await testDb.close();
    },
  };
}
