import type { FastifyBaseLogger } from 'fastify';
import type { Db, Queryable } from '../db/client.ts';
import { allBrandIds } from '../brands/repository.ts';
import type { WorkSource } from '../worker/loop.ts';
import { periodic } from '../worker/periodic.ts';
import { purgeProviderEventsBefore } from '../payments/stripe/repository.ts';
import { purgeBefore } from './repository.ts';

/**
 * Retention (DESIGN.md, Data): events older than the retention period are deleted, and with them
 * (ON DELETE CASCADE) their deliveries and attempts. GET /events promises at least 30 days, so the
 * setting cannot go below that. Brand by brand, in small batches, so every statement uses a
 * brand-first index and no lock is held for long.
 */
export async function purgeEventsBefore(db: Queryable, cutoff: Date, batch = 1000): Promise<number> {
  let purged = 0;
  for (const brandId of await allBrandIds(db)) {
    for (;;) {
      const deleted = await purgeBefore(db, brandId, cutoff, batch);
      purged += deleted;
      if (deleted < batch) break;
    }
  }
  return purged;
}

/** Runs the purge once an hour (`everyMs`) in each worker process (worker/periodic.ts). */
export function retentionSource(deps: { db: Db; log: FastifyBaseLogger; retentionMs: number; everyMs?: number }): WorkSource {
  return periodic('event-retention', deps.everyMs ?? 3_600_000, async () => {
    const cutoff = new Date(Date.now() - deps.retentionMs);
    const purged = await purgeEventsBefore(deps.db, cutoff);
    if (purged) deps.log.info({ purged }, 'old events and their deliveries purged');
    await purgeProviderEventsBefore(deps.db, cutoff);
  });
}
