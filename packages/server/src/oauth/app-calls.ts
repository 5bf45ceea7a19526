import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../db/client.ts';

/** How many calls each app keeps, and how many a second of them are written (the rest go unrecorded). */
export const keptCalls = 20;
const writesPerSecond = 3;

export interface AppCallRow {
  app_id: string;
  method: string;
  path: string;
  status: number;
  at: Date;
}

/**
 * The last requests each OAuth app made with its tokens, for the dashboard's Apps page
 * (`recentCalls`). Written after the response, at most `writesPerSecond` a second per app in
 * each process (a busy app's log is a sample, never a load), and trimmed to the newest
 * `keptCalls` rows, so the table stays small however busy the app is. The path has no query
 * string: only where the app went, never what it sent.
 */
export function installAppCallLog(app: FastifyInstance, db: Queryable) {
  const windows = new Map<string, { second: number; count: number }>();
  // With `done` rather than async: it runs after every response, and most are no app's.
  app.addHook('onResponse', (req, reply, done) => {
    const p = req.principal;
    if (p?.via !== 'oauth' || !p.appId) return done();
    const key = `${p.brandId} ${p.appId}`;
    const second = Math.floor(Date.now() / 1000);
    const w = windows.get(key);
    if (w && w.second === second && w.count >= writesPerSecond) return done();
    if (w && w.second === second) w.count++;
    else windows.set(key, { second, count: 1 });
    if (windows.size > 10_000) windows.clear();
    const path = req.url.split('?')[0].slice(0, 300);
    recordCall(db, p.brandId, p.appId, req.method, path, reply.statusCode)
      .catch((err: unknown) => req.log.warn({ err }, 'could not record the app call'))
      .finally(() => done());
  });
}

async function recordCall(db: Queryable, brandId: string, appId: string, method: string, path: string, status: number) {
  await db.query(
    'INSERT INTO oauth_app_calls (brand_id, app_id, method, path, status) VALUES ($1, $2, $3, $4, $5)',
    [brandId, appId, method, path, status], 'app_call_insert',
  );
  await db.query(
    `DELETE FROM oauth_app_calls WHERE brand_id = $1 AND app_id = $2 AND id < (
       SELECT id FROM oauth_app_calls WHERE brand_id = $1 AND app_id = $2 ORDER BY id DESC OFFSET $3 LIMIT 1)`,
    [brandId, appId, keptCalls - 1], 'app_call_trim',
  );
}

/** The brand's apps' recent calls, newest first, at most `keptCalls` per app. */
export async function recentCalls(db: Queryable, brandId: string): Promise<Map<string, AppCallRow[]>> {
  const rows = await db.query<AppCallRow>(
    'SELECT app_id, method, path, status, at FROM oauth_app_calls WHERE brand_id = $1 ORDER BY id DESC LIMIT 2000',
    [brandId],
  );
  const byApp = new Map<string, AppCallRow[]>();
  for (const row of rows) {
    const list = byApp.get(row.app_id) ?? [];
    if (list.length < keptCalls) list.push(row);
    byApp.set(row.app_id, list);
  }
  return byApp;
}
