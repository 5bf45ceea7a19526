/**
 * Plans of the statements the real code runs, for bench/results/scaling.md.
 *
 * `explaining(db)` is a Db that runs every statement it is given twice: first as
 * `EXPLAIN (ANALYZE, BUFFERS)` inside a savepoint that is rolled back (so a write or a
 * `FOR UPDATE SKIP LOCKED` claim leaves nothing behind), then for real. Handing it to the app or
 * to a worker source captures the exact SQL and parameters a request or a batch runs, whatever
 * the repositories look like after later changes, with no server log to parse.
 */
import type { Db, Queryable } from '../packages/server/src/db/client.ts';

export interface ExplainedStatement {
  sql: string;
  plan: string;
  /** Execution time EXPLAIN ANALYZE reported, ms. */
  ms: number;
}

/** Only statements EXPLAIN accepts; SET, NOTIFY, LISTEN and friends just run. */
const explainable = /^\s*(select|insert|update|delete|with)\b/i;

class Rollback extends Error {}

export function explaining(db: Db, seen: ExplainedStatement[]): Db {
  const record = (sql: string, rows: { 'QUERY PLAN': string }[]) => {
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
    const ms = Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? NaN);
    seen.push({ sql: sql.replace(/\s+/g, ' ').trim(), plan, ms });
  };
  const explainIn = async (tx: Queryable, sql: string, params: unknown[]) => {
    if (!explainable.test(sql)) return;
    await tx.query('SAVEPOINT bench_explain');
    try {
      record(sql, await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params));
    } catch {
      // A statement EXPLAIN cannot take (or that fails on its own): the real run below says so.
    }
    await tx.query('ROLLBACK TO SAVEPOINT bench_explain');
  };
  // One statement (its EXPLAIN and its real run) at a time per transaction: code that runs reads in
  // parallel on one transaction (Promise.all) must not have a later rollback to the savepoint undo
  // another statement's real run.
  const wrap = (tx: Queryable): Queryable => {
    let turn: Promise<unknown> = Promise.resolve();
    const inTurn = <T>(fn: () => Promise<T>): Promise<T> => {
      const run = turn.then(fn, fn);
      turn = run.catch(() => {});
      return run;
    };
    return {
      query<R>(sql: string, params: unknown[] = [], name?: string) {
        return inTurn(async () => {
          await explainIn(tx, sql, params);
          return tx.query<R>(sql, params, name);
        });
      },
      exec: (sql) => inTurn(() => tx.exec(sql)),
    };
  };
  return {
    kind: db.kind,
    async query<R>(sql: string, params: unknown[] = [], name?: string) {
      if (explainable.test(sql)) {
        await db.transaction(async (tx) => { await explainIn(tx, sql, params); throw new Rollback(); })
          .catch((err: unknown) => { if (!(err instanceof Rollback)) throw err; });
      }
      return db.query<R>(sql, params, name);
    },
    exec: (sql) => db.exec(sql),
    transaction: (fn, options) => db.transaction((tx) => fn(wrap(tx)), options),
    listen: (channel, onNotify) => db.listen(channel, onNotify),
    onCommit: (listener) => db.onCommit((tx) => listener(wrap(tx))),
    close: () => db.close(),
  };
}

/** Each distinct statement once (the slowest run of it), slowest first. */
export function distinct(seen: ExplainedStatement[]): ExplainedStatement[] {
  const bySql = new Map<string, ExplainedStatement>();
  for (const s of seen) {
    const had = bySql.get(s.sql);
    if (!had || !(had.ms >= s.ms)) bySql.set(s.sql, s);
  }
  return [...bySql.values()].sort((a, b) => (b.ms || 0) - (a.ms || 0));
}

export interface RelationSize {
  table: string;
  rows: number;
  tableBytes: number;
  indexBytes: number;
  indexes: { name: string; bytes: number }[];
}

/**
 * Rows (the planner's estimate after ANALYZE), heap and index bytes of every table holding data.
 * A partitioned table (the delivery log's daily partitions, migration 037) is one row: its
 * partitions summed, and each of its indexes summed over the partitions' copies.
 */
export async function relationSizes(db: Queryable): Promise<RelationSize[]> {
  const tables = await db.query<{ table: string; rows: number; table_bytes: number; index_bytes: number }>(
    `SELECT coalesce(p.relname, c.relname) AS table, sum(greatest(c.reltuples, 0))::bigint AS rows,
            sum(pg_table_size(c.oid))::bigint AS table_bytes, sum(pg_indexes_size(c.oid))::bigint AS index_bytes
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     LEFT JOIN pg_inherits i ON i.inhrelid = c.oid LEFT JOIN pg_class p ON p.oid = i.inhparent
     WHERE c.relkind = 'r' AND n.nspname = current_schema() AND c.relname <> 'schema_migrations'
     GROUP BY 1 ORDER BY sum(pg_total_relation_size(c.oid)) DESC`,
  );
  const indexes = await db.query<{ table: string; name: string; bytes: number }>(
    `SELECT coalesce(pt.relname, t.relname) AS table, coalesce(pi.relname, i.relname) AS name, sum(pg_relation_size(i.oid))::bigint AS bytes
     FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
     JOIN pg_namespace n ON n.oid = t.relnamespace
     LEFT JOIN pg_inherits ti ON ti.inhrelid = t.oid LEFT JOIN pg_class pt ON pt.oid = ti.inhparent
     LEFT JOIN pg_inherits ii ON ii.inhrelid = i.oid LEFT JOIN pg_class pi ON pi.oid = ii.inhparent
     WHERE n.nspname = current_schema() AND t.relkind = 'r'
     GROUP BY 1, 2 ORDER BY 3 DESC`,
  );
  return tables
    .filter((t) => t.rows > 0 || t.table_bytes > 16_384)
    .map((t) => ({
      table: t.table, rows: Number(t.rows), tableBytes: Number(t.table_bytes), indexBytes: Number(t.index_bytes),
      indexes: indexes.filter((i) => i.table === t.table).map((i) => ({ name: i.name, bytes: Number(i.bytes) })),
    }));
}

/** The statements one path ran, each with its plan. */
export interface Explained { what: string; statements: ExplainedStatement[] }

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

/** Markdown rows of relationSizes(): rows, table and index MB, bytes a row, the largest indexes. */
export function sizesTable(sizes: RelationSize[]): string[] {
  return [
    '| table | rows | table MB | indexes MB | bytes a row (table + indexes) | largest indexes (MB) |',
    '|---|---:|---:|---:|---:|---|',
    ...sizes.map((t) => `| ${t.table} | ${t.rows.toLocaleString('en-US')} | ${mb(t.tableBytes)} | ${mb(t.indexBytes)} | ${t.rows ? Math.round((t.tableBytes + t.indexBytes) / t.rows) : '–'} | `
      + `${t.indexes.slice(0, 6).map((i) => `${i.name} ${mb(i.bytes)}`).join(', ')} |`),
  ];
}

/** Markdown of captured statements per path, each with its plan (collapsed). */
export function explainSection(sections: Explained[]): string[] {
  const out: string[] = [];
  for (const s of sections) {
    out.push(`### ${s.what}`, '');
    if (!s.statements.length) out.push('_No statement reached the database (answered from memory)._', '');
    for (const st of s.statements) {
      out.push(`<details><summary>${st.ms.toFixed(3)} ms: <code>${st.sql.slice(0, 140).replace(/</g, '&lt;')}${st.sql.length > 140 ? '…' : ''}</code></summary>`, '',
        '```sql', st.sql, '```', '', '```', st.plan, '```', '</details>', '');
    }
  }
  return out;
}
