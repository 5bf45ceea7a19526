import type { Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The process's Prometheus metrics (docs/observability.md). prom-client is loaded only when
 * METRICS_PORT is set: `enableMetrics()` builds them once per process, and until then the
 * recording functions below are a check of one variable. Every label has a bounded set of
 * values: a route's pattern (never its path), a status code, an outcome from a fixed list.
 */
export interface ServiceMetrics {
  registry: Registry;
  httpRequests: Histogram<'method' | 'route' | 'status_code'>;
  deliveries: Counter<'outcome'>;
  deliveryDuration: Histogram<'outcome'>;
  /** Set from the database at each scrape (observability/backlog.ts). */
  backlog: {
    deliveriesPending: Gauge;
    deliveriesDue: Gauge;
    oldestDueAge: Gauge;
    endpointFailing: Gauge<'endpoint_id'>;
    importsUnfinished: Gauge;
    importRecordsPending: Gauge;
    renewalsDue: Gauge;
    renewalLag: Gauge;
    payoutsDue: Gauge;
    payoutLag: Gauge;
    poolConnections: Gauge<'state'>;
    poolWaiting: Gauge;
    poolMax: Gauge;
    scrapeSuccess: Gauge;
  };
}

/** What became of one delivery when its attempt ended (or when it was given up without one). */
export type DeliveryOutcome = 'succeeded' | 'retrying' | 'failed' | 'abandoned';

let current: ServiceMetrics | undefined;
let loading: Promise<ServiceMetrics> | undefined;

/** The metrics of this process, made on first call; later calls return the same ones. */
export function enableMetrics(): Promise<ServiceMetrics> {
  // prom-client is CommonJS: its module.exports is the default export, from the sources and from
  // the bundle alike (the bundle has no named exports for it; scripts/server-build.ts).
  loading ??= import('prom-client').then(({ default: prom }) => {
    const registry = new prom.Registry();
    // Event-loop lag (nodejs_eventloop_lag_*), heap, GC pauses, CPU, open handles.
    prom.collectDefaultMetrics({ register: registry });
    // Gauges named like counters, which promtool's lint refuses; nodejs_active_handles and
    // nodejs_active_requests (by type) say the same.
    for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total']) registry.removeSingleMetric(name);
    const registers = [registry];
    const gauge = (name: string, help: string) => new prom.Gauge({ name, help, registers });
    current = {
      registry,
      httpRequests: new prom.Histogram({
        name: 'http_request_duration_seconds',
        help: 'HTTP requests by method, route pattern and status code, and how long each took to answer.',
        labelNames: ['method', 'route', 'status_code'],
        buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
        registers,
      }),
      deliveries: new prom.Counter({
        name: 'webhook_deliveries_total',
        help: 'Webhook delivery attempts recorded by this process, by outcome: succeeded, retrying (failed, another attempt scheduled), failed (no attempt left), abandoned (endpoint disabled or deleted, not sent).',
        labelNames: ['outcome'],
        registers,
      }),
      deliveryDuration: new prom.Histogram({
        name: 'webhook_delivery_duration_seconds',
        help: 'How long a receiver took to answer a delivery attempt (or to fail it), by outcome.',
        labelNames: ['outcome'],
        buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
        registers,
      }),
      backlog: {
        deliveriesPending: gauge('webhook_delivery_queue_depth', 'Webhook deliveries pending (waiting for their first attempt or a retry, or being sent), all brands.'),
        deliveriesDue: gauge('webhook_delivery_queue_due', 'Pending webhook deliveries whose attempt time has come.'),
        oldestDueAge: gauge('webhook_delivery_oldest_due_age_seconds', 'How long the longest-waiting due delivery has been due (0 when none is).'),
        endpointFailing: new prom.Gauge({
          name: 'webhook_endpoint_failing_deliveries',
          help: 'Pending deliveries that have failed at least once, for the 10 endpoints with the most.',
          labelNames: ['endpoint_id'],
          registers,
        }),
        importsUnfinished: gauge('imports_unfinished', 'Imports queued or being processed.'),
        importRecordsPending: gauge('import_records_pending', 'Records of unfinished imports still to be written.'),
        renewalsDue: gauge('subscription_renewals_due', 'Subscriptions whose renewal, retry or end of access is due (each in its own mode\'s time) and not yet done.'),
        renewalLag: gauge('subscription_renewal_lag_seconds', 'How long the longest-waiting due subscription has been due (0 when none is).'),
        payoutsDue: gauge('payouts_due', 'Balances whose payout run time has passed and that are not yet settled.'),
        payoutLag: gauge('payout_lag_seconds', 'How long the longest-waiting due payout run has been due (0 when none is).'),
        // Registered by the first scrape that finds a pool (PostgreSQL): the embedded database has none.
        poolConnections: new prom.Gauge({
          name: 'db_pool_connections',
          help: 'PostgreSQL connections of this process\'s pool, by state (idle or busy).',
          labelNames: ['state'],
          registers: [],
        }),
        poolWaiting: new prom.Gauge({ name: 'db_pool_waiting_requests', help: 'Queries of this process waiting for a pooled PostgreSQL connection.', registers: [] }),
        poolMax: new prom.Gauge({ name: 'db_pool_max_connections', help: 'The most connections this process\'s PostgreSQL pool opens.', registers: [] }),
        scrapeSuccess: gauge('backlog_scrape_success', '1 when this scrape read the queues from the database, 0 when the database did not answer.'),
      },
    };
    return current;
  });
  return loading;
}

/** Counts one delivery's recorded outcome and its attempt's duration (webhooks/delivery.ts); nothing when metrics are off. */
export function recordDeliveryOutcome(outcome: DeliveryOutcome, durationMs?: number): void {
  if (!current) return;
  current.deliveries.inc({ outcome });
  if (durationMs !== undefined) current.deliveryDuration.observe({ outcome }, durationMs / 1000);
}
