import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';
import type { WorkSource } from '../worker/loop.ts';
import { periodic } from '../worker/periodic.ts';
import { purgeExpiredRecords } from './repository.ts';

/** Clears expired OAuth records once an hour per worker process, the first time an hour after start. */
export function oauthPurgeSource(deps: { db: Db; log: FastifyBaseLogger; everyMs?: number }): WorkSource {
  return periodic('oauth-purge', deps.everyMs ?? 3_600_000, async () => {
    let purged = 0;
    for (let n = await purgeExpiredRecords(deps.db); n > 0; n = await purgeExpiredRecords(deps.db)) purged += n;
    if (purged) deps.log.info({ purged }, 'expired oauth records purged');
  });
}
