/**
 * The delivery log at scale (issue 28 item 6), a section of `npm run bench -- --scaling`
 * (bench/scaling.ts), or alone: `DATABASE_URL=… node bench/scaling-log.ts`, which writes
 * bench/results/scaling-log.md.
 *
 * One brand's delivery log grows to 100,000, 1,000,000 and 10,000,000 deliveries (each with its
 * event and one attempt) spread evenly over the 30 daily partitions before today, plus a 31st day
 * past retention. At each size:
 *   - the log's list and filters through HTTP (main.ts, ROLES=api, autocannon, 50 connections):
 *     first page, status=failed, eventType, endpointID, resourceID, eventID, and one delivery by id;
 *   - the claim: 2,000 new events fanned out to one endpoint and drained by one worker process
 *     (main.ts, ROLES=worker) to a local receiver, deliveries/s;
 *   - retention: the 31st day (a 30th of the size in each of the three tables) detached and
 *     dropped the way the worker's retention does it (db/partitions.ts dropLogDaysBefore), ms;
 *   - the shared buffers each of those statements touched (EXPLAIN (ANALYZE, BUFFERS) of the
 *     statements the real app and worker source run: bench/explain.ts).
 * "Flat" means these stay about the same from one size to the next.
 *
 * Rows are made with set-based SQL, a day at a time, in the real schema: dated ids (ids.ts
 * datedId: prefix, the day's YYYYMMDD, 12 hex characters), created_at inside the day, deliveries
 * 98% succeeded and 2% failed over four endpoints and five event types, one attempt each.
 *
 *   BENCH_SCALING_LOG_MAX (10000000), BENCH_SCALING_SECONDS (5 s a load).
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import pino from 'pino';
import { buildApp } from '../packages/server/src/app.ts';
import { createBrand } from '../packages/server/src/brands/service.ts';
import { openPostgres, type Db } from '../packages/server/src/db/client.ts';
import { migrate } from '../packages/server/src/db/migrate.ts';
import { dropLogDaysBefore, ensureLogPartitions, logTables } from '../packages/server/src/db/partitions.ts';
import { recordEvent } from '../packages/server/src/events/service.ts';
import { newId } from '../packages/server/src/ids.ts';
import { createKey } from '../packages/server/src/keys/service.ts';
import { wireEventSubscribers } from '../packages/server/src/subscribers.ts';
import { testDeps, testWebhookSettings } from '../packages/server/src/testing/app.ts';
import { startWorkerProcess } from '../packages/server/src/testing/processes.ts';
import { createEndpoint } from '../packages/server/src/webhooks/service.ts';
import { workSources } from '../packages/server/src/work-sources.ts';
import { explaining, relationSizes, type ExplainedStatement } from './explain.ts';
import { loadMany, startApi } from './scaling-http.ts';
import { startReceivers } from './receivers.ts';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const logMax = env('BENCH_SCALING_LOG_MAX', 10_000_000);
const seconds = env('BENCH_SCALING_SECONDS', 5);
const sizes = [...new Set([...[100_000, 1_000_000].filter((s) => s < logMax), logMax])];
const days = 30;
const claimEvents = 2000;
const dayMs = 86_400_000;
const n = (x: number) => x.toLocaleString('en-US');
const eventTypes = ['member.joined', 'member.removed', 'transaction.succeeded', 'subscription.renewed', 'payout.settled'];
/** Retention long enough that the worker's own retention pass leaves the bench's old days alone. */
const keepAll = { EVENT_RETENTION: '3650d', DELIVERY_LOG_RETENTION: '3650d' };

const today = new Date(Math.floor(Date.now() / dayMs) * dayMs);
const dayStart = (back: number) => new Date(today.getTime() - back * dayMs);

/**
 * Rows `from`..`to` - 1 of one day (`back` days before today) of the brand's log: an event, its
 * delivery to one of the endpoints, and the delivery's attempt. Row j of a day holding `perDay`
 * rows is at j / perDay of the day, so a later, larger size fills the day in between.
 */
async function addDay(db: Db, brandId: string, endpointIds: string[], back: number, from: number, to: number, perDay: number) {
  const params = [brandId, dayStart(back), from, to - 1, perDay, endpointIds, eventTypes, `${back}-`];
  const rows = `FROM generate_series($3::int, $4::int) AS j,
    LATERAL (SELECT $2::timestamptz + (floor(j::float8 * 86399000 / greatest($5::int, $4::int + 1)) * interval '1 millisecond') AS at,
                    to_char($2::timestamptz AT TIME ZONE 'UTC', 'YYYYMMDD') AS stamp,
                    ($6::text[])[1 + j % cardinality($6::text[])] AS endpoint_id,
                    ($7::text[])[1 + j % cardinality($7::text[])] AS type,
                    'mem_' || substr(md5('m' || (j % 100000)), 1, 20) AS resource_id,
                    j % 50 = 0 AS failed) AS r`;
  const eventId = `'evt_' || r.stamp || substr(md5('e' || $8 || j), 1, 12)`;
  const deliveryId = `'whd_' || r.stamp || substr(md5('d' || $8 || j), 1, 12)`;
  await db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO events (brand_id, id, mode, type, data, resource_id, created_at)
       SELECT $1, ${eventId}, 'test', r.type,
              jsonb_build_object('membershipId', r.resource_id, 'name', 'Member ' || j, 'email', 'member' || j || '@example.com',
                                 'status', 'active', 'joinedAt', r.at, 'version', 1, 'updatedAt', r.at),
              r.resource_id, r.at
       ${rows}`, params);
    await tx.query(
      `INSERT INTO webhook_deliveries (brand_id, id, mode, endpoint_id, event_id, event_type, resource_type, resource_id, status, attempts,
         response_code, failure_reason, last_attempt_at, delivered_at, created_at)
       SELECT $1, ${deliveryId}, 'test', r.endpoint_id, ${eventId}, r.type, 'membership', r.resource_id,
              CASE WHEN r.failed THEN 'failed' ELSE 'succeeded' END, 1,
              CASE WHEN r.failed THEN 500 ELSE 200 END, CASE WHEN r.failed THEN 'http_500' END,
              r.at + interval '50 milliseconds', CASE WHEN NOT r.failed THEN r.at + interval '62 milliseconds' END, r.at
       ${rows}`, params);
    await tx.query(
      `INSERT INTO webhook_attempts (brand_id, delivery_id, number, attempted_at, duration_ms, response_code, error, response_body, delivery_created_at)
       SELECT $1, ${deliveryId}, 1, r.at + interval '50 milliseconds', 12, CASE WHEN r.failed THEN 500 ELSE 200 END, NULL,
              CASE WHEN r.failed THEN 'Internal Server Error' ELSE 'ok' END, r.at
       ${rows}`, params);
  });
}

interface Sample { what: string; rps: number; p50: number; errors: number; buffers: number; ms: number }
interface SizeRun { size: number; fillSeconds: number; lists: Sample[]; claim: { perSecond: number; buffers: number; ms: number }; retention: { ms: number; dropped: number; rowsPerTable: number } }

/** Shared buffers (hit + read) a plan reports at its top node, summed over statements. */
const buffersOf = (seen: ExplainedStatement[]) => seen.reduce((sum, s) => {
  const m = /Buffers: shared([^\n]*)/.exec(s.plan);
  const hit = Number(/hit=(\d+)/.exec(m?.[1] ?? '')?.[1] ?? 0);
  const read = Number(/read=(\d+)/.exec(m?.[1] ?? '')?.[1] ?? 0);
  return sum + hit + read;
}, 0);
const msOf = (seen: ExplainedStatement[]) => seen.reduce((sum, s) => sum + (Number.isFinite(s.ms) ? s.ms : 0), 0);

/** Runs the section in the database at `url` (already migrated) and returns its markdown lines. */
export async function measureDeliveryLog(db: Db, url: string, sealingKey: Buffer): Promise<string[]> {
  const rx = await startReceivers(1);
  const brand = await createBrand(db, { name: 'Delivery log at scale' });
  const { key } = await createKey(db, { brandId: brand.id, mode: 'test', scopes: ['webhooks:write'], name: 'bench' });
  const principal = { brandId: brand.id, mode: 'test' as const, scopes: ['webhooks:write' as const], via: 'api_key' as const, keyId: 'bench' };
  const settings = { key: sealingKey, allowLoopback: true };
  // The first endpoint takes the claim's new member.joined events; the others only hold old log rows.
  const endpointIds = [(await createEndpoint(db, principal, { url: rx.urls[0], events: ['member.joined'] }, settings)).id];
  for (let i = 1; i < 4; i++) endpointIds.push((await createEndpoint(db, principal, { url: `${rx.urls[0]}/other-${i}`, events: ['payout.settled'] }, settings)).id);
  await ensureLogPartitions(db, dayStart(days + 1), today);

  const api = await startApi(url, sealingKey, keepAll);
  const sink: ExplainedStatement[] = [];
  const xdb = explaining(db, sink);
  const deps = testDeps(xdb, { log: pino({ level: 'silent' }), config: { catalogCacheMb: 0, webhooks: { ...testWebhookSettings(), secretKey: sealingKey, allowLoopback: true } } });
  const app = await buildApp(deps);
  const runs: SizeRun[] = [];
  let have = 0;
  try {
    for (const size of sizes) {
      const perDay = Math.ceil(size / days);
      const started = performance.now();
      // Days 1..30 grow to perDay rows; day 31 (the one retention drops) is made afresh at this size.
      for (let back = 1; back <= days + 1; back++) {
        const from = back <= days ? Math.ceil(have / days) : 0;
        if (from < perDay) await addDay(db, brand.id, endpointIds, back, from, perDay, perDay);
      }
      await db.exec('ANALYZE events, webhook_deliveries, webhook_attempts');
      const fillSeconds = (performance.now() - started) / 1000;
      have = size;
      console.log(`delivery log: ${n(size)} rows over ${days} days made in ${fillSeconds.toFixed(0)} s`);

      const [sample] = await db.query<{ id: string; event_id: string; resource_id: string }>(
        `SELECT id, event_id, resource_id FROM webhook_deliveries WHERE brand_id = $1 AND created_at >= $2 AND created_at < $3 LIMIT 1`,
        [brand.id, dayStart(15), dayStart(14)]);
      const paths: [string, string][] = [
        ['first page', '/webhooks/deliveries?limit=20'],
        ['status=failed', '/webhooks/deliveries?limit=20&status=failed'],
        ['status=succeeded', '/webhooks/deliveries?limit=20&status=succeeded'],
        ['status=pending', '/webhooks/deliveries?limit=20&status=pending'],
        ['eventType', '/webhooks/deliveries?limit=20&eventType=subscription.renewed'],
        ['endpointID', `/webhooks/deliveries?limit=20&endpointID=${endpointIds[2]}`],
        ['resourceID', `/webhooks/deliveries?limit=20&resourceID=${sample.resource_id}`],
        ['eventID', `/webhooks/deliveries?limit=20&eventID=${sample.event_id}`],
        ['one delivery (15 days old)', `/webhooks/deliveries/${sample.id}`],
      ];
      const lists: Sample[] = [];
      for (const [what, path] of paths) {
        sink.splice(0);
        const res = await app.inject({ method: 'GET', url: `/api/v1${path}`, headers: { 'x-service-api': key } });
        if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
        const explained = sink.splice(0).filter((s) => /webhook_deliveries|webhook_attempts/.test(s.sql));
        const load = await loadMany(what, api.base, `/api/v1${path}`, [key], seconds);
        lists.push({ what, rps: load.rps, p50: load.p50, errors: load.errors, buffers: buffersOf(explained), ms: msOf(explained) });
      }

      // The claim: a fresh backlog in the same brand, drained by a worker process.
      await rx.reset();
      for (let sent = 0; sent < claimEvents; sent += 100) {
        await db.transaction(async (tx) => {
          for (let i = sent; i < Math.min(claimEvents, sent + 100); i++) {
            const at = new Date().toISOString();
            await recordEvent(tx, { brandId: brand.id, mode: 'test', type: 'member.joined', data: { membershipId: newId('mem'), name: 'Bench', email: 'bench@example.com', status: 'active', joinedAt: at, version: 1, updatedAt: at } });
          }
        });
      }
      const worker = await startWorkerProcess({ DATABASE_URL: url, WEBHOOK_SECRET_KEY: sealingKey.toString('base64'), LOG_LEVEL: 'warn', ...keepAll });
      await rx.waitFor(claimEvents, 180_000);
      worker.kill('SIGTERM');
      if (worker.exitCode === null) await once(worker, 'exit');
      const times = [...rx.receivedAt.values()];
      const perSecond = times.length / ((Math.max(...times) - Math.min(...times)) / 1000);
      // The claim's and outcome's statements at this size, with a small backlog of their own.
      for (let i = 0; i < 50; i++) {
        const at = new Date().toISOString();
        await db.transaction((tx) => recordEvent(tx, { brandId: brand.id, mode: 'test', type: 'member.joined', data: { membershipId: newId('mem'), name: 'Bench', email: 'bench@example.com', status: 'active', joinedAt: at, version: 1, updatedAt: at } }));
      }
      sink.splice(0);
      const send = workSources(deps).find((x) => x.name === 'webhook-deliveries');
      if (send) {
        for (let i = 0; i < 3; i++) await send.runOnce();
        await send.stop?.();
      }
      const worked = sink.splice(0).filter((s) => /webhook_deliveries|webhook_queue|webhook_due_brands|webhook_attempts/.test(s.sql));
      await rx.waitFor(claimEvents + 50, 60_000);

      // Retention: the 31st day, past a 30-day retention, detached and dropped in all three tables.
      const t = performance.now();
      const { dropped } = await dropLogDaysBefore(db, logTables, dayStart(days));
      const ms = performance.now() - t;
      await ensureLogPartitions(db, dayStart(days + 1), dayStart(days + 1));

      runs.push({ size, fillSeconds, lists, claim: { perSecond, buffers: buffersOf(worked), ms: msOf(worked) }, retention: { ms, dropped: dropped.length, rowsPerTable: perDay } });
      console.log(`delivery log at ${n(size)}: claim ${perSecond.toFixed(0)}/s, retention ${ms.toFixed(0)} ms for ${dropped.length} partitions`);
    }
    const sizesNow = await relationSizes(db);
    const bytesPerRow = (table: string) => {
      const t = sizesNow.find((s) => s.table === table);
      return t?.rows ? Math.round((t.tableBytes + t.indexBytes) / t.rows) : 0;
    };

    const sizeHeader = runs.map((r) => n(r.size)).join(' | ');
    const line = (what: string, cell: (r: SizeRun) => string) => `| ${what} | ${runs.map(cell).join(' | ')} |`;
    return [
      '## The delivery log at scale (daily partitions)',
      '',
      `One brand's delivery log at ${runs.map((r) => n(r.size)).join(', ')} deliveries (each with its event and one attempt), spread over the ${days} daily partitions `
        + `before today, plus a ${days + 1}st day past retention (bench/scaling-log.ts). Requests through HTTP (main.ts, ROLES=api), 50 connections, ${seconds} s a row; `
        + 'buffers are the shared buffers (hit + read) the statements on the log touched, from EXPLAIN (ANALYZE, BUFFERS) of the statements the real app runs.',
      '',
      `| GET, req/s (p50 ms; buffers) | ${sizeHeader} |`,
      `|---|${runs.map(() => '---:').join('|')}|`,
      ...runs[0].lists.map((_, i) => line(runs[0].lists[i].what, (r) => `${r.lists[i].rps.toFixed(0)} (${r.lists[i].p50}; ${r.lists[i].buffers})${r.lists[i].errors ? ` ${r.lists[i].errors} errors` : ''}`)),
      '',
      `| worker and retention | ${sizeHeader} |`,
      `|---|${runs.map(() => '---:').join('|')}|`,
      line(`claim: ${n(claimEvents)} new deliveries drained, deliveries/s`, (r) => r.claim.perSecond.toFixed(0)),
      line('claim and outcome statements for 50 deliveries: buffers (ms)', (r) => `${r.claim.buffers} (${r.claim.ms.toFixed(1)})`),
      line('retention: one day dropped in three tables, ms', (r) => `${r.retention.ms.toFixed(0)} (${n(r.retention.rowsPerTable)} rows a table)`),
      line('rows made, seconds', (r) => r.fillSeconds.toFixed(0)),
      '',
      `Bytes a row at ${n(runs.at(-1)!.size)} (table and indexes over the day partitions, after ANALYZE, without VACUUM FULL): `
        + `events ${bytesPerRow('events')}, deliveries ${bytesPerRow('webhook_deliveries')}, attempts ${bytesPerRow('webhook_attempts')}; `
        + `a delivered delivery with its event and attempt: ${bytesPerRow('events') + bytesPerRow('webhook_deliveries') + bytesPerRow('webhook_attempts')} B.`,
      '',
    ];
  } finally {
    await app.close();
    await api.stop();
    await rx.close();
  }
}

if (import.meta.main) {
  if (!process.env.DATABASE_URL) throw new Error('the scaling benchmark runs on PostgreSQL: set DATABASE_URL');
  const name = `bench_log_${randomBytes(4).toString('hex')}`;
  const admin = openPostgres(process.env.DATABASE_URL, { max: 1 });
  await admin.query(`CREATE DATABASE ${name}`);
  const u = new URL(process.env.DATABASE_URL);
  u.pathname = `/${name}`;
  const db = openPostgres(u.toString());
  wireEventSubscribers();
  try {
    await migrate(db);
    const report = [
      `# The delivery log at scale`, '',
      `${new Date().toISOString()} on ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, load average ${loadavg().map((x) => x.toFixed(1)).join(' / ')} at the start. `
        + 'Produced by `node bench/scaling-log.ts` (also a section of `npm run bench -- --scaling`).', '',
      ...await measureDeliveryLog(db, u.toString(), randomBytes(32)),
    ].join('\n');
    console.log(report);
    await writeFile(new URL('./results/scaling-log.md', import.meta.url), `${report}\n`);
  } finally {
    await db.close();
    if (!process.env.BENCH_SCALING_KEEP) await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
    await admin.close();
  }
}
