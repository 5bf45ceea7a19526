import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { secureDataDir } from './data-dir.ts';

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
  /**
   * Runs fn in one transaction: commits if it resolves, rolls back if it throws. `settings` are
   * set for this transaction alone (SET LOCAL), sent with its BEGIN.
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** Calls onNotify whenever NOTIFY is sent on channel; resolves to an unsubscribe function. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  /**
   * Calls listener with the transaction's handle after each transaction on this handle commits
   * (never after a rollback), before transaction() resolves; resolves to an unsubscribe function.
   * The catalog cache uses it to drop what a write of this process made stale before the writer
   * answers (catalog-cache/cache.ts).
   */
  onCommit(listener: (tx: Queryable) => void): () => void;
  /** PostgreSQL's pool: connections open, idle, the most it opens, and queries waiting for one (metrics). */
  poolUse?(): { total: number; idle: number; waiting: number; max: number };
  close(): Promise<void>;
}

export interface TransactionOptions {
  /** PostgreSQL settings for the transaction alone: names and values written in the code, never input. */
  settings?: Record<string, string>;
}

/** `SET LOCAL` statements for `settings`; a name or value that is not a plain word is refused. */
function setLocal(settings: Record<string, string> = {}): string[] {
  return Object.entries(settings).map(([name, value]) => {
    if (!/^[a-z_][a-z0-9_.]*$/i.test(name) || !/^[a-z0-9_.-]+$/i.test(value)) throw new Error(`not a setting: ${name} = ${value}`);
    return `SET LOCAL ${name} = ${value}`;
  });
}

/** The listeners of one handle's commits; a throwing listener must not fail a committed write. */
function commitListeners() {
  const listeners = new Set<(tx: Queryable) => void>();
  return {
    add(listener: (tx: Queryable) => void) {
      listeners.add(listener);
      return () => { listeners.delete(listener); };
    },
    committed(tx: Queryable) {
      for (const listener of listeners) {
        try { listener(tx); } catch { /* the write is committed whatever a listener does */ }
      }
    },
  };
}

/** Runs one statement inside whatever records it (a span); `run` sends it. */
export type StatementTracer = <T>(sql: string, name: string | undefined, run: () => Promise<T>) => Promise<T>;

/**
 * Set by observability/tracing.ts when tracing is on (OTEL_EXPORTER_OTLP_ENDPOINT): every
 * statement of every handle then runs through it. Unset, a statement costs one variable read more.
 * The database layer knows nothing of tracing; tracing hooks itself in here.
 */
let statementTracer: StatementTracer | undefined;
export function traceStatements(tracer: StatementTracer | undefined): void {
  statementTracer = tracer;
}

// pg returns int8 and numeric as strings and PGlite as numbers; every count and amount we
// store fits in a double, so both are normalised here, once, to numbers.
pg.types.setTypeParser(20, (v) => Number(v));

export interface PgliteOptions {
  /** PostgreSQL's shared_buffers in MB (PGLITE_SHARED_BUFFERS_MB); see embeddedSettings. */
  sharedBuffersMb?: number;
  /**
   * Start from this data folder (a tar from PGlite's dumpDataDir) instead of an empty one: an
   * in-memory database that skips initdb. Tests load one migrated copy (testing/db.ts).
   */
  loadDataDir?: Blob;
}

/**
 * The embedded database's memory settings, passed to PostgreSQL at its start (PGlite's
 * `startParams`, on top of its own defaults). PGlite otherwise keeps PostgreSQL's server defaults,
 * sized for a dedicated database machine: 128 MB of shared_buffers alone. Here every byte of it is
 * the service process's own memory, and WebAssembly memory, once touched, is never given back to
 * the system. Each value below was measured with bench/startup.ts (docs/embedded.md has the
 * figures and what each costs):
 * - shared_buffers 16 MB (PGLITE_SHARED_BUFFERS_MB): a shop's hot pages fit, and a page that falls
 *   out is read back from the OS's file cache (fsync is off in PGlite) in microseconds.
 * - wal_buffers follows shared_buffers (1/32 of it), as on a server.
 * - maintenance_work_mem 16 MB: only index builds (migrations) and VACUUM use it.
 * - temp_buffers 1 MB: the service makes no temporary tables.
 * work_mem stays at PostgreSQL's 4 MB: one sort at a time here, and the lists are keyset pages.
 */
export function embeddedSettings(options: PgliteOptions = {}): Record<string, string> {
  return {
    shared_buffers: `${options.sharedBuffersMb ?? 16}MB`,
    maintenance_work_mem: '16MB',
    temp_buffers: '1MB',
  };
}

export async function openPglite(dataDir?: string, options: PgliteOptions = {}): Promise<Db> {
  // The folder itself first; its contents once PGlite has opened it (and made what it makes).
  if (dataDir) await secureDataDir(dataDir, { walk: false });
  const settings = Object.entries(embeddedSettings(options)).flatMap(([name, value]) => ['-c', `${name}=${value}`]);
  const lite = await PGlite.create(dataDir ?? 'memory://', {
    startParams: [...PGlite.defaultStartParams, ...settings],
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  });
  if (dataDir) await secureDataDir(dataDir);
  const commits = commitListeners();
  return {
    kind: 'pglite',
    async query<R>(sql: string, params: unknown[] = []) {
      const res = await (statementTracer ? statementTracer(sql, undefined, () => lite.query<R>(sql, params)) : lite.query<R>(sql, params));
      return res.rows;
    },
    async exec(sql) { await lite.exec(sql); },
    async transaction<T>(fn: (tx: Queryable) => Promise<T>, options?: TransactionOptions) {
      const settings = setLocal(options?.settings);
      const tx: Queryable = {
        async query<R>(sql: string, params: unknown[] = []) {
          const run = () => txHandle!.query<R>(sql, params);
          return (await (statementTracer ? statementTracer(sql, undefined, run) : run())).rows;
        },
        async exec(sql) { await txHandle!.exec(sql); },
      };
      let txHandle: Parameters<Parameters<typeof lite.transaction>[0]>[0] | undefined;
      const result = await lite.transaction(async (t) => {
        txHandle = t;
        if (settings.length) await t.exec(settings.join('; '));
        return fn(tx);
      });
      commits.committed(tx);
      return result;
    },
    onCommit: commits.add,
    async listen(channel, onNotify) {
      const unsub = await lite.listen(channel, onNotify);
      return async () => { await unsub(); };
    },
    async close() {
      await lite.close();
      if (dataDir) await secureDataDir(dataDir);
    },
  };
}

export interface PostgresOptions {
  /** Every connection uses this schema first; tests give each file its own. */
  searchPath?: string;
  max?: number;
  /** How long a query waits for a free or new connection before failing (503 at the HTTP edge). */
  connectionTimeoutMs?: number;
  /** PostgreSQL's statement_timeout on every connection (DATABASE_STATEMENT_TIMEOUT); none when absent. */
  statementTimeoutMs?: number;
}

/**
 * True when err says the database cannot be reached or dropped the connection (server shutting
 * down or restarting, administrator termination, network failure, pool timeout), as opposed to a
 * problem with the statement. The HTTP edge answers these 503; nothing else needs to know.
 */
export function isConnectionError(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const { code, message, errors } = err as { code?: unknown; message?: unknown; errors?: unknown };
  if (typeof code === 'string') {
    // 57P01 admin_shutdown (pg_terminate_backend), 57P02 crash_shutdown, 57P03 cannot_connect_now,
    // class 08 connection exceptions; then Node's socket errors.
    // 53300 too_many_connections: the server is full, which a client should also retry.
    if (/^(57P0[1-3]|08[0-9A-Z]{3}|53300)$/.test(code)) return true;
    if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN'].includes(code)) return true;
  }
  if (typeof message === 'string'
    && /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended unexpectedly/i.test(message)) {
    return true;
  }
  // Node reports a failed connection to a name with several addresses as an AggregateError.
  return Array.isArray(errors) && errors.some(isConnectionError);
}

export function openPostgres(url: string, options: PostgresOptions = {}): Db {
  const sessionOptions = options.searchPath ? `-c search_path=${options.searchPath}` : undefined;
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    options: sessionOptions,
    // Without it a request waits forever for a connection while the database is unreachable.
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 5000,
    ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
  });
  // An idle client that loses its connection emits here; without a listener it would crash the process.
  pool.on('error', () => {});
  // And every client keeps a listener of its own for its whole life: the pool takes its idle
  // listener off when it hands a client out, and the taker can only add one a microtask later;
  // a termination notice read in between (in the same socket read as the last query's answer)
  // would otherwise be an unhandled 'error' event. Who holds the client learns of the loss
  // from its next query, which fails.
  pool.on('connect', (client) => { client.on('error', () => {}); });
  const commits = commitListeners();
  const send = async <R>(client: pg.Pool | pg.PoolClient, sql: string, params: unknown[] = [], name?: string) => {
    const res = await client.query<R & pg.QueryResultRow>(name ? { name, text: sql, values: params } : { text: sql, values: params });
    return res.rows as R[];
  };
  const run = <R>(client: pg.Pool | pg.PoolClient, sql: string, params: unknown[] = [], name?: string) => (
    statementTracer ? statementTracer(sql, name, () => send<R>(client, sql, params, name)) : send<R>(client, sql, params, name));
  return {
    kind: 'postgres',
    query: (sql, params, name) => run(pool, sql, params, name),
    async exec(sql) { await pool.query(sql); },
    async transaction(fn, options) {
      const settings = setLocal(options?.settings);
      const client = await pool.connect();
      // A checked-out client has no listener of the pool's: when the server ends the connection
      // (pg_terminate_backend, restart, network loss) it emits 'error', which would otherwise be
      // an unhandled 'error' event and end the process. The query in flight fails on its own.
      let lost: Error | undefined;
      const onError = (err: Error) => { lost = err; };
      client.on('error', onError);
      try {
        // With its settings in one round trip (a simple query may hold several statements).
        await client.query(['BEGIN', ...settings].join('; '));
        // One connection answers one statement at a time: a service that sends two at once
        // (Promise.all over reads) has them queued here, in order, rather than by pg's
        // deprecated internal queue ("client.query() when the client is already executing a query").
        let previous: Promise<unknown> = Promise.resolve();
        const inTurn = <R>(send: () => Promise<R>): Promise<R> => {
          const next = previous.then(send, send);
          previous = next.catch(() => {});
          return next;
        };
        const tx: Queryable = {
          query: (sql, params, name) => inTurn(() => run(client, sql, params, name)),
          exec: (sql) => inTurn(async () => { await client.query(sql); }),
        };
        const result = await fn(tx);
        await client.query('COMMIT');
        commits.committed(tx);
        return result;
      } catch (err) {
        if (!lost && isConnectionError(err)) lost = err as Error;
        if (!lost) await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.removeListener('error', onError);
        // A broken connection is destroyed instead of going back to the pool.
        client.release(lost);
      }
    },
    async listen(channel, onNotify) {
      return listenWithReconnect({ connectionString: url, options: sessionOptions }, channel, onNotify);
    },
    onCommit: commits.add,
    poolUse: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max ?? 10 }),
    async close() { await pool.end(); },
  };
}

/**
 * LISTEN on a dedicated connection (LISTEN is per session, a pooled client would lose it) that
 * comes back when lost: a database restart or a terminated backend must not leave the worker
 * deaf until the process restarts. It reconnects with backoff (0.1 s doubling to 5 s) and, once
 * listening again, calls onNotify('') once, since NOTIFYs sent while it was away are gone and the
 * caller should look for work. The first connection's failure is thrown to the caller.
 */
async function listenWithReconnect(
  config: pg.ClientConfig,
  channel: string,
  onNotify: (payload: string) => void,
): Promise<() => Promise<void>> {
  let stopped = false;
  let current: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let delayMs = 100;

  const connect = async () => {
    const client = new pg.Client({ ...config, connectionTimeoutMillis: 5000 });
    // Errors end the connection; 'end' below reconnects.
    client.on('error', () => {});
    client.on('notification', (msg) => { if (msg.channel === channel) onNotify(msg.payload ?? ''); });
    try {
      await client.connect();
      await client.query(`LISTEN ${quoteIdent(channel)}`);
    } catch (err) {
      await client.end().catch(() => {});
      throw err;
    }
    client.on('end', () => {
      if (current === client) current = undefined;
      if (!stopped) reconnectLater();
    });
    if (stopped) {
      await client.end().catch(() => {});
      return;
    }
    current = client;
    delayMs = 100;
  };
  const reconnectLater = () => {
    if (retry || stopped) return;
    retry = setTimeout(async () => {
      retry = undefined;
      try {
        await connect();
        if (!stopped) onNotify('');
      } catch {
        delayMs = Math.min(delayMs * 2, 5000);
        reconnectLater();
      }
    }, delayMs);
    retry.unref();
  };

  await connect();
  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    await current?.end().catch(() => {});
  };
}

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
