import type { Db } from '../db/client.ts';
import { notAdvancingSql, rowNowSql } from '../clock/repository.ts';
import { nextBoundarySql, type Boundaries } from '../payouts/repository.ts';
import type { ServiceMetrics } from './metrics.ts';

/**
 * The queues' state, read from the database when /metrics is scraped (every 15 to 60 s), not
 * counted in memory: any process may serve the figures and they are right for the whole cluster.
 * Each part reads an index the worker's own claims read every second anyway:
 * - deliveries: webhook_queue (migration 038), which holds only pending deliveries, counted on its
 *   index webhook_queue_due (brand_id, next_attempt_at), whose pass also finds the oldest entry
 *   (next_attempt_at IS NOT NULL, always true, is that index's predicate: the migration says why);
 * - imports: imports_unfinished, which holds only queued and processing imports;
 * - renewals and payouts: the same due conditions as the worker's claims, in each row's own
 *   mode's time (test clocks), so "due" means what the worker would take now.
 */
const backlogSql = `
WITH deliveries AS (
  SELECT count(*) AS pending,
         count(*) FILTER (WHERE next_attempt_at <= now()) AS due,
         extract(epoch FROM greatest(now() - min(next_attempt_at), interval '0')) AS oldest_due_s
  FROM webhook_queue WHERE next_attempt_at IS NOT NULL
), imports AS (
  SELECT count(*) AS unfinished, coalesce(sum(pending_count), 0) AS records
  FROM imports WHERE status IN ('queued', 'processing')
), renewals AS (
  SELECT count(*) AS due, coalesce(max(extract(epoch FROM ${rowNowSql('s')} - s.due_at)), 0) AS lag_s
  FROM subscriptions s WHERE s.due_at IS NOT NULL AND s.due_at <= ${rowNowSql('s')} AND ${notAdvancingSql('s')}
), payouts AS (
  SELECT count(*) AS due, coalesce(max(extract(epoch FROM ${rowNowSql('p')} - ${nextBoundarySql('p.period_start', '$1::float8', '$2::float8')})), 0) AS lag_s
  FROM payout_schedules p WHERE ${nextBoundarySql('p.period_start', '$1::float8', '$2::float8')} <= ${rowNowSql('p')} AND ${notAdvancingSql('p')}
)
SELECT d.pending, d.due, coalesce(d.oldest_due_s, 0) AS oldest_due_s, i.unfinished AS imports, i.records AS import_records,
       r.due AS renewals_due, r.lag_s AS renewal_lag_s, p.due AS payouts_due, p.lag_s AS payout_lag_s
FROM deliveries d, imports i, renewals r, payouts p`;

interface BacklogRow {
  pending: number; due: number; oldest_due_s: number; imports: number; import_records: number;
  renewals_due: number; renewal_lag_s: number; payouts_due: number; payout_lag_s: number;
}

/**
 * The endpoints with the most pending deliveries that already failed once: who is failing now.
 * Ten at most, so the label's values stay bounded whatever the number of endpoints; a gauge set
 * afresh on every scrape, so an endpoint that recovers drops out.
 */
const failingEndpointsSql = `
SELECT endpoint_id, count(*) AS failing FROM webhook_queue
WHERE attempts > 0
GROUP BY endpoint_id ORDER BY failing DESC, endpoint_id LIMIT 10`;

/** Sets the backlog gauges from the database; on failure they are cleared and backlog_scrape_success is 0. */
export async function refreshBacklog(metrics: ServiceMetrics, db: Db, payoutBoundaries: Boundaries): Promise<void> {
  const g = metrics.backlog;
  const pool = db.poolUse?.();
  if (pool) {
    if (!metrics.registry.getSingleMetric('db_pool_connections')) {
      for (const gauge of [g.poolConnections, g.poolWaiting, g.poolMax]) metrics.registry.registerMetric(gauge);
    }
    g.poolConnections.set({ state: 'busy' }, pool.total - pool.idle);
    g.poolConnections.set({ state: 'idle' }, pool.idle);
    g.poolWaiting.set(pool.waiting);
    g.poolMax.set(pool.max);
  }
  const figures = [g.deliveriesPending, g.deliveriesDue, g.oldestDueAge, g.importsUnfinished, g.importRecordsPending, g.renewalsDue, g.renewalLag, g.payoutsDue, g.payoutLag];
  try {
    const [[row], failing] = await Promise.all([
      db.query<BacklogRow>(backlogSql, [payoutBoundaries.everyMs, payoutBoundaries.offsetMs]),
      db.query<{ endpoint_id: string; failing: number }>(failingEndpointsSql),
    ]);
    // pg returns numeric (extract's type) as text: Number() for every figure.
    const values = [row.pending, row.due, row.oldest_due_s, row.imports, row.import_records, row.renewals_due, row.renewal_lag_s, row.payouts_due, row.payout_lag_s];
    figures.forEach((gauge, i) => gauge.set(Number(values[i])));
    g.endpointFailing.reset();
    for (const f of failing) g.endpointFailing.set({ endpoint_id: f.endpoint_id }, Number(f.failing));
    g.scrapeSuccess.set(1);
  } catch (err) {
    // Stale figures would look like a healthy queue; absent ones alert (absent() or the 0 below).
    for (const gauge of figures) gauge.reset();
    g.endpointFailing.reset();
    g.scrapeSuccess.set(0);
    throw err;
  }
}
