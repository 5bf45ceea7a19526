import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dayStamp } from '../ids.ts';
import { openPostgres } from './client.ts';
import { openTestDb, testDbKind, type TestDb } from '../testing/db.ts';
import { daysAhead, dropLogDaysBefore, ensureLogPartitions, logTables } from './partitions.ts';

// The delivery log's daily partitions (migration 037): a schema test, in SQL.
let t: TestDb;
before(async () => { t = await openTestDb(); });
after(async () => { await t.close(); });

const day = 86_400_000;
const startOfDay = (at: Date) => new Date(Math.floor(at.getTime() / day) * day);
const days = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => dayStamp(new Date(Date.now() + (from + i) * day)));

async function partitionsOf(table: string): Promise<string[]> {
  const rows = await t.db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = $1::regclass ORDER BY c.relname`,
    [table],
  );
  return rows.map((r) => r.name);
}

const insertEvent = (id: string, at: Date) => t.db.query(
  `INSERT INTO events (brand_id, id, mode, type, data, created_at) VALUES ('brand_days', $1, 'test', 'member.joined', '{}', $2)`, [id, at]);

describe('daily partitions', () => {
  it('has a partition for every day from yesterday to two days ahead on each of the three tables after start', async () => {
    for (const table of logTables) {
      const have = new Set(await partitionsOf(table));
      for (const stamp of days(-1, daysAhead)) assert.ok(have.has(`${table}_p${stamp}`), `${table}_p${stamp}`);
    }
  });

  it('makes the missing days of a range, and two callers at once both succeed', async () => {
    const first = new Date(Date.now() + 40 * day);
    const last = new Date(Date.now() + 44 * day);
    const made = await Promise.all([ensureLogPartitions(t.db, first, last), ensureLogPartitions(t.db, first, last)]);
    assert.equal(made[0] + made[1], 5 * logTables.length, 'each day made once, by one of the two');
    assert.equal(await ensureLogPartitions(t.db, first, last), 0);
    for (const table of logTables) {
      const have = new Set(await partitionsOf(table));
      for (const stamp of days(40, 44)) assert.ok(have.has(`${table}_p${stamp}`));
    }
  });

  it('has no DEFAULT partition: a row for a day without one is refused, not kept somewhere else', async () => {
    const far = new Date(Date.now() + 400 * day);
    await assert.rejects(insertEvent(`evt_${dayStamp(far)}farfuture123`, far), /no partition/);
  });

  it('refuses one event id on two days across midnight', async () => {
    // Two days ahead: rows made after migration 037 are held to the CHECK that ties id and day.
    const midnight = startOfDay(new Date(Date.now() + 3 * day));
    await ensureLogPartitions(t.db, new Date(midnight.getTime() - day), midnight);
    const id = `evt_${dayStamp(new Date(midnight.getTime() - 1))}midnight1234`;
    await insertEvent(id, new Date(midnight.getTime() - 1));
    // The same id a millisecond after midnight: the next day's partition, where the primary key
    // cannot see the first; the CHECK refuses it.
    await assert.rejects(insertEvent(id, new Date(midnight.getTime() + 1)), (err: Error & { code?: string }) => err.code === '23514');
    // On its own day the primary key does.
    await assert.rejects(insertEvent(id, new Date(midnight.getTime() - 3_600_000)), (err: Error & { code?: string }) => err.code === '23505');
    const rows = await t.db.query('SELECT 1 FROM events WHERE brand_id = $1 AND id = $2', ['brand_days', id]);
    assert.equal(rows.length, 1);
  });

  it('drops whole days that ended by the cutoff, keeps the day the cutoff falls in, and finishes what an interrupted run left', async () => {
    const cutoff = new Date(Date.now() - 60 * day);
    const keptDay = startOfDay(cutoff);
    const goneDay = new Date(keptDay.getTime() - day);
    await ensureLogPartitions(t.db, new Date(goneDay.getTime() - 2 * day), keptDay);
    await insertEvent(`evt_${dayStamp(goneDay)}lastmilli123`, new Date(keptDay.getTime() - 1));
    await insertEvent(`evt_${dayStamp(keptDay)}firstmilli12`, keptDay);
    // A run that detached a day and stopped before dropping it.
    const leftover = `events_p${dayStamp(new Date(goneDay.getTime() - 2 * day))}`;
    await t.db.query(`ALTER TABLE events DETACH PARTITION ${leftover}`);
    const { dropped, failed } = await dropLogDaysBefore(t.db, ['events'], cutoff);
    assert.deepEqual(failed, []);
    assert.ok(dropped.includes(`events_p${dayStamp(goneDay)}`) && dropped.includes(leftover));
    assert.ok(!dropped.includes(`events_p${dayStamp(keptDay)}`));
    const left = await t.db.query<{ id: string }>('SELECT id FROM events WHERE brand_id = $1 AND created_at < $2 ORDER BY id', ['brand_days', new Date(keptDay.getTime() + day)]);
    assert.deepEqual(left.map((r) => r.id), [`evt_${dayStamp(keptDay)}firstmilli12`]);
    const [{ n }] = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_class WHERE relname = $1`, [leftover]);
    assert.equal(n, 0);
    // The deliveries' and attempts' days are another call's (DELIVERY_LOG_RETENTION).
    assert.ok((await partitionsOf('webhook_deliveries')).includes(`webhook_deliveries_p${dayStamp(goneDay)}`));
  });

  it('finishes a DETACH … CONCURRENTLY that was interrupted (PostgreSQL)', { skip: testDbKind !== 'postgres' && 'PGlite detaches in one step' }, async () => {
    const gone = new Date(Date.now() - 70 * day);
    await ensureLogPartitions(t.db, gone, gone);
    const name = `webhook_attempts_p${dayStamp(gone)}`;
    // A transaction that has used the table makes the detach's second phase wait; a statement
    // timeout stops it there, leaving the partition "detach pending".
    const reader = openPostgres(t.url!, { searchPath: t.searchPath, max: 1 });
    const other = openPostgres(t.url!, { searchPath: t.searchPath, max: 1 });
    try {
      let release!: () => void;
      const held = new Promise<void>((r) => { release = r; });
      let reading!: () => void;
      const read = new Promise<void>((r) => { reading = r; });
      const tx = reader.transaction(async (q) => {
        await q.query('SELECT count(*) FROM webhook_attempts');
        reading();
        await held;
      });
      await read;
      // One connection (max 1): the setting holds for the next statement; CONCURRENTLY cannot run in a transaction block.
      await other.query('SET statement_timeout = 300');
      await assert.rejects(other.query(`ALTER TABLE webhook_attempts DETACH PARTITION ${name} CONCURRENTLY`), /statement timeout/);
      release();
      await tx;
      const [pending] = await t.db.query<{ pending: boolean }>(
        'SELECT inhdetachpending AS pending FROM pg_inherits WHERE inhrelid = $1::regclass', [name]);
      assert.equal(pending?.pending, true, 'left detach pending');
      const { dropped, failed } = await dropLogDaysBefore(t.db, ['webhook_attempts'], new Date(gone.getTime() + 2 * day));
      assert.deepEqual(failed, []);
      assert.ok(dropped.includes(name));
      assert.ok(!(await partitionsOf('webhook_attempts')).includes(name));
    } finally {
      await reader.close();
      await other.close();
    }
  });
});
