import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/** Something SQL can be sent to: the database itself, or one open transaction. */
export interface Queryable {
  /**
   * Runs one statement. `name` makes it a named (prepared) statement on PostgreSQL,
   * which measurably speeds up hot queries; PGlite ignores it.
   */
  query<R = Record<string, unknown>>(sql: string, params?: unknown[], name?: string): Promise<R[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs fn in one transaction: commits if it resolves, rolls back if it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Calls onNotify whenever NOTIFY is sent on channel; resolves to an unsubscribe function. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

// pg returns int8 and numeric as strings and PGlite as numbers; every count and amount we
// store fits in a double, so both are normalised here, once, to numbers.
pg.types.setTypeParser(20, (v) => Number(v));

export async function openPglite(dataDir?: string): Promise<Db> {
  const lite = await PGlite.create(dataDir ?? 'memory://');
  return {
    kind: 'pglite',
    async query<R>(sql: string, params: unknown[] = []) {
      const res = await lite.query<R>(sql, params);
      return res.rows;
    },
    async exec(sql) { await lite.exec(sql); },
    transaction<T>(fn: (tx: Queryable) => Promise<T>) {
      return lite.transaction(async (t) => fn({
        async query<R>(sql: string, params: unknown[] = []) {
          return (await t.query<R>(sql, params)).rows;
        },
        async exec(sql) { await t.exec(sql); },
      }));
    },
    async listen(channel, onNotify) {
      const unsub = await lite.listen(channel, onNotify);
      return async () => { await unsub(); };
    },
    async close() { await lite.close(); },
  };
}

export interface PostgresOptions {
  /** Every connection uses this schema first; tests give each file its own. */
  searchPath?: string;
  max?: number;
}

export function openPostgres(url: string, options: PostgresOptions = {}): Db {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    options: options.searchPath ? `-c search_path=${options.searchPath}` : undefined,
  });
  // An idle client that loses its connection emits here; without a listener it would crash the process.
  pool.on('error', () => {});
  const run = async <R>(client: pg.Pool | pg.PoolClient, sql: string, params: unknown[] = [], name?: string) => {
    const res = await client.query<R & pg.QueryResultRow>(name ? { name, text: sql, values: params } : { text: sql, values: params });
    return res.rows as R[];
  };
  return {
    kind: 'postgres',
    query: (sql, params, name) => run(pool, sql, params, name),
    async exec(sql) { await pool.query(sql); },
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn({
          query: (sql, params, name) => run(client, sql, params, name),
          exec: async (sql) => { await client.query(sql); },
        });
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
    async listen(channel, onNotify) {
      // A dedicated connection: LISTEN is per session and a pooled client would lose it.
      const client = new pg.Client({ connectionString: url, options: options.searchPath ? `-c search_path=${options.searchPath}` : undefined });
      client.on('error', () => {});
      await client.connect();
      client.on('notification', (msg) => { if (msg.channel === channel) onNotify(msg.payload ?? ''); });
      await client.query(`LISTEN ${quoteIdent(channel)}`);
      return async () => { await client.end().catch(() => {}); };
    },
    async close() { await pool.end(); },
  };
}

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
