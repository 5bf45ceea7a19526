import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../app.ts';
import { openPostgres } from '../db/client.ts';
import { toAppError } from './error-handler.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { testDbKind } from '../testing/db.ts';
import { startServerProcess, urlWithSchema } from '../testing/processes.ts';
import { createBrand, createKey } from '../testing/factories.ts';
import type { App } from './app-type.ts';

let t: TestApp;
before(async () => { t = await startTestApp(); });
after(async () => { await t.close(); });

/** Sends raw bytes to the app and returns everything it answers before closing. */
function raw(port: number, chunks: (string | Buffer)[], between?: () => Promise<void>): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (d) => { answer += d; });
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
    socket.on('connect', async () => {
      socket.write(chunks[0]);
      await between?.();
      for (const c of chunks.slice(1)) socket.write(c);
    });
  });
}

async function listening(config: Partial<TestApp['config']> = {}): Promise<{ app: App; port: number }> {
  const app = await buildApp({ ...t.deps, config: { ...t.config, ...config } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, port: (app.server.address() as { port: number }).port };
}

/** Locks a table from another transaction until the returned function is called (and resolves once it is let go). */
async function holdTable(table: string): Promise<() => Promise<void>> {
  let letGo!: () => void;
  const held = new Promise<void>((r) => { letGo = r; });
  let locked!: () => void;
  const taken = new Promise<void>((r) => { locked = r; });
  const holder = t.db.transaction(async (tx) => { await tx.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`); locked(); await held; });
  await taken;
  return async () => { letGo(); await holder; };
}

const envelopeOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));

describe('answers the framework would give in its own words', () => {
  it('answers headers that are too large with 431 in the envelope', async () => {
    const { app, port } = await listening();
    try {
      const answer = await raw(port, [`GET /api/v1/ping HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`]);
      assert.match(answer, /^HTTP\/1\.1 431 /);
      assert.match(answer, /x-request-id: req_/);
      const body = envelopeOf(answer);
      assert.equal(body.status, 'error');
      assert.match(body.message, /headers are too large/);
    } finally { await app.close(); }
  });

  it('answers bad percent-encoding in the URL with 400 in the envelope, on every kind of route', async () => {
    for (const url of ['/api/v1/products/%E0%A4%A', '/api/v1/pro%ducts', '/docs/%', '/checkout/%zz/x']) {
      const res = await t.app.inject({ method: 'GET', url });
      assert.equal(res.statusCode, 400, url);
      assert.match(String(res.headers['x-request-id']), /^req_/);
      const body = res.json();
      assert.equal(body.data.code, 'validation_failed');
      assert.equal(body.data.requestId, res.headers['x-request-id']);
      assert.match(body.message, /every % must start an escape/);
    }
  });

  it('answers broken HTTP with 400 in the envelope', async () => {
    const { app, port } = await listening();
    try {
      const answer = await raw(port, ['GARBAGE / HTTP/9.9\r\n\r\n']);
      assert.match(answer, /^HTTP\/1\.1 400 /);
      assert.equal(envelopeOf(answer).data.code, 'validation_failed');
    } finally { await app.close(); }
  });

  it('cuts off a request whose handler runs past REQUEST_TIMEOUT with 503 and Retry-After', async () => {
    const { app, port } = await listening({ requestTimeoutMs: 300 });
    const brand = await createBrand(t.db);
    const key = (await createKey(t.db, brand.id)).key;
    try {
      // Another transaction holds the products table, so the list waits on it.
      const release = await holdTable('products');
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/products`, { headers: { 'x-service-api': key } }).finally(release);
      assert.equal(res.status, 503);
      assert.equal(res.headers.get('retry-after'), '1');
      const body = await res.json() as { data: { code: string; requestId: string } };
      assert.equal(body.data.code, 'service_unavailable');
      assert.equal(body.data.requestId, res.headers.get('x-request-id'));
    } finally { await app.close(); }
  });

  it('answers a request that arrives while the process shuts down with 503 and Connection: close', async () => {
    const { app, port } = await listening();
    let closed: Promise<void> | undefined;
    // The request's first line arrives before the shutdown starts, the rest after it.
    const answer = await raw(port, ['GET /api/v1/ping HTTP/1.1\r\n', 'Host: x\r\n\r\n'], async () => {
      closed = app.close();
      await new Promise((r) => setTimeout(r, 50));
    });
    await closed;
    assert.match(answer, /^HTTP\/1\.1 503 /);
    assert.match(answer, /connection: close/i);
    assert.equal(envelopeOf(answer).data.code, 'service_unavailable');
  });
});

describe('DATABASE_STATEMENT_TIMEOUT', () => {
  it('stops a statement that runs too long, and the edge answers it 503', {
    skip: testDbKind === 'pglite' ? 'needs PostgreSQL: statement_timeout is a server setting' : false,
  }, async () => {
    const db = openPostgres(t.url!, { searchPath: t.searchPath, statementTimeoutMs: 100 });
    try {
      const err = await db.query('SELECT pg_sleep(2)').then(() => undefined, (e: Error) => e);
      assert.ok(err, 'the statement was stopped');
      assert.equal(toAppError(err)?.statusCode, 503);
    } finally { await db.close(); }
  });
});

describe('SIGTERM on an API process', () => {
  it('lets a request in flight finish, then exits 0', {
    skip: testDbKind === 'pglite' ? 'needs PostgreSQL: the test holds a lock from another connection while the server runs' : false,
  }, async () => {
    const server = await startServerProcess({ ROLES: 'api', DATABASE_URL: urlWithSchema(t.url!, t.searchPath!) });
    const brand = await createBrand(t.db);
    const key = (await createKey(t.db, brand.id)).key;
    const release = await holdTable('products');
    const inFlight = fetch(`${server.url}/api/v1/products`, { headers: { 'x-service-api': key } });
    await new Promise((r) => setTimeout(r, 300)); // the request is waiting on the lock
    const exited = new Promise<number | null>((r) => server.child.once('exit', (code) => r(code)));
    server.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    await release();
    const res = await inFlight;
    assert.equal(res.status, 200, 'the request in flight was answered');
    assert.equal(await exited, 0);
    assert.match(server.output(), /shutting down/);
  });
});
