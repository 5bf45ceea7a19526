import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli, startServerProcess } from '../testing/processes.ts';
import { bookShipping, usAddress } from '../testing/shipping.ts';
import { migratedCliStore } from '../testing/cli-store.ts';

/**
 * `npm run cli -- order …` as an operator runs it: a real CLI process and a real server process on
 * their own database. The product comes from a catalog file with shipping settings; a buyer pays
 * through the API with the sandbox card; the CLI lists the queue and ships the order.
 */
let env: Record<string, string>;
let cleanup: () => Promise<void>;
before(async () => {
  ({ env, cleanup } = await migratedCliStore('cli-orders'));
});
after(async () => { await cleanup(); });

describe('order commands of the admin CLI', () => {
  it('lists the paid orders still to ship, ships one with its tracking, and refuses an illegal step in words', async () => {
    const server = await startServerProcess(env);
    const dir = await mkdtemp(join(tmpdir(), 'catalog-'));
    try {
      const brandId = (await runCli(['brand', 'create', '--name', 'Print shop'], env)).json().id as string;
      const file = join(dir, 'catalog.json');
      await writeFile(file, JSON.stringify({
        products: [{ ref: 'book', type: 'physical', title: 'Printed sketchbook', tiers: [{ ref: 'hardcover', name: 'Hardcover', price: { amount: 20, currency: 'USD' } }], shipping: bookShipping() }],
      }));
      const loaded = await runCli(['catalog', 'load', '--brand', brandId, file], env);
      assert.equal(loaded.code, 0, loaded.stderr);
      const { ids } = loaded.json();
      const key = (await runCli(['key', 'create', '--brand', brandId, '--mode', 'test'], env)).json().key as string;
      const call = async (path: string, body: object) => {
        const res = await fetch(`${server.url}/api/v1${path}`, { method: 'POST', headers: { 'x-service-api': key, 'content-type': 'application/json' }, body: JSON.stringify(body) });
        const json = (await res.json()) as any;
        assert.equal(res.status, 200, JSON.stringify(json));
        return json.data;
      };
      const link = await call('/payment-links', {
        items: [{ id: ids.book, plan: ids.hardcover, type: 'physical' }], form: { formData: { fullName: 'Ada Lovelace', email: 'ada@example.com' } },
        deliveryLocation: 'us', address: usAddress,
      });
      const paid = await call(`/test/payment-links/${link.id}/pay`, { card: '4242 4242 4242 4242' });
      assert.equal(paid.amount, 25);

      const queue = await runCli(['order', 'list', '--brand', brandId, '--mode', 'test'], env);
      assert.equal(queue.code, 0, queue.stderr);
      assert.deepEqual(queue.json().items.map((x: { txref: string }) => x.txref), [paid.txref]);
      assert.equal(queue.json().items[0].shipping.address.city, 'San Francisco');

      const wrong = await runCli(['order', 'fulfil', paid.txref, '--brand', brandId, '--mode', 'test', '--ready-for-pickup'], env);
      assert.equal(wrong.code, 1);
      assert.match(wrong.stderr, /delivered to an address/);
      const noTracking = await runCli(['order', 'fulfil', paid.txref, '--brand', brandId, '--mode', 'test', '--shipped', '--carrier', 'USPS'], env);
      assert.equal(noTracking.code, 1);
      assert.match(noTracking.stderr, /trackingNumber/);
      const shipped = await runCli(['order', 'fulfil', paid.txref, '--brand', brandId, '--mode', 'test', '--shipped', '--carrier', 'USPS', '--tracking', '9400111899223197428490'], env);
      assert.equal(shipped.code, 0, shipped.stderr);
      assert.equal(shipped.json().fulfilment.status, 'shipped');
      assert.deepEqual((await runCli(['order', 'list', '--brand', brandId, '--mode', 'test'], env)).json().items, []);
    } finally {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
