import { randomBytes } from 'node:crypto';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openPglite, openPostgres, type Db } from './db/client.ts';
import { acquireDataLock, DataDirBusyError } from './db/data-lock.ts';
import { startEmbeddedMaintenance } from './db/maintenance.ts';
import { migrate } from './db/migrate.ts';
import { keepLogPartitionsAhead } from './db/partitions.ts';
import type { Deps } from './deps.ts';
import { KeyCache } from './keys/cache.ts';
import { catalogCacheFromConfig } from './catalog-cache/cache.ts';
import { connectRateLimitRedis } from './http/rate-limit.ts';
import { createLogger, createPrettyLogger } from './logger.ts';
import { startBanner } from './banner.ts';
import { resolveSecrets } from './secrets.ts';
import { configuredPayments } from './payments/configured.ts';
import { systemLookup } from './security/url-guard.ts';
import { workSources } from './work-sources.ts';
import { startWorker } from './worker/loop.ts';
import { startTracing } from './observability/tracing.ts';
import { startMetricsServer, type MetricsServer } from './observability/metrics-server.ts';

/** A start-up failure that is the operator's to fix: its message is printed, without a stack. */
class StartError extends Error {}

/**
 * The composition root: settings and secrets are read and checked here, all of them before the
 * database is touched, and one `deps` goes to the HTTP app and the worker.
 */
async function main() {
  // Milliseconds from the process's start (performance's time origin) to the end of each start-up
  // step, logged with "service started": what a slow start spent its time on.
  const startup: Record<string, number> = { modules: Math.round(performance.now()) };
  const reached = (step: string) => { startup[step] = Math.round(performance.now()); };
  const loaded = loadConfig();
  // auto: pretty for a person at a terminal, JSON for a log collector (or a pipe).
  const pretty = loaded.logFormat === 'pretty' || (loaded.logFormat === 'auto' && process.stdout.isTTY === true);
  const config = { ...loaded, logFormat: pretty ? 'pretty' as const : 'json' as const };
  const secrets = resolveSecrets(config);
  const log = pretty ? await createPrettyLogger(config.logLevel) : createLogger(config.logLevel);
  // Before anything runs a statement or serves a request, so all of it is traced.
  const { otlpEndpoint, serviceName, metricsPort, metricsHost } = config.observability;
  const tracing = otlpEndpoint ? await startTracing({ endpoint: otlpEndpoint, serviceName }) : undefined;

  let db: Db;
  let lock: Awaited<ReturnType<typeof acquireDataLock>> | undefined;
  const adminToken = config.databaseUrl ? undefined : randomBytes(24).toString('base64url');
  if (config.databaseUrl) {
    db = openPostgres(config.databaseUrl, { statementTimeoutMs: config.statementTimeoutMs });
  } else {
    try {
      lock = await acquireDataLock(config.dataDir, { role: 'server', adminToken });
    } catch (err) {
      if (err instanceof DataDirBusyError) throw new StartError(`${err.message} Stop it first, or point DATA_DIR at another folder.`);
      throw err;
    }
    db = await openPglite(config.dataDir, { sharedBuffersMb: config.pgliteSharedBuffersMb });
  }
  reached('database');
  const redis = config.redisUrl && config.roles.api ? await connectRateLimitRedis(config.redisUrl, log) : undefined;
  const deps: Deps = { db, config, log, keyCache: new KeyCache(config.keyCacheMs), catalogCache: catalogCacheFromConfig(db, config, log), lookup: systemLookup, secrets, adminToken, redis, ...await configuredPayments(config) };

  const applied = await migrate(db);
  if (applied.length) log.info({ applied }, 'migrations applied');
  reached('migrations');
  // Its own listener, whatever the roles: a worker-only process is scraped too.
  let metrics: MetricsServer | undefined;
  if (metricsPort !== undefined) {
    try {
      metrics = await startMetricsServer({ port: metricsPort, host: metricsHost, db, payoutBoundaries: config.payouts.schedule, log });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'EADDRINUSE' && code !== 'EACCES') throw err;
      await db.close();
      await lock?.release();
      throw new StartError(`METRICS_PORT ${metricsPort} ${code === 'EADDRINUSE' ? 'is in use' : 'may not be opened by this user'} (on ${metricsHost}); choose another one.`);
    }
  }
  const stopMaintenance = startEmbeddedMaintenance(db, (err) => log.error({ err }, 'ANALYZE failed'));
  // The worker makes the delivery log's days ahead every hour (events/retention.ts); a process
  // without one does it itself, so an API-only deployment never lacks today's partition.
  const stopPartitions = config.roles.worker ? () => {} : keepLogPartitionsAhead(db, (err) => log.error({ err }, 'making the delivery log\'s partitions ahead failed'));

  const app = config.roles.api ? await buildApp(deps) : undefined;
  reached('app');
  if (app) {
    try {
      await app.listen({ port: config.port, host: config.host });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' && (err as NodeJS.ErrnoException).code !== 'EACCES') throw err;
      stopMaintenance();
      stopPartitions();
      await metrics?.close();
      await app.close();
      await db.close();
      await lock?.release();
      throw new StartError((err as NodeJS.ErrnoException).code === 'EADDRINUSE'
        ? `Port ${config.port} is in use (on ${config.host}); stop whatever listens there or set PORT to another one.`
        : `Port ${config.port} may not be opened by this user; set PORT to 1024 or above.`);
    }
    const address = app.server.address();
    await lock?.update({ port: typeof address === 'object' && address ? address.port : config.port });
  }
  reached('listening');
  const worker = config.roles.worker ? await startWorker(db, workSources(deps), log) : undefined;
  reached('worker');
  log.info({ database: db.kind, roles: config.roles, port: config.port, metricsPort: metrics?.port, tracing: Boolean(tracing), startupMs: startup, rssMb: Math.round(process.memoryUsage().rss / 1048576) }, 'service started');
  // For a person at a terminal: where to go and what to run next (a log collector gets the line above).
  if (pretty && app) process.stdout.write(startBanner(config));

  // SIGTERM drains: new requests get 503, in-flight requests finish (each within REQUEST_TIMEOUT),
  // the worker stops claiming and its in-flight work finishes (deliveries within WEBHOOK_TIMEOUT).
  // Past the sum of the two and 5 s the process exits anyway.
  const drainBoundMs = config.requestTimeoutMs + config.webhooks.timeoutMs + 5_000;
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal, drainBoundMs }, 'shutting down');
    setTimeout(() => {
      log.warn({ drainBoundMs }, 'shutdown took too long; exiting with work still in flight');
      process.exit(1);
    }, drainBoundMs).unref();
    stopMaintenance();
    stopPartitions();
    await app?.close();
    await worker?.stop();
    await metrics?.close();
    await tracing?.shutdown().catch(() => {});
    redis?.disconnect();
    await db.close();
    await lock?.release();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

try {
  await main();
} catch (err) {
  if (err instanceof ConfigError) {
    process.stderr.write(`Configuration error: ${err.message}\n`);
    process.exit(1);
  }
  if (err instanceof StartError) {
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
  throw err;
}
