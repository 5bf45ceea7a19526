import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadCatalog } from '../catalog/load.ts';
import { traceStatements } from '../db/client.ts';
import { hubWithFreeTier, people } from '../imports/test-support.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { createBrand, createKey } from '../testing/factories.ts';
import { registerEndpoint, startReceiver, type Receiver } from '../testing/receiver.ts';
import { loadParser, tenantTables, unscopedTenantTables } from '../testing/tenant-statements.ts';

/**
 * Per-brand statements (issue 28 item 3): a cluster distributed by brand_id (Citus) routes a
 * statement to one shard only when it names the brand. Every statement the app and its worker
 * send while members are imported, their member.joined events fanned out and delivered (one
 * retried), test events sent, and the delivery log, one delivery, its resend and the events read
 * back, is captured where every statement passes (db/client.ts traceStatements) and checked with
 * PostgreSQL's own parser (testing/tenant-statements.ts): each tenant table it reads or writes
 * must have brand_id in its WHERE, its JOIN … ON or the columns it inserts.
 *
 * Not tenant statements, by design, and so left out of the check (besides stillAcrossBrands below):
 * - webhook_due_brands (migration 035) is the one table the worker reads across brands: which
 *   brands have due work. On Citus it is a coordinator-local table, and its pick reads nothing else.
 * - api_keys is looked up by the key's hash: the brand is what the key says, so the lookup cannot
 *   name it (on Citus a reference table, or a lookup table on the coordinator).
 */
/**
 * The other work sources still claim "the oldest due row of any brand" (not yet converted; each
 * would take a due-brands table like webhook_due_brands): subscription renewals, payout
 * schedules, the mail queue, the import queue, and the notice of endpoints the service disabled.
 * Listed by table and statement, so that any other statement without its brand fails this test.
 */
const stillAcrossBrands: [table: string, statement: RegExp][] = [
  ['subscriptions', /^SELECT \* FROM subscriptions s WHERE s\.due_at IS NOT NULL/],
  ['payout_schedules', /^SELECT p\.\*, to_timestamp/],
  ['mail_messages', /^UPDATE mail_messages m SET status = 'sending'/],
  ['imports', /^SELECT \* FROM imports i WHERE status IN \('queued', 'processing'\)/],
  ['webhook_endpoints', /^WITH found AS \( SELECT w\.brand_id, w\.id, w\.mode, w\.url, w\.disabled_reason FROM webhook_endpoints w WHERE w\.status = 'disabled'/],
];

let t: TestApp;
let rx: Receiver;
const statements: { sql: string }[] = [];
before(async () => {
  await loadParser();
  // A receiver timeout that a loaded machine cannot miss: a timeout is a retry, not what this is about.
  t = await startTestApp({ worker: true, webhooks: { timeoutMs: 10_000, claimLeaseMs: 20_000 } });
  // The first delivery to arrive fails, so the retry path runs too.
  rx = await startReceiver({ respond: (n) => (n === 1 ? { status: 503 } : {}) });
});
after(async () => {
  traceStatements(undefined);
  await t.close();
  await rx.close();
});

async function importAndWait(key: string, url: string, records: unknown[]) {
  const res = await t.request({ method: 'POST', url, key, payload: { records } });
  assert.equal(res.statusCode, 202, res.body);
  const { importID } = res.json().data;
  const deadline = Date.now() + 20_000;
  for (;;) {
    const status = (await t.request({ method: 'GET', url: `/api/v1/imports/${importID}`, key })).json().data;
    if (status.status === 'completed') return status;
    assert.ok(Date.now() < deadline, 'the import completed');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('statements on tenant tables', () => {
  it('name brand_id in every statement the API and the worker send for imports, deliveries and the delivery log', async () => {
    const brands = await Promise.all([0, 1].map(async () => {
      const brand = await createBrand(t.db);
      const ids = await loadCatalog(t.db, brand.id, hubWithFreeTier);
      const key = (await createKey(t.db, brand.id, { mode: 'test' })).key;
      const ep = await registerEndpoint(t, key, rx.url, ['member.joined']);
      return { brand, ids, key, ep };
    }));
    rx.secret = undefined; // two endpoints, two secrets: signatures are not what this test is about
    const tenant = await tenantTables(t.db, ['webhook_due_brands']);
    assert.ok(tenant.has('webhook_deliveries') && tenant.has('events') && tenant.has('memberships'));

    traceStatements((sql, _name, run) => {
      statements.push({ sql });
      return run();
    });
    for (const b of brands) await importAndWait(b.key, `/api/v1/hubs/${b.ids.h}/members/import`, people(3));
    for (const b of brands) {
      const res = await t.request({ method: 'POST', url: '/api/v1/webhooks/test', key: b.key, payload: { eventType: 'member.joined' } });
      assert.equal(res.statusCode, 200, res.body);
    }
    // Six imported members and two test events, one of them sent twice (a 503, then its retry).
    await rx.waitFor(9, 20_000);
    for (const b of brands) {
      const list = await t.request({ method: 'GET', url: '/api/v1/webhooks/deliveries?limit=10', key: b.key });
      assert.equal(list.statusCode, 200, list.body);
      // The receiver has answered; the outcome is recorded a moment later.
      let delivery: { id: string } | undefined;
      for (let i = 0; i < 500 && !delivery; i++) {
        const filtered = await t.request({ method: 'GET', url: `/api/v1/webhooks/deliveries?status=succeeded&endpointID=${b.ep.id}`, key: b.key });
        assert.equal(filtered.statusCode, 200, filtered.body);
        delivery = filtered.json().data.items[0];
        if (!delivery) await new Promise((r) => setTimeout(r, 20));
      }
      assert.ok(delivery, 'a delivery succeeded');
      assert.equal((await t.request({ method: 'GET', url: `/api/v1/webhooks/deliveries/${delivery.id}`, key: b.key })).statusCode, 200);
      const resent = await t.request({ method: 'POST', url: `/api/v1/webhooks/deliveries/${delivery.id}/resend`, key: b.key });
      assert.equal(resent.statusCode, 200, resent.body);
      assert.equal((await t.request({ method: 'GET', url: '/api/v1/events?limit=5', key: b.key })).statusCode, 200);
    }
    traceStatements(undefined);

    // The paths this is about did run (PGlite passes no statement names, so by what they say).
    const sent = (pattern: RegExp) => statements.some((s) => pattern.test(s.sql));
    assert.ok(sent(/SKIP LOCKED\s+\) due GROUP BY brand_id/), 'the pick of brands with due work');
    assert.ok(sent(/UPDATE webhook_queue q SET locked_until/), 'a claim');
    assert.ok(sent(/INSERT INTO webhook_attempts/), 'a record of attempts');
    assert.ok(sent(/json_to_recordset/) && sent(/INSERT INTO webhook_deliveries/), 'the fan-out of imported and single events');
    const unscoped = new Map<string, string[]>();
    for (const s of statements) {
      const text = s.sql.replace(/\s+/g, ' ').trim();
      const known = (name: string) => name === 'api_keys' || stillAcrossBrands.some(([table, statement]) => table === name && statement.test(text));
      const tables = unscopedTenantTables(s.sql, tenant).filter((name) => !known(name));
      if (tables.length) unscoped.set(text.slice(0, 160), tables);
    }
    assert.deepEqual([...unscoped], [], 'statements that read or write a tenant table without naming brand_id');
  });

  it('finds a statement that does not name the brand', () => {
    const tenant = new Set(['webhook_deliveries', 'events']);
    assert.deepEqual(unscopedTenantTables('SELECT * FROM webhook_deliveries WHERE next_attempt_at <= now() ORDER BY next_attempt_at LIMIT 10', tenant), ['webhook_deliveries']);
    assert.deepEqual(unscopedTenantTables('SELECT 1 FROM events e WHERE e.brand_id = $1 AND EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id)', tenant), ['webhook_deliveries']);
    assert.deepEqual(unscopedTenantTables('INSERT INTO events (id, type) VALUES ($1, $2)', tenant), ['events']);
    assert.deepEqual(unscopedTenantTables('UPDATE webhook_deliveries SET status = $2 WHERE id = $1', tenant), ['webhook_deliveries']);
    assert.deepEqual(unscopedTenantTables('SELECT * FROM events e JOIN webhook_deliveries d ON d.brand_id = e.brand_id AND d.event_id = e.id WHERE e.brand_id = $1', tenant), []);
    assert.deepEqual(unscopedTenantTables('DELETE FROM events WHERE brand_id = ANY ($1::text[]) AND created_at < $2', tenant), []);
    assert.deepEqual(unscopedTenantTables('SELECT 1 FROM webhook_deliveries d WHERE d.brand_id COLLATE "C" = $1', tenant), []);
  });
});
