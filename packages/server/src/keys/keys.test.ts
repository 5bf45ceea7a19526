import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { testDbKind } from '../testing/db.ts';
import { createBrand } from '../testing/factories.ts';
import { runCli, startServerProcess, urlWithSchema, type ServerProcess } from '../testing/processes.ts';
import { createApiKey, listApiKeys, ownerPrincipal, revokeApiKey, rollApiKey } from './service.ts';
import { until } from '../testing/until.ts';

/**
 * API keys as the dashboard and the CLI manage them (issue 12): roll with a grace period, revoke,
 * last used without a write per request, and a list that never shows a key.
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let t: TestApp;
before(async () => { t = await startTestApp({ keyCacheMs: 1000 }); });
after(async () => { await t?.close(); });

const ping = async (key: string) => (await t.request({ method: 'GET', url: '/api/v1/ping', key })).statusCode;

async function newKey(mode: 'test' | 'live' = 'test') {
  const brand = await createBrand(t.db);
  const owner = ownerPrincipal(brand.id, mode);
  const created = await t.db.transaction((tx) => createApiKey(tx, owner, { name: 'Zapier', scopes: ['products:read', 'webhooks:write'] }));
  return { brand, owner, created };
}

describe('rolling an API key', () => {
  it('keeps both keys working during the grace period and refuses the old one from its expiry on', async () => {
    const { owner, created } = await newKey();
    assert.equal(await ping(created.key), 200, 'the old key is cached before the roll');
    const rolled = await t.db.transaction((tx) => rollApiKey(tx, owner, { id: created.id, graceSeconds: 2 }, { keyCache: t.keyCache }));
    assert.equal(rolled.key.name, 'Zapier');
    assert.equal(rolled.key.mode, 'test');
    assert.deepEqual(rolled.key.scopes, ['products:read', 'webhooks:write']);
    assert.notEqual(rolled.key.key, created.key);
    assert.equal(rolled.previous.id, created.id);
    assert.ok(rolled.previous.expiresAt, 'the old key has an end');
    assert.equal(await ping(rolled.key.key), 200);
    assert.equal(await ping(created.key), 200, 'the old key works during its grace');
    // Keep using the old key (so it stays cached) until its expiry has passed: the cache never
    // trusts a key past expires_at, so the first request after it is refused.
    const expiresAt = Date.parse(rolled.previous.expiresAt!);
    while (Date.now() < expiresAt - 500) {
      assert.equal(await ping(created.key), 200, 'still within the grace period');
      await sleep(100);
    }
    await sleep(Math.max(0, expiresAt - Date.now()) + 20);
    assert.equal(await ping(created.key), 401, 'refused right after its expiry');
    assert.equal(await ping(rolled.key.key), 200, 'the new key goes on working');
  });

  it('stops the old key at once with a grace of 0', async () => {
    const { owner, created } = await newKey();
    assert.equal(await ping(created.key), 200);
    const rolled = await t.db.transaction((tx) => rollApiKey(tx, owner, { id: created.id, graceSeconds: 0 }, { keyCache: t.keyCache }));
    assert.equal(await ping(created.key), 401);
    assert.equal(await ping(rolled.key.key), 200);
  });

  it('refuses to roll a revoked key, another mode\'s key or a grace over 7 days', async () => {
    const { owner, created } = await newKey();
    await assert.rejects(t.db.transaction((tx) => rollApiKey(tx, owner, { id: created.id, graceSeconds: 604_801 }, {})), /graceSeconds/);
    await assert.rejects(t.db.transaction((tx) => rollApiKey(tx, { ...owner, mode: 'live' }, { id: created.id, graceSeconds: 0 }, {})), { code: 'not_found' });
    await t.db.transaction((tx) => revokeApiKey(tx, owner, { id: created.id }, { keyCache: t.keyCache }));
    await assert.rejects(t.db.transaction((tx) => rollApiKey(tx, owner, { id: created.id, graceSeconds: 60 }, {})), { code: 'conflict' });
  });

  it('never lengthens a rolled key\'s life by rolling it again', async () => {
    const { owner, created } = await newKey();
    const first = await t.db.transaction((tx) => rollApiKey(tx, owner, { id: created.id, graceSeconds: 60 }, {}));
    const second = await t.db.transaction((tx) => rollApiKey(tx, owner, { id: created.id, graceSeconds: 600 }, {}));
    assert.equal(second.previous.expiresAt, first.previous.expiresAt);
  });
});

describe('revoking an API key', () => {
  it('refuses the key on the next request', async () => {
    const { owner, created } = await newKey();
    assert.equal(await ping(created.key), 200);
    const revoked = await t.db.transaction((tx) => revokeApiKey(tx, owner, { id: created.id }, { keyCache: t.keyCache }));
    assert.ok(revoked.revokedAt);
    assert.equal(await ping(created.key), 401);
  });
});

describe('the key list', () => {
  it('shows name, mode, prefix, last four, scopes and dates, and never the key or its hash', async () => {
    const { owner, created } = await newKey();
    await t.db.transaction((tx) => createApiKey(tx, { ...owner, mode: 'live' }, { name: 'live one', scopes: ['products:read'] }));
    const items = await listApiKeys(t.db, owner);
    assert.equal(items.length, 1, 'only the principal\'s mode');
    const [item] = items;
    assert.deepEqual(Object.keys(item).sort(), ['createdAt', 'expiresAt', 'id', 'lastFour', 'lastUsedAt', 'mode', 'name', 'prefix', 'revokedAt', 'scopes']);
    assert.equal(item.prefix, created.key.slice(0, 13));
    assert.equal(item.lastFour, created.key.slice(-4));
    const [{ key_hash: hash }] = await t.db.query<{ key_hash: string }>('SELECT key_hash FROM api_keys WHERE id = $1', [created.id]);
    const text = JSON.stringify(items);
    assert.ok(!text.includes(created.key.slice(13, -4)), 'no part of the key beyond prefix and last four');
    assert.ok(!text.includes(hash), 'never the hash');
  });

  it('refuses unknown, repeated or no scopes and a blank name, naming the field', async () => {
    const { owner } = await newKey();
    await assert.rejects(t.db.transaction((tx) => createApiKey(tx, owner, { name: 'x', scopes: ['products:read', 'root'] })), (err: { code: string; details: { field: string }[] }) => err.code === 'validation_failed' && err.details[0].field === 'scopes[1]');
    await assert.rejects(t.db.transaction((tx) => createApiKey(tx, owner, { name: 'x', scopes: ['products:read', 'products:read'] })), { code: 'validation_failed' });
    await assert.rejects(t.db.transaction((tx) => createApiKey(tx, owner, { name: 'x', scopes: [] })), { code: 'validation_failed' });
    await assert.rejects(t.db.transaction((tx) => createApiKey(tx, owner, { name: '  ', scopes: ['products:read'] })), { code: 'validation_failed' });
  });
});

describe('last used', () => {
  it('appears after use and is written at most once a minute per key, however many requests', async () => {
    const { owner, created } = await newKey();
    // Count every write of last_used_at to this key, in the database itself.
    await t.db.exec(`
      CREATE TABLE IF NOT EXISTS key_touch_log (key_id text NOT NULL);
      CREATE OR REPLACE FUNCTION log_key_touch() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN INSERT INTO key_touch_log VALUES (NEW.id); RETURN NEW; END $$;
      DROP TRIGGER IF EXISTS key_touch ON api_keys;
      CREATE TRIGGER key_touch AFTER UPDATE OF last_used_at ON api_keys FOR EACH ROW EXECUTE FUNCTION log_key_touch();
    `);
    const writes = async () => Number((await t.db.query<{ n: string }>('SELECT count(*) AS n FROM key_touch_log WHERE key_id = $1', [created.id]))[0].n);
    const lastUsed = async () => (await listApiKeys(t.db, owner))[0].lastUsedAt;
    assert.equal(await lastUsed(), null, 'a new key was never used');
    const before = Date.now();
    let requests = 0;
    await until('last used to appear', async () => {
      assert.equal(await ping(created.key), 200);
      requests++;
      return (await lastUsed()) !== null;
    });
    const at = Date.parse((await lastUsed())!);
    assert.ok(at >= before - 1000, 'the time of a use in this test');
    // Go on using the key across several more flush ticks (2 s each): nothing more is written.
    const end = Date.now() + 5000;
    while (Date.now() < end) {
      assert.equal(await ping(created.key), 200);
      requests++;
      await sleep(20);
    }
    assert.ok(requests > 50, `made ${requests} requests`);
    assert.equal(await writes(), 1, `${requests} requests, one write`);
  });
});

describe('key roll and key list on the CLI', () => {
  it('prints the new key and the previous record, and list gains the new fields', async () => {
    if (testDbKind !== 'postgres') return; // The CLI talks to PostgreSQL directly; embedded mode is covered by cli.test.ts.
    const env = { DATABASE_URL: urlWithSchema(t.url!, t.searchPath!), WEBHOOK_SECRET_KEY: t.deps.secrets.webhookKey.toString('base64') };
    const { brand, created } = await newKey();
    const bad = await runCli(['key', 'roll', created.id, '--grace', '8d'], env);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /--grace must be a duration/);
    const res = await runCli(['key', 'roll', created.id, '--grace', '1h'], env);
    assert.equal(res.code, 0, res.stderr);
    const out = res.json();
    assert.match(out.key.key, /^svc_test_/);
    assert.equal(out.key.brandID, brand.id);
    assert.equal(out.previous.id, created.id);
    assert.ok(Date.parse(out.previous.expiresAt) > Date.now() + 3500_000);
    const list = await runCli(['key', 'list', '--brand', brand.id], env);
    assert.equal(list.code, 0, list.stderr);
    const items = list.json().items as Record<string, unknown>[];
    assert.deepEqual(Object.keys(items[0]).sort(), ['brandID', 'createdAt', 'expiresAt', 'id', 'lastFour', 'lastUsedAt', 'mode', 'name', 'prefix', 'revokedAt', 'scopes']);
    assert.ok(!list.stdout.includes(out.key.key.slice(13, -4)) && !list.stdout.includes(created.key.slice(13, -4)), 'never a key');
  });
});

/** Another API process on the same PostgreSQL, holding the key in its cache, stops within KEY_CACHE_MS. */
describe('on a second API process', { skip: testDbKind === 'pglite' ? 'needs PostgreSQL: a second process shares the database only with DATABASE_URL' : false }, () => {
  let api: ServerProcess;
  let env: Record<string, string>;
  const keyCacheMs = 1000;
  before(async () => {
    env = { DATABASE_URL: urlWithSchema(t.url!, t.searchPath!), WEBHOOK_SECRET_KEY: t.deps.secrets.webhookKey.toString('base64'), KEY_CACHE_MS: String(keyCacheMs) };
    api = await startServerProcess({ ...env, ROLES: 'api' });
  });
  after(async () => { await api?.stop(); });

  const remotePing = async (key: string) => (await fetch(`${api.url}/api/v1/ping`, { headers: { 'x-service-api': key } })).status;

  it('refuses an old key rolled with grace 0 one KEY_CACHE_MS after the roll', async () => {
    const { created } = await newKey();
    assert.equal(await remotePing(created.key), 200, 'cached on the other process');
    const res = await runCli(['key', 'roll', created.id, '--grace', '0'], env);
    assert.equal(res.code, 0, res.stderr);
    await sleep(keyCacheMs + 50);
    assert.equal(await remotePing(created.key), 401);
    assert.equal(await remotePing(res.json().key.key), 200);
  });

  it('refuses a revoked key one KEY_CACHE_MS after the revoke', async () => {
    const { created } = await newKey();
    assert.equal(await remotePing(created.key), 200);
    const res = await runCli(['key', 'revoke', created.id], env);
    assert.equal(res.code, 0, res.stderr);
    await sleep(keyCacheMs + 50);
    assert.equal(await remotePing(created.key), 401);
  });

  it('refuses a rolled key right after its grace ends, though it was cached', async () => {
    const { owner, created } = await newKey();
    const rolled = await t.db.transaction((tx) => rollApiKey(tx, owner, { id: created.id, graceSeconds: 2 }, {}));
    const expiresAt = Date.parse(rolled.previous.expiresAt!);
    while (Date.now() < expiresAt - 500) {
      assert.equal(await remotePing(created.key), 200);
      await sleep(100);
    }
    await sleep(Math.max(0, expiresAt - Date.now()) + 20);
    assert.equal(await remotePing(created.key), 401);
  });
});
