import type { Db } from './client.ts';

/**
 * PGlite has no autovacuum, so its planner statistics never refresh by themselves; with stale
 * statistics a keyset page falls back to sorting the whole brand (measured: 3 ms instead of
 * 0.8 ms on 10,000 products). The embedded server therefore analyzes soon after start and every
 * ten minutes. PostgreSQL's autovacuum does this on its own.
 *
 * Not at the very start: PGlite runs on the JavaScript thread, so an ANALYZE there held up the
 * first requests (docs/embedded.md). The statistics it refreshes are kept in the data folder, so
 * a restart serves with those of the last run's ANALYZE meanwhile.
 */
export function startEmbeddedMaintenance(db: Db, onError: (err: unknown) => void, everyMs = 10 * 60_000, firstAfterMs = 10_000): () => void {
  if (db.kind !== 'pglite') return () => {};
  const analyze = () => db.exec('ANALYZE').catch(onError);
  let timer = setTimeout(() => {
    void analyze();
    timer = setInterval(analyze, everyMs);
    timer.unref();
  }, firstAfterMs);
  timer.unref();
  return () => clearTimeout(timer);
}
