import type { Db, Queryable } from '../db/client.ts';

/**
 * The handle the delivery worker sends its queue statements through: each runs in a transaction
 * of its own with bitmap scans off (SET LOCAL, so nothing else on the connection is affected).
 *
 * Why: the worker's walks of the queue (a brand's due rows oldest first, stopping after a few;
 * "has the brand more than n pending?") are only cheap as index scans, which stop at their LIMIT.
 * The queue changes faster than its statistics: a burst or an import of 20,000 deliveries lands
 * in a queue last analyzed nearly empty (or never), where PostgreSQL takes a brand for 0.5% of it
 * and plans a bitmap scan, which reads all of the brand's due rows before the first comes out,
 * and never marks dead index entries as such. Measured (bench/webhooks.ts, 20,000 deliveries):
 * the claim and the outcome each spent 4–5 ms a statement instead of about 2, in about half the
 * runs, depending on when each connection planned them. No statement here wants a bitmap scan:
 * each reads rows by key or walks one index in its order.
 *
 * It costs two more round trips a statement (BEGIN with the setting, and COMMIT), each far cheaper
 * than a statement of the worker's, which carries a batch.
 */
export function queueStatements(db: Db): Queryable {
  return {
    query: (sql, params, name) => db.transaction((tx) => tx.query(sql, params, name), { settings: { enable_bitmapscan: 'off' } }),
    exec: (sql) => db.exec(sql),
  };
}
