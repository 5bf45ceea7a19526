import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { openPostgres, type Db } from './client.ts';
import { testDbKind } from '../testing/db.ts';
import { createBrandWithCatalog } from '../testing/factories.ts';
import { startServerProcess, urlWithSchema, type ServerProcess } from '../testing/processes.ts';
import { startTcpProxy, type TcpProxy } from '../testing/tcp-proxy.ts';

/**
 * "database unavailable" is logged once per outage per process (README), however the requests
 * during it mix: answers that need no database (metadata documents, cached lists) succeed
 * meanwhile and must not count as the database being back.
 */
const skip = testDbKind !== 'postgres' ? 'needs PostgreSQL: cuts the server\'s connection to it' : false;

let admin: Db;
let db: Db;
let proxy: TcpProxy;
let server: ServerProcess;
let schema: string;

before(async () => {
  if (skip) return;
  const url = process.env.TEST_DATABASE_URL!;
  schema = `outagelog_${randomBytes(4).toString('hex')}`;
  admin = openPostgres(url, { max: 1 });
  await admin.query(`CREATE SCHEMA ${schema}`);
  const target = new URL(url);
  proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
  const viaProxy = new URL(urlWithSchema(url, schema));
  viaProxy.hostname = '127.0.0.1';
  viaProxy.port = String(proxy.port);
  server = await startServerProcess({ DATABASE_URL: viaProxy.toString() });
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

const parse = (log: string) => log.split('\n').flatMap((l) => { try { return [JSON.parse(l) as { msg: string }]; } catch { return []; } });

describe('logging a database outage', { skip }, () => {
  it('warns once while answers needing no database succeed in between, and says once when it is back', async () => {
    const { testKey } = await createBrandWithCatalog(db);
    const headers = { 'x-service-api': testKey };
    assert.equal((await fetch(`${server.url}/api/v1/transactions`, { headers })).status, 200);
    const logBefore = server.output().length;
    proxy.cut();
    try {
      await new Promise((r) => setTimeout(r, 600));
      for (let i = 0; i < 8; i++) {
        assert.equal((await fetch(`${server.url}/api/v1/transactions`, { headers })).status, 503);
        assert.equal((await fetch(`${server.url}/.well-known/oauth-protected-resource`)).status, 200);
      }
    } finally {
      proxy.restore();
    }
    let lines = parse(server.output().slice(logBefore));
    for (let i = 0; i < 100 && !lines.some((l) => l.msg === 'database reachable again'); i++) {
      await new Promise((r) => setTimeout(r, 50));
      lines = parse(server.output().slice(logBefore));
    }
    const warned = lines.filter((l) => l.msg === 'database unavailable; answering 503 until it is back');
    assert.equal(warned.length, 1, `one warning for the outage:\n${server.output().slice(logBefore)}`);
    assert.equal(lines.filter((l) => l.msg === 'database reachable again').length, 1, 'one line when it is back');
    assert.equal((await fetch(`${server.url}/api/v1/transactions`, { headers })).status, 200);
  });
});
