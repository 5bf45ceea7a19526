import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { openPostgres, type Db } from '../db/client.ts';
import { testDbKind } from '../testing/db.ts';
import { createBrandWithCatalog } from '../testing/factories.ts';
import { startServerProcess, urlWithSchema, type ServerProcess } from '../testing/processes.ts';
import { startTcpProxy, type TcpProxy } from '../testing/tcp-proxy.ts';
import { toAppError } from './error-handler.ts';

/**
 * A database outage must never end a process, and is answered 503 with Retry-After, logged once.
 * The server process reaches PostgreSQL through a TCP proxy the test controls, and is named by
 * application_name so that pg_terminate_backend hits its connections only.
 */
const skip = testDbKind !== 'postgres' ? 'needs PostgreSQL: terminates the service\'s backends' : false;

let admin: Db;
let db: Db;
let proxy: TcpProxy;
let server: ServerProcess;
let schema: string;
const appName = `outage_${randomBytes(4).toString('hex')}`;

const terminate = (name: string) =>
  admin.query<{ n: number }>('SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE application_name = $1', [name]);

before(async () => {
  if (skip) return;
  const url = process.env.TEST_DATABASE_URL!;
  schema = `outage_${randomBytes(4).toString('hex')}`;
  admin = openPostgres(url, { max: 1 });
  await admin.query(`CREATE SCHEMA ${schema}`);
  const target = new URL(url);
  proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
  const viaProxy = new URL(urlWithSchema(url, schema));
  viaProxy.hostname = '127.0.0.1';
  viaProxy.port = String(proxy.port);
  server = await startServerProcess({ DATABASE_URL: viaProxy.toString(), PGAPPNAME: appName });
  db = openPostgres(url, { searchPath: schema });
});

after(async () => {
  if (skip) return;
  await server?.stop();
  await db?.close();
  await proxy?.close();
  await admin.query(`DROP SCHEMA ${schema} CASCADE`);
  await admin.close();
});

function checkOutageAnswer(status: number, headers: Headers, body: any) {
  assert.equal(status, 503);
  assert.equal(headers.get('retry-after'), '5');
  assert.equal(body.status, 'error');
  assert.equal(body.data.code, 'service_unavailable');
  assert.equal(body.data.requestId, headers.get('x-request-id'));
}

describe('a database outage', { skip }, () => {
  it('does not end the server when its connections are terminated mid-transaction', async () => {
    const { ids, testKey } = await createBrandWithCatalog(db);
    const headers = { 'x-service-api': testKey, 'content-type': 'application/json' };
    const statuses: number[] = [];
    let stop = false;
    // Imports open a transaction per request and the worker another per batch; reads use the pool.
    const traffic = async (i: number) => {
      try {
        await trafficLoop(i);
      } catch (err) {
        throw new Error(`request failed (${(err as Error).message}); server exit ${server.child.exitCode}, output:\n${server.output().slice(-4000)}`);
      }
    };
    const trafficLoop = async (i: number) => {
      for (let n = 0; !stop; n++) {
        const res = n % 2
          ? await fetch(`${server.url}/api/v1/products`, { headers })
          : await fetch(`${server.url}/api/v1/hubs/${ids['studio-club']}/members/import`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ records: Array.from({ length: 300 }, (_, k) => ({ fullName: 'P', email: `p${i}-${n}-${k}@example.com` })) }),
          });
        const body = (await res.json()) as any;
        if (res.status === 503) checkOutageAnswer(res.status, res.headers, body);
        statuses.push(res.status);
      }
    };
    const running = [0, 1, 2, 3].map(traffic);
    try {
      let terminated = 0;
      for (let round = 0; round < 8; round++) {
        const seen = statuses.length;
        // Wait for the server to have connections again (it reconnects on demand), then cut them.
        for (let i = 0; i < 200; i++) {
          const [{ n: open }] = await admin.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1', [appName]);
          if (open > 0) break;
          await new Promise((r) => setTimeout(r, 10));
        }
        const [{ n }] = await terminate(appName);
        terminated += n;
        while (statuses.length < seen + 8) {
          assert.equal(server.child.exitCode, null, `the server died: ${server.output().slice(-2000)}`);
          await new Promise((r) => setTimeout(r, 20));
        }
      }
      assert.ok(terminated >= 8, `terminated ${terminated} of the server's connections`);
    } finally {
      stop = true;
      await Promise.allSettled(running);
    }
    await Promise.all(running); // a failed fetch (server gone) fails the test here
    assert.equal(server.child.exitCode, null);
    assert.deepEqual(statuses.filter((s) => ![200, 202, 503].includes(s)), [], 'only successes and 503s');
    const after = await fetch(`${server.url}/api/v1/products`, { headers });
    assert.equal(after.status, 200);
  });

  it('answers 503 with Retry-After while the database is unreachable, logs it once, and recovers', async () => {
    const { testKey } = await createBrandWithCatalog(db);
    const headers = { 'x-service-api': testKey };
    assert.equal((await fetch(`${server.url}/api/v1/products`, { headers })).status, 200);
    const logBefore = server.output().length;
    proxy.cut();
    try {
      // Past KEY_CACHE_MS, so the key lookup needs the database too.
      await new Promise((r) => setTimeout(r, 600));
      for (let i = 0; i < 10; i++) {
        const res = await fetch(`${server.url}/api/v1/products`, { headers });
        checkOutageAnswer(res.status, res.headers, await res.json());
      }
    } finally {
      proxy.restore();
    }
    const log = server.output().slice(logBefore);
    // A pino line a line; the first may be cut where the slice began.
    const lines = log.split('\n').flatMap((l) => { try { return [JSON.parse(l)]; } catch { return []; } });
    const httpLines = lines.filter((l) => l.msg === 'database unavailable; answering 503 until it is back');
    assert.equal(httpLines.length, 1, `one warning for the outage, not one per request:\n${log}`);
    assert.equal(httpLines[0].level, 40);
    const workerLines = lines.filter((l) => l.msg === 'worker: database unavailable; retrying');
    assert.ok(workerLines.length <= 1, `the worker warns once at most:\n${log}`);
    assert.ok(!log.includes('"stack"'), `no stack traces during an outage:\n${log}`);
    assert.equal(server.child.exitCode, null);

    let res = await fetch(`${server.url}/api/v1/products`, { headers });
    for (let i = 0; res.status !== 200 && i < 50; i++) res = await fetch(`${server.url}/api/v1/products`, { headers });
    assert.equal(res.status, 200, 'back once the database is');
  });

  it('listens again after the LISTEN connection is lost, so the worker keeps hearing NOTIFY', async () => {
    const name = `listen_${randomBytes(4).toString('hex')}`;
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.searchParams.set('application_name', name);
    const listener = openPostgres(url.toString(), { max: 1 });
    const heard: string[] = [];
    const unlisten = await listener.listen('outage_test', (payload) => { heard.push(payload); });
    try {
      await admin.query(`SELECT pg_notify('outage_test', 'before')`);
      while (!heard.includes('before')) await new Promise((r) => setTimeout(r, 10));
      const [{ n }] = await terminate(name);
      assert.equal(n, 1);
      // Keep notifying until the new connection hears one (it re-LISTENs with a short backoff).
      for (let i = 0; !heard.includes('after'); i++) {
        assert.ok(i < 200, 'heard a NOTIFY again within 10 s');
        await admin.query(`SELECT pg_notify('outage_test', 'after')`);
        await new Promise((r) => setTimeout(r, 50));
      }
      // Called right after the new LISTEN, so possibly just after that NOTIFY arrived.
      for (let i = 0; !heard.includes(''); i++) {
        assert.ok(i < 100, 'told the caller it was away, so it looks for missed work');
        await new Promise((r) => setTimeout(r, 10));
      }
    } finally {
      await unlisten();
      await listener.close();
    }
  });

  it('answers a pool that has no connection to give within connectionTimeoutMillis with 503', async () => {
    const pool = openPostgres(process.env.TEST_DATABASE_URL!, { max: 1, connectionTimeoutMs: 200 });
    let release!: () => void;
    const held = new Promise<void>((r) => { release = r; });
    let holding!: () => void;
    const taken = new Promise<void>((r) => { holding = r; });
    const transaction = pool.transaction(async (tx) => { await tx.query('SELECT 1'); holding(); await held; });
    try {
      await taken;
      const err = await pool.query('SELECT 1').then(() => undefined, (e: Error) => e);
      assert.ok(err, 'the query could not get a connection');
      const answer = toAppError(err);
      assert.equal(answer?.statusCode, 503, err.message);
      assert.equal(answer?.code, 'service_unavailable');
    } finally {
      release();
      await transaction;
      await pool.close();
    }
  });
});
