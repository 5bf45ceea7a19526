import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';
import type { WorkSource } from '../worker/loop.ts';
import { purgeExpiredRecords } from './repository.ts';

/** Clears expired OAuth records once an hour per worker process, the first time an hour after start. */
export function oauthPurgeSource(deps: { db: Db; log: FastifyBaseLogger; everyMs?: number }): WorkSource {
  const everyMs = deps.everyMs ?? 3_600_000;
  let lastRun = Date.now();
  return {
    name: 'oauth-purge',
    async runOnce() {
      if (Date.now() - lastRun < everyMs) return 0;
      lastRun = Date.now();
      let purged = 0;
      for (let n = await purgeExpiredRecords(deps.db); n > 0; n = await purgeExpiredRecords(deps.db)) purged += n;
      if (purged) deps.log.info({ purged }, 'expired oauth records purged');
      return 0;
    },
  };
}
