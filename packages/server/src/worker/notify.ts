import type { Queryable } from '../db/client.ts';

/** The channel the worker LISTENs on. */
export const workChannel = 'service_work';

/**
 * Wakes sleeping workers when the caller's transaction commits (a NOTIFY is delivered only then,
 * and never if it rolls back), so new work starts at once instead of at the next poll.
 */
export async function notifyWorker(tx: Queryable, what: 'delivery' | 'import' | 'event'): Promise<void> {
  await tx.query('SELECT pg_notify($1, $2)', [workChannel, what], 'notify_worker');
}
