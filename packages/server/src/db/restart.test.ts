import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openPostgres, type Db } from './client.ts';
import { migrate } from './migrate.ts';
import { testDbKind } from '../testing/db.ts';
import { createBrandWithCatalog } from '../testing/factories.ts';
import { freePort, startServerProcess, type ServerProcess } from '../testing/processes.ts';

/**
 * PostgreSQL restarts under traffic: a throwaway cluster of this test's own (initdb and pg_ctl in
 * a temporary folder, never the machine's shared server) is restarted while a server process
 * (api and worker) takes requests. The process survives, answers the outage 503 in the envelope,
 * and serves again by itself once the database is back; nothing is half-written.
 */
const binDir = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').sort().map((v) => `/usr/lib/postgresql/${v}/bin`).find((d) => existsSync(join(d, 'initdb'))) : undefined;
const asRoot = process.getuid?.() === 0;
// Its own cluster whatever the run's database; it runs once, in the PostgreSQL pass.
const skip = testDbKind !== 'postgres'
  ? 'needs PostgreSQL: runs in the PostgreSQL pass (set TEST_DATABASE_URL); it starts a cluster of its own'
  : !binDir
  ? 'needs PostgreSQL server binaries (initdb, pg_ctl): apt-get install -y postgresql'
  : asRoot && spawnSync('id', ['postgres']).status !== 0 ? 'needs a postgres system user to run initdb as root' : false;

let dir: string;
let port: number;
let server: ServerProcess;
let db: Db;

/** initdb and pg_ctl refuse to run as root; they run as the postgres user then. */
function pg(tool: string, args: string[]) {
  const cmd = join(binDir!, tool);
  return asRoot ? execFileSync('runuser', ['-u', 'postgres', '--', cmd, ...args], { stdio: 'pipe' }) : execFileSync(cmd, args, { stdio: 'pipe' });
}


const pgCtl = (action: 'start' | 'stop' | 'restart') =>
  pg('pg_ctl', ['-D', join(dir, 'data'), '-l', join(dir, 'log'), '-w', '-m', 'fast', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`, action]);

describe('a PostgreSQL restart under traffic', { skip }, () => {
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pg-restart-'));
    if (asRoot) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres']).toString()), Number(execFileSync('id', ['-g', 'postgres']).toString()));
    pg('initdb', ['-D', join(dir, 'data'), '-A', 'trust', '-U', 'postgres', '--no-sync']);
    port = await freePort();
    pgCtl('start');
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    db = openPostgres(url, { max: 2 });
    await migrate(db);
    server = await startServerProcess({ DATABASE_URL: url, ROLES: 'api,worker' });
  });
  after(async () => {
    await server?.stop();
    await db?.close().catch(() => {});
    if (dir) {
      try { pgCtl('stop'); } catch { /* already down */ }
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers 503 in the envelope during the outage, never dies, and recovers by itself', async () => {
    const shop = await createBrandWithCatalog(db);
    const get = () => fetch(`${server.url}/api/v1/products`, { headers: { 'x-service-api': shop.testKey } }).then(async (r) => ({ status: r.status, body: await r.json() as any }), () => ({ status: 0, body: null }));
    assert.equal((await get()).status, 200);

    const statuses: number[] = [];
    let stop = false;
    const traffic = (async () => { while (!stop) { const r = await get(); statuses.push(r.status); if (r.status >= 500) { assert.equal(r.body.status, 'error'); assert.equal(r.body.data.code, 'service_unavailable'); } await new Promise((x) => setTimeout(x, 20)); } })();
    pgCtl('stop');
    await new Promise((r) => setTimeout(r, 1500));
    pgCtl('start');
    let back = false;
    for (const deadline = Date.now() + 15_000; Date.now() < deadline && !back;) {
      back = (await get()).status === 200;
      if (!back) await new Promise((r) => setTimeout(r, 100));
    }
    stop = true;
    await traffic;
    assert.ok(back, 'serves again once the database is back');
    assert.equal(server.child.exitCode, null, 'the process is still running');
    assert.ok(statuses.some((s) => s === 503), `the outage was answered 503 (saw ${[...new Set(statuses)].join(', ')})`);
    assert.ok(statuses.every((s) => s === 200 || s === 503), `only 200 or 503 (saw ${[...new Set(statuses)].join(', ')})`);

    // The worker came back too: an import queued now is processed.
    await db.close().catch(() => {});
    db = openPostgres(`postgres://postgres@127.0.0.1:${port}/postgres`, { max: 2 });
    const hub = Object.values(shop.ids).find((id) => id.startsWith('hub_'))!;
    const queued = await fetch(`${server.url}/api/v1/hubs/${hub}/members/import`, { method: 'POST', headers: { 'x-service-api': shop.testKey, 'content-type': 'application/json' }, body: JSON.stringify({ records: [{ fullName: 'After Restart', email: 'after@example.com' }] }) });
    assert.equal(queued.status, 202);
    const importId = ((await queued.json()) as { data: { importID: string } }).data.importID;
    let status = '';
    for (const deadline = Date.now() + 15_000; Date.now() < deadline && status !== 'completed';) {
      status = ((await (await fetch(`${server.url}/api/v1/imports/${importId}`, { headers: { 'x-service-api': shop.testKey } })).json()) as { data: { status: string } }).data.status;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(status, 'completed', 'the worker processes new work after the restart');
  });
});
