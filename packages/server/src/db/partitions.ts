import type { Db, Queryable } from './client.ts';
import { dayStamp } from '../ids.ts';

/**
 * The delivery log's daily partitions (migration 037, docs/performance.md "Daily partitions,
 * retention by DROP"): events, webhook_deliveries and webhook_attempts, one partition per UTC day
 * named `<table>_pYYYYMMDD`, the same bounds on all three, no DEFAULT partition. An insert into a
 * day that has no partition fails, so days are made ahead: here, at every process start
 * (migrate.ts) and by the worker's retention source every hour.
 */
export const logTables = ['events', 'webhook_deliveries', 'webhook_attempts'] as const;
export type LogTable = typeof logTables[number];

/**
 * Days made ahead of today, and kept behind it. Every process makes them at start and hourly, so
 * those calls have two days to succeed before an insert could lack its day; more days would be
 * more partitions in every statement that cannot name its day (docs/performance.md, part 2).
 */
export const daysAhead = 2;
const daysBehind = 1;

const day = 86_400_000;
const isoDay = (at: Date) => at.toISOString().slice(0, 10);

export const partitionName = (table: LogTable, at: Date) => `${table}_p${dayStamp(at)}`;

/**
 * Makes the partitions of every UTC day from `first` to `last` (both included) on all three
 * tables where missing; returns how many it made. The SQL function (migration 037) does it under
 * an advisory lock, so concurrent callers take turns instead of failing on each other's CREATE,
 * and answers from the catalogue alone when every partition is there. For a bench or a test that
 * writes rows dated in the past: call it for those days first.
 */
export async function ensureLogPartitions(db: Queryable, first: Date, last: Date): Promise<number> {
  const [{ made }] = await db.query<{ made: number }>('SELECT ensure_log_partitions($1::date, $2::date) AS made', [isoDay(first), isoDay(last)]);
  return made;
}

/**
 * The UTC days that hold `instants`, as `from` (the first one's start) and `to` (the end of the
 * last one), for a statement that reads or writes rows of those days through a join: with
 * `created_at >= from AND created_at < to` beside the join, the planner keeps only those days'
 * partitions at plan time (usually one), where the join alone plans every day's. Whole days,
 * not the instants' own span: a span of one millisecond made the planner take the condition for
 * one row and scan a day's index over it instead of probing the primary key per row.
 */
export function daysSpanning(instants: Date[]): { from: Date; to: Date } {
  const ms = instants.map((d) => d.getTime());
  return { from: new Date(Math.floor(Math.min(...ms) / day) * day), to: new Date(Math.floor(Math.max(...ms) / day) * day + day) };
}

/**
 * `column` within `days` (daysSpanning), the days written as literals: a statement's own text
 * then names its days, and the planner keeps only their partitions in every plan, generic ones
 * included. As parameters they did not: PostgreSQL switches a prepared statement to its generic
 * plan after five runs, planned without parameters' values, which held every day's partition (40
 * at the default retention) and locked and opened each with its indexes at every run: at 37 days
 * the outcome statement cost 105 µs a delivery against 75 µs at 4 (docs/performance.md).
 */
export function withinDays(column: string, days: { from: Date; to: Date }): string {
  return `${column} >= '${days.from.toISOString()}' AND ${column} < '${days.to.toISOString()}'`;
}

/**
 * The name of a statement holding withinDays: `base` and the day when `days` is one day (the
 * usual case: one statement per day and connection, prepared once), else none, so a batch that
 * spans days (a retry beside new deliveries) runs unnamed and planned for its own days, rather than
 * leaving a prepared statement behind for every combination of days.
 */
export function namedForDay(base: string, days: { from: Date; to: Date }): string | undefined {
  return days.to.getTime() - days.from.getTime() === day ? `${base}_${dayStamp(days.from)}` : undefined;
}

/** The window every start and the hourly source make: yesterday to `daysAhead` days ahead. */
export function ensureLogPartitionsAround(db: Queryable, now = new Date()): Promise<number> {
  return ensureLogPartitions(db, new Date(now.getTime() - daysBehind * day), new Date(now.getTime() + daysAhead * day));
}

interface PartitionRow { name: string; attached: boolean; detach_pending: boolean }

/**
 * Drops the days of `tables` that end at or before `cutoff` (every row in them is older), and
 * returns the partitions dropped. On PostgreSQL each is detached with DETACH … CONCURRENTLY, which
 * waits for the queries that may still read it instead of locking the parent against every insert,
 * and cannot run in a transaction (so each statement here runs on its own); PGlite has one
 * connection and takes a plain DETACH. A detach interrupted half-way leaves the partition "detach
 * pending", finished with FINALIZE; a table detached but not dropped (a crash between the two) is
 * dropped on the next run, found by its name.
 */
export async function dropLogDaysBefore(db: Db, tables: readonly LogTable[], cutoff: Date): Promise<{ dropped: string[]; failed: { name: string; error: string }[] }> {
  // The last day to drop is the one that ends at or before the cutoff.
  const lastStamp = dayStamp(new Date(Math.floor(cutoff.getTime() / day) * day - day));
  const pattern = `^(${tables.join('|')})_p[0-9]{8}$`;
  const rows = await db.query<PartitionRow>(
    `SELECT c.relname AS name, i.inhrelid IS NOT NULL AS attached, coalesce(i.inhdetachpending, false) AS detach_pending
     FROM pg_class c
     JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = current_schema()
     LEFT JOIN pg_inherits i ON i.inhrelid = c.oid
     WHERE c.relkind = 'r' AND c.relname ~ $1 AND right(c.relname, 8) <= $2
     ORDER BY right(c.relname, 8), c.relname`,
    [pattern, lastStamp],
  );
  const dropped: string[] = [];
  const failed: { name: string; error: string }[] = [];
  for (const p of rows) {
    const parent = p.name.slice(0, -10);
    try {
      if (p.detach_pending) {
        await db.query(`ALTER TABLE "${parent}" DETACH PARTITION "${p.name}" FINALIZE`);
      } else if (p.attached) {
        await db.query(`ALTER TABLE "${parent}" DETACH PARTITION "${p.name}"${db.kind === 'postgres' ? ' CONCURRENTLY' : ''}`);
      }
      await db.query(`DROP TABLE IF EXISTS "${p.name}"`);
      dropped.push(p.name);
    } catch (err) {
      // Another worker's retention run detaching the same day at the same moment (each worker
      // runs it hourly), or a lock it waited too long for: the next run finishes the day.
      failed.push({ name: p.name, error: (err as Error).message });
    }
  }
  return { dropped, failed };
}

/**
 * For a process without the worker role (an API-only deployment): makes the days ahead every hour,
 * as the worker's retention source does, so a process that runs longer than `daysAhead` days with
 * no worker anywhere still has tomorrow's partition. Returns the function that stops it.
 */
export function keepLogPartitionsAhead(db: Queryable, onError: (err: unknown) => void, everyMs = 3_600_000): () => void {
  const timer = setInterval(() => { ensureLogPartitionsAround(db).catch(onError); }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
