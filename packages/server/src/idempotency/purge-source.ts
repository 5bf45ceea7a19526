import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';
import { purgeExpired } from './store.ts';
import type { WorkSource } from '../worker/loop.ts';
import { periodic } from '../worker/periodic.ts';

/**
 * Deletes Idempotency-Keys older than 24 hours (they are already treated as new by then), once
 * an hour per worker process, the first time an hour after start. Brand by brand (`brandIds`,
 * given by the composition, as this shared layer knows no domain).
 */
export function idempotencyPurgeSource(deps: { db: Db; log: FastifyBaseLogger; brandIds: (db: Db) => Promise<string[]>; everyMs?: number }): WorkSource {
  return periodic('idempotency-purge', deps.everyMs ?? 3_600_000, async () => {
    const purged = await purgeExpired(deps.db, await deps.brandIds(deps.db));
    if (purged) deps.log.info({ purged }, 'expired idempotency keys purged');
  });
}
