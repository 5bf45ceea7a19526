import type { FastifyBaseLogger } from 'fastify';
import { allBrandIds } from '../brands/repository.ts';
import type { Db } from '../db/client.ts';
import { purgeExpired } from '../idempotency/store.ts';
import type { WorkSource } from './loop.ts';
import { periodic } from './periodic.ts';

/**
 * Deletes Idempotency-Keys older than 24 hours (they are already treated as new by then), once
 * an hour per worker process, the first time an hour after start.
 */
export function idempotencyPurgeSource(deps: { db: Db; log: FastifyBaseLogger; everyMs?: number }): WorkSource {
  return periodic('idempotency-purge', deps.everyMs ?? 3_600_000, async () => {
    const purged = await purgeExpired(deps.db, await allBrandIds(deps.db));
    if (purged) deps.log.info({ purged }, 'expired idempotency keys purged');
  });
}
