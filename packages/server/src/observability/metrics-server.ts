import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';
import type { Boundaries } from '../payouts/repository.ts';
import { refreshBacklog } from './backlog.ts';
import { enableMetrics } from './metrics.ts';

export interface MetricsServer {
  /** The port it listens on (METRICS_PORT, or the one picked for 0). */
  port: number;
  close(): Promise<void>;
}

/**
 * `GET /metrics` in Prometheus's text format, on a listener of its own (METRICS_PORT): never on
 * the public port, so the figures (queue depths, routes) are seen only by who can reach this one.
 * Every process with the setting serves it, a worker-only one too (it has no API server). Scrapes
 * that arrive while one reads the database share its reading.
 */
export async function startMetricsServer(options: {
  port: number;
  host: string;
  db: Db;
  payoutBoundaries: Boundaries;
  log: FastifyBaseLogger;
}): Promise<MetricsServer> {
  const metrics = await enableMetrics();
  let reading: Promise<void> | undefined;
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Only GET /metrics is served on this port.\n');
      return;
    }
    reading ??= refreshBacklog(metrics, options.db, options.payoutBoundaries)
      .catch((err: unknown) => options.log.warn({ err }, 'metrics: the queues could not be read from the database'))
      .finally(() => { reading = undefined; });
    void reading
      .then(() => metrics.registry.metrics())
      .then((text) => { res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(req.method === 'HEAD' ? undefined : text); })
      .catch((err: unknown) => {
        options.log.error({ err }, 'metrics: exposition failed');
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('metrics failed; see the service log\n');
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => { server.off('error', reject); resolve(); });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
