import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { loadCatalog } from '../catalog/load.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { testDbKind } from '../testing/db.ts';
import { createBrand, createKey, createMembership } from '../testing/factories.ts';
import { serverRoot, urlWithSchema } from '../testing/processes.ts';
import { queueHubImport } from './service.ts';
import { drainImports, hubWithFreeTier, people, productWithEveryField } from './test-support.ts';
import { importWorkSource, processNextBatch } from './jobs.ts';

let t: TestApp;
before(async () => { t = await startTestApp(); });
after(async () => { await t.close(); });

const silent = pino({ level: 'silent' });

async function setup(catalog: object = { ...hubWithFreeTier, ...productWithEveryField }) {
  const brand = await createBrand(t.db);
  const ids = await loadCatalog(t.db, brand.id, catalog);
  const testKey = (await createKey(t.db, brand.id, { mode: 'test' })).key;
  const liveKey = (await createKey(t.db, brand.id, { mode: 'live' })).key;
  return { brandId: brand.id, ids, testKey, liveKey };
}

async function queue(key: string, url: string, records: unknown[], plan?: string) {
  const res = await t.request({ method: 'POST', url, key, payload: { records, ...(plan ? { plan } : {}) } });
  assert.equal(res.statusCode, 202, res.body);
  return res.json().data as { importID: string; count: number };
}

const getImport = async (key: string, id: string) => (await t.request({ method: 'GET', url: `/api/v1/imports/${id}`, key })).json().data;

async function count(sql: string, params: unknown[]): Promise<number> {
  const [row] = await t.db.query<{ n: number }>(sql, params);
  return row.n;
}
const membershipCount = (brandId: string) => count('SELECT count(*)::int AS n FROM memberships WHERE brand_id = $1', [brandId]);
const joinedEvents = (brandId: string) => t.db.query<{ mode: string; data: any }>(
  "SELECT mode, data FROM events WHERE brand_id = $1 AND type = 'member.joined' ORDER BY data->>'email'", [brandId]);

describe('processing an import', () => {
  it('makes each person an active hub member with plan and joinedAt, shown newest first on endpoints 2 and 3', async () => {
    const { brandId, ids, testKey } = await setup();
    const before = await createMembership(t.db, { brandId, hubId: ids.h, email: 'early@example.com' });
    await new Promise((r) => setTimeout(r, 2));
    const { importID } = await queue(testKey, `/api/v1/hubs/${ids.h}/members/import`, people(3));
    await drainImports(t.db);
    await new Promise((r) => setTimeout(r, 2));
    const later = await createMembership(t.db, { brandId, hubId: ids.h, email: 'late@example.com' });

    const list = (await t.request({ method: 'GET', url: `/api/v1/hubs/${ids.h}/members`, key: testKey })).json().data.items;
    assert.equal(list.length, 5);
    assert.equal(list[0].membershipId, later.id, 'a member who joined after the import is listed first');
    assert.equal(list[4].membershipId, before.id, 'a member from before the import is listed last');
    const imported = list.slice(1, 4);
    assert.deepEqual(imported.map((m: any) => m.email).sort(), ['person0@example.com', 'person1@example.com', 'person2@example.com']);
    for (const m of imported) {
      assert.equal(m.status, 'active');
      assert.equal(m.plan, ids.free);
      assert.equal(m.hubID, ids.h);
      assert.match(m.joinedAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.match(m.membershipId, /^mem_/);
      const one = await t.request({ method: 'GET', url: `/api/v1/hubs/${ids.h}/members/${m.membershipId}`, key: testKey });
      assert.deepEqual(one.json().data, m);
    }

    const events = await joinedEvents(brandId);
    assert.equal(events.length, 3, 'one member.joined per new member, none for members made otherwise');
    assert.deepEqual(events.map((e) => e.data), [...imported].sort((a: any, b: any) => a.email.localeCompare(b.email)));
    assert.ok(events.every((e) => e.mode === 'test'));
    const status = await getImport(testKey, importID);
    assert.deepEqual([status.status, status.created, status.alreadyPresent, status.pending], ['completed', 3, 0, 0]);
  });

  it('makes product customers visible on endpoint 9, with productID in member.joined', async () => {
    const { brandId, ids, testKey } = await setup();
    await queue(testKey, `/api/v1/products/${ids.p}/customers/import`, [{ fullName: 'Ada', email: 'ada@example.com', phone: '+15550100', experienceLevel: 'Beginner' }]);
    await drainImports(t.db);
    const [c] = (await t.request({ method: 'GET', url: `/api/v1/products/${ids.p}/customers`, key: testKey })).json().data.items;
    assert.deepEqual({ ...c, membershipId: undefined, joinedAt: undefined, updatedAt: undefined }, {
      membershipId: undefined, joinedAt: undefined, name: 'Ada', email: 'ada@example.com', phone: '+15550100', status: 'active', plan: ids.vip,
      version: 1, updatedAt: undefined,
    });
    const [e] = await joinedEvents(brandId);
    assert.deepEqual(e.data, { ...c, productID: ids.p });
  });

  it('creates nothing twice and emits nothing twice when the same people are imported again, in any case', async () => {
    const { brandId, ids, testKey } = await setup();
    const url = `/api/v1/hubs/${ids.h}/members/import`;
    await queue(testKey, url, people(4));
    await drainImports(t.db);
    const again = await queue(testKey, url, [
      ...people(4).map((p) => ({ ...p, email: p.email.toUpperCase(), fullName: `${p.fullName} (again)` })),
      { fullName: 'New', email: 'new@example.com' },
    ]);
    assert.equal(again.count, 5);
    await drainImports(t.db);
    assert.equal(await membershipCount(brandId), 5);
    assert.equal((await joinedEvents(brandId)).length, 5);
    const status = await getImport(testKey, again.importID);
    assert.deepEqual([status.status, status.count, status.created, status.alreadyPresent, status.failed], ['completed', 5, 1, 4, 0]);
    const names = await t.db.query<{ name: string }>('SELECT name FROM memberships WHERE brand_id = $1 ORDER BY email', [brandId]);
    assert.ok(names.every((n) => !n.name.includes('again')), 'people already present are left as they were');
  });

  it('creates one membership and one member.joined for mixed-case duplicates inside one request', async () => {
    const { brandId, ids, testKey } = await setup();
    const { importID, count: accepted } = await queue(testKey, `/api/v1/hubs/${ids.h}/members/import`, [
      { fullName: 'Grace', email: 'Grace.Hopper@Example.com' },
      { fullName: 'Grace 2', email: 'grace.hopper@example.com' },
      { fullName: 'Grace 3', email: 'GRACE.HOPPER@EXAMPLE.COM' },
    ]);
    assert.equal(accepted, 1);
    await drainImports(t.db);
    const rows = await t.db.query<{ name: string; email: string }>('SELECT name, email FROM memberships WHERE brand_id = $1', [brandId]);
    assert.deepEqual(rows, [{ name: 'Grace', email: 'Grace.Hopper@Example.com' }], 'the first occurrence is imported, as written');
    assert.equal((await joinedEvents(brandId)).length, 1);
    const status = await getImport(testKey, importID);
    assert.deepEqual([status.count, status.duplicates, status.created, status.alreadyPresent], [1, 2, 1, 0]);
  });

  it('keeps modes apart: a test import is invisible to live keys and the same person can join in live too', async () => {
    const { brandId, ids, testKey, liveKey } = await setup();
    const url = `/api/v1/hubs/${ids.h}/members/import`;
    const testImport = await queue(testKey, url, people(2));
    await drainImports(t.db);
    const liveList = (await t.request({ method: 'GET', url: `/api/v1/hubs/${ids.h}/members`, key: liveKey })).json().data.items;
    assert.deepEqual(liveList, []);
    const asLive = await t.request({ method: 'GET', url: `/api/v1/imports/${testImport.importID}`, key: liveKey });
    assert.equal(asLive.statusCode, 404);
    const liveImport = await queue(liveKey, url, people(2));
    await drainImports(t.db);
    assert.equal((await getImport(liveKey, liveImport.importID)).created, 2);
    const events = await joinedEvents(brandId);
    assert.deepEqual(events.map((e) => e.mode).sort(), ['live', 'live', 'test', 'test']);
  });

  it('works in batches, counting progress as each batch commits', async () => {
    const { brandId, ids, testKey } = await setup();
    await createMembership(t.db, { brandId, hubId: ids.h, email: 'person1@example.com' });
    const { importID } = await queue(testKey, `/api/v1/hubs/${ids.h}/members/import`, people(5));
    await processNextBatch(t.db, { batchSize: 2 });
    const partial = await getImport(testKey, importID);
    assert.deepEqual([partial.status, partial.created, partial.alreadyPresent, partial.pending], ['processing', 1, 1, 3]);
    assert.ok(partial.startedAt && !partial.finishedAt);
    assert.equal(await drainImports(t.db, { batchSize: 2 }), 2);
    const done = await getImport(testKey, importID);
    assert.deepEqual([done.status, done.created, done.alreadyPresent, done.pending], ['completed', 4, 1, 0]);
    assert.equal((await joinedEvents(brandId)).length, 4);
  });

  it('resumes after a crash mid-batch without losing or duplicating anyone', async () => {
    const { brandId, ids, testKey } = await setup();
    const { importID } = await queue(testKey, `/api/v1/hubs/${ids.h}/members/import`, people(10));
    await processNextBatch(t.db, { batchSize: 4 });
    // The second batch dies after writing its memberships and events, before it commits.
    await assert.rejects(processNextBatch(t.db, {
      batchSize: 4,
      beforeCommit: ({ created }) => { assert.equal(created, 4); throw new Error('worker killed'); },
    }), /worker killed/);
    assert.equal(await membershipCount(brandId), 4, 'the crashed batch left nothing behind');
    assert.equal((await joinedEvents(brandId)).length, 4);
    const midway = await getImport(testKey, importID);
    assert.deepEqual([midway.created, midway.pending], [4, 6]);
    assert.equal(await count('SELECT coalesce(sum(size), 0)::int AS n FROM import_chunks WHERE brand_id = $1', [brandId]), 6, 'its records are still queued');

    await drainImports(t.db, { batchSize: 4 });
    assert.equal(await membershipCount(brandId), 10);
    const events = await joinedEvents(brandId);
    assert.equal(events.length, 10);
    assert.equal(new Set(events.map((e) => e.data.email)).size, 10);
    const done = await getImport(testKey, importID);
    assert.deepEqual([done.status, done.created, done.alreadyPresent, done.failed], ['completed', 10, 0, 0]);
  });

  it('retries a failing batch with back-off, then marks the import failed without writing anything half', async () => {
    const { brandId, ids, testKey } = await setup();
    const { importID } = await queue(testKey, `/api/v1/hubs/${ids.h}/members/import`, people(3));
    let tries = 0;
    const source = importWorkSource(t.db, silent, { batchSize: 10, lanes: 1, maxAttempts: 3, retryBaseMs: 0, beforeCommit: () => { tries++; throw new Error('disk on fire'); } });
    assert.equal(await source.runOnce(), 1);
    const retrying = await getImport(testKey, importID);
    assert.deepEqual([retrying.status, retrying.pending, retrying.failed], ['queued', 3, 0]);
    await source.runOnce();
    await source.runOnce();
    assert.equal(tries, 3);
    assert.equal(await source.runOnce(), 0, 'a failed import is not taken again');
    const failed = await getImport(testKey, importID);
    assert.deepEqual([failed.status, failed.created, failed.failed, failed.pending], ['failed', 0, 3, 0]);
    assert.match(failed.error, /3 people were not imported/);
    assert.ok(!failed.error.includes('disk on fire'), 'internal error text is not shown to the caller');
    assert.ok(failed.finishedAt);
    assert.equal(await membershipCount(brandId), 0);
  });

  it('takes batch after batch in one round until told to stop, then finishes the batch in flight and leaves the rest queued', async () => {
    const { ids, testKey } = await setup();
    const { importID } = await queue(testKey, `/api/v1/hubs/${ids.h}/members/import`, people(30));
    let batches = 0;
    const source = importWorkSource(t.db, silent, {
      batchSize: 10, lanes: 1,
      beforeCommit: async () => { if (++batches === 2) await source.stop!(); },
    });
    assert.equal(await source.runOnce(), 20, 'the second batch, in flight when the worker stopped, still committed');
    const stopped = await getImport(testKey, importID);
    assert.deepEqual([stopped.status, stopped.created, stopped.pending], ['processing', 20, 10]);
    await drainImports(t.db, { batchSize: 10 });
    const done = await getImport(testKey, importID);
    assert.deepEqual([done.status, done.created, done.pending], ['completed', 30, 0]);
  });

  it('lets several workers run at once: overlapping imports to one hub create each person once', async () => {
    const { brandId, ids, testKey } = await setup();
    const url = `/api/v1/hubs/${ids.h}/members/import`;
    const a = await queue(testKey, url, people(300, 'p', 0));
    const b = await queue(testKey, url, people(300, 'p', 150).map((p) => ({ ...p, email: p.email.toUpperCase() })));
    const worker = async () => { while (await processNextBatch(t.db, { batchSize: 50 })); };
    await Promise.all([worker(), worker(), worker()]);
    assert.equal(await membershipCount(brandId), 450);
    assert.equal((await joinedEvents(brandId)).length, 450);
    const [sa, sb] = [await getImport(testKey, a.importID), await getImport(testKey, b.importID)];
    assert.deepEqual([sa.status, sb.status], ['completed', 'completed']);
    assert.equal(sa.created + sb.created, 450);
    assert.equal(sa.alreadyPresent + sb.alreadyPresent, 150);
  });

  it('is picked up by the running worker, woken by the import\'s commit', async () => {
    const { ids, testKey } = await setup();
    const worker = await t.startWorker();
    try {
      const { importID } = await queue(testKey, `/api/v1/hubs/${ids.h}/members/import`, people(25));
      const deadline = Date.now() + 10_000;
      let status = await getImport(testKey, importID);
      while (status.status !== 'completed' && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
        status = await getImport(testKey, importID);
      }
      assert.deepEqual([status.status, status.created], ['completed', 25]);
    } finally {
      await worker.stop();
      t.worker = undefined;
    }
  });

  it('imports 10,000 records end to end', async () => {
    const { brandId, ids, testKey } = await setup();
    const { importID, count: accepted } = await queue(testKey, `/api/v1/hubs/${ids.h}/members/import`, people(10_000));
    assert.equal(accepted, 10_000);
    await drainImports(t.db);
    const done = await getImport(testKey, importID);
    assert.deepEqual([done.status, done.created, done.pending], ['completed', 10_000, 0]);
    assert.equal(await membershipCount(brandId), 10_000);
    assert.equal((await joinedEvents(brandId)).length, 10_000);
  });
});

describe('a worker process killed mid-import', { skip: testDbKind !== 'postgres' && 'needs PostgreSQL: PGlite belongs to one process (the in-process crash test covers it)' }, () => {
  it('resumes in a new worker process without loss or duplicates', async () => {
    const { brandId, ids, testKey } = await setup();
    const total = 4000;
    const { importID } = await queue(testKey, `/api/v1/hubs/${ids.h}/members/import`, people(total));
    const env = {
      ...process.env,
      ROLES: 'worker',
      DATABASE_URL: urlWithSchema(t.url!, t.searchPath!),
      WEBHOOK_SECRET_KEY: randomBytes(32).toString('hex'),
      IMPORT_BATCH_SIZE: '25',
      LOG_LEVEL: 'silent',
    };
    const progress = () => t.db.query<{ created_count: number; pending_count: number; status: string }>(
      'SELECT created_count, pending_count, status FROM imports WHERE brand_id = $1 AND id = $2', [brandId, importID]).then((r) => r[0]);
    const startWorkerProcess = () => spawn(process.execPath, [join(serverRoot, 'src/main.ts')], { env, stdio: 'ignore' });

    const first = startWorkerProcess();
    const deadline = Date.now() + 20_000;
    while ((await progress()).created_count < total / 4) {
      assert.ok(Date.now() < deadline, 'the worker process made progress');
      await new Promise((r) => setTimeout(r, 10));
    }
    first.kill('SIGKILL');
    await once(first, 'close');

    const killed = await progress();
    assert.ok(killed.pending_count > 0, `killed mid-import (${killed.created_count} of ${total} done)`);
    assert.equal(await membershipCount(brandId), killed.created_count, 'the counters match exactly what committed');
    assert.equal(killed.created_count + killed.pending_count, total);

    const second = startWorkerProcess();
    try {
      while ((await progress()).status !== 'completed') {
        assert.ok(Date.now() < deadline + 20_000, 'the second worker finished the import');
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      second.kill('SIGTERM');
      await once(second, 'close');
    }
    assert.equal(await membershipCount(brandId), total);
    const [{ events, people: distinct }] = await t.db.query<{ events: number; people: number }>(
      `SELECT count(*)::int AS events, count(DISTINCT data->>'email')::int AS people
       FROM events WHERE brand_id = $1 AND type = 'member.joined'`, [brandId]);
    assert.deepEqual([events, distinct], [total, total], 'one member.joined per person, none lost, none repeated');
    const done = await getImport(testKey, importID);
    assert.deepEqual([done.created, done.alreadyPresent, done.failed], [total, 0, 0]);
  });
});

describe('an import asked for through an OAuth app', () => {
  it('records the app, and the member.joined events of the people it adds name it', async () => {
    const { brandId, ids } = await setup();
    const app = { brandId, mode: 'test' as const, scopes: ['customers:write' as const], via: 'oauth' as const, appId: 'https://assistant.example.com/client.json' };
    const queued = await t.db.transaction((tx) => queueHubImport(tx, app, ids.h, { records: people(3, 'via-app') }, 1000));
    await drainImports(t.db);
    const [imp] = await t.db.query<{ app_id: string | null; status: string }>('SELECT app_id, status FROM imports WHERE brand_id = $1 AND id = $2', [brandId, queued.importID]);
    assert.deepEqual({ ...imp }, { app_id: app.appId, status: 'completed' });
    const events = await t.db.query<{ app_id: string | null }>(`SELECT app_id FROM events WHERE brand_id = $1 AND type = 'member.joined'`, [brandId]);
    assert.deepEqual(events.map((e) => e.app_id), [app.appId, app.appId, app.appId]);
  });
});
