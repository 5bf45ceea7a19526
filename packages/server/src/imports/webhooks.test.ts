import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadCatalog } from '../catalog/load.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { createBrand, createKey, createMembership } from '../testing/factories.ts';
import { registerEndpoint, startReceiver, type Receiver } from '../testing/receiver.ts';
import { hubWithFreeTier, people } from './test-support.ts';

let t: TestApp;
let rx: Receiver;
before(async () => {
  t = await startTestApp({ worker: true });
  rx = await startReceiver();
});
after(async () => {
  await t.close();
  await rx.close();
});

async function importAndWait(key: string, url: string, records: unknown[]) {
  const res = await t.request({ method: 'POST', url, key, payload: { records } });
  assert.equal(res.statusCode, 202, res.body);
  const { importID } = res.json().data;
  const deadline = Date.now() + 10_000;
  for (;;) {
    const status = (await t.request({ method: 'GET', url: `/api/v1/imports/${importID}`, key })).json().data;
    if (status.status === 'completed') return status;
    assert.ok(Date.now() < deadline, 'the import completed');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('member.joined from imports', () => {
  it('arrives signed at a real receiver once per new member, and not again on re-import', async () => {
    const brand = await createBrand(t.db);
    const ids = await loadCatalog(t.db, brand.id, hubWithFreeTier);
    const key = (await createKey(t.db, brand.id, { mode: 'test' })).key;
    const ep = await registerEndpoint(t, key, rx.url, ['member.joined']);
    rx.secret = ep.signingSecret;
    const url = `/api/v1/hubs/${ids.h}/members/import`;
    await createMembership(t.db, { brandId: brand.id, hubId: ids.h, email: 'person2@example.com' });

    const first = await importAndWait(key, url, [...people(5), { fullName: 'Dup', email: 'PERSON0@EXAMPLE.COM' }]);
    assert.deepEqual([first.created, first.alreadyPresent, first.duplicates], [4, 1, 1]);
    const got = await rx.waitFor(4);
    assert.ok(got.every((d) => d.verified), 'X-Service-Signature and webhook-signature match the raw body');
    assert.ok(got.every((d) => d.json.type === 'member.joined'));
    assert.deepEqual(got.map((d) => d.json.data.email).sort(), ['person0@example.com', 'person1@example.com', 'person3@example.com', 'person4@example.com']);
    assert.equal(new Set(got.map((d) => d.json.id)).size, 4, 'four distinct events');
    const members = (await t.request({ method: 'GET', url: `/api/v1/hubs/${ids.h}/members`, key })).json().data.items;
    for (const d of got) {
      assert.deepEqual(d.json.data, members.find((m: any) => m.membershipId === d.json.data.membershipId), 'data is the Membership record');
    }

    const again = await importAndWait(key, url, people(5).map((p) => ({ ...p, email: p.email.toUpperCase() })));
    assert.deepEqual([again.created, again.alreadyPresent], [0, 5]);
    // Give a stray delivery time to show up before concluding none was sent.
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(rx.received.length, 4, 'a re-import sends nothing');
    const [{ n }] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_deliveries WHERE brand_id = $1', [brand.id]);
    assert.equal(n, 4);
  });
});
