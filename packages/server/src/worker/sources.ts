import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { importWorkSource } from '../imports/worker.ts';
import type { WorkSource } from './loop.ts';
import { deliverySource } from '../webhooks/delivery-source.ts';
import { retentionSource } from '../webhooks/retention.ts';

export interface WorkerDeps {
  db: Db;
  config: Config;
  log: FastifyBaseLogger;
}

/** Every kind of queued work this service has; each domain adds its source here. */
export function workSources(deps: WorkerDeps): WorkSource[] {
  return [
    importWorkSource(deps.db, deps.log, { batchSize: deps.config.importBatchSize }),
    deliverySource(deps),
    retentionSource({ db: deps.db, log: deps.log, retentionMs: deps.config.webhooks.eventRetentionMs }),
  ];
}
