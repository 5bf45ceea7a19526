import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { WorkSource } from './loop.ts';

export interface WorkerDeps {
  db: Db;
  config: Config;
  log: FastifyBaseLogger;
}

/** Every kind of queued work this service has; each domain adds its source here. */
export function workSources(_deps: WorkerDeps): WorkSource[] {
  return [];
}
