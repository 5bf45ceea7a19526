import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { openTestDb, type TestDb } from '../testing/db.ts';
import { signingKeys } from './keys.ts';
import { purgeExpiredRecords } from './repository.ts';

let t: TestDb;
before(async () => { t = await openTestDb(); });
after(async () => { await t.close(); });

describe('the authorization server\'s signing key', () => {
  it('is made once and shared by every process with the same server key, sealed at rest', async () => {
    const serverKey = randomBytes(32);
    const first = await signingKeys(t.db, serverKey);
    const second = await signingKeys(t.db, serverKey);
    assert.deepEqual(second, first);
    const [row] = await t.db.query<{ payload: { sealed: string } }>("SELECT payload FROM oauth_records WHERE kind = 'ServerSetting'");
    assert.ok(!row.payload.sealed.includes(String(first.keys[0].d)), 'the private key is not stored in the clear');
  });

  it('is replaced, not fatal, when the server key changed', async () => {
    const warnings: string[] = [];
    const replaced = await signingKeys(t.db, randomBytes(32), { warn: (m) => warnings.push(m) });
    assert.equal(replaced.keys.length, 1);
    assert.equal(warnings.length, 1);
  });
});

describe('expired OAuth records', () => {
  it('are purged, and records without expiry or still valid are kept', async () => {
    await t.db.query(`INSERT INTO oauth_records (kind, id, payload, expires_at) VALUES
      ('AccessToken', 'old', '{}', clock_timestamp() - interval '2 hours'),
      ('AccessToken', 'fresh', '{}', clock_timestamp() + interval '1 hour')`);
    assert.equal(await purgeExpiredRecords(t.db), 1);
    const left = await t.db.query<{ id: string }>("SELECT id FROM oauth_records WHERE kind = 'AccessToken' ORDER BY id");
    assert.deepEqual(left.map((r) => r.id), ['fresh']);
    assert.equal((await t.db.query("SELECT 1 FROM oauth_records WHERE kind = 'ServerSetting'")).length, 1);
  });
});
