import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';
import type { WorkSource } from '../worker/loop.ts';
import { periodic } from '../worker/periodic.ts';
import { deleteOldAttempts } from './attempts-repository.ts';
import { deleteOldPasswordResets } from './links-repository.ts';
import { sessionIdleMs } from './session.ts';
import { deleteExpiredSessions } from './sessions-repository.ts';
import { signInWindowMs } from './throttle.ts';

/**
 * Deletes what can no longer be used: ended sessions, failed sign-ins past the throttling window
 * and reset links a day after they expired. Once an hour per worker process (they are already
 * refused by then; this only keeps the tables small).
 */
export function accountsPurgeSource(deps: { db: Db; log: FastifyBaseLogger; everyMs?: number }): WorkSource {
  return periodic('accounts-purge', deps.everyMs ?? 3_600_000, async () => {
    await deleteExpiredSessions(deps.db, sessionIdleMs);
    await deleteOldAttempts(deps.db, signInWindowMs);
    await deleteOldPasswordResets(deps.db);
  });
}
