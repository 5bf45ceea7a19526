import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { createBrand, createKey, createTransaction } from '../testing/factories.ts';

let t: TestApp;
before(async () => { t = await startTestApp(); });
after(async () => { await t.close(); });

async function brandWithTransactions(n: number) {
  const brand = await createBrand(t.db);
  const key = await createKey(t.db, brand.id);
  const txrefs: string[] = [];
  for (let i = 0; i < n; i++) txrefs.push((await createTransaction(t.db, { brandId: brand.id })).txref);
  return { brand, key: key.key, txrefs };
}

const page = (key: string, query: string) => t.request({ method: 'GET', url: `/api/v1/transactions${query}`, key });

describe('list paging', () => {
  it('defaults to 20 items and walks every row exactly once', async () => {
    const { key, txrefs } = await brandWithTransactions(45);
    const first = (await page(key, '')).json().data;
    assert.equal(first.items.length, 20);
    assert.equal(first.hasMore, true);
    const seen: string[] = [];
    let cursor = '';
    do {
      const data = (await page(key, `?limit=7${cursor ? `&cursor=${cursor}` : ''}`)).json().data;
      seen.push(...data.items.map((x: any) => x.txref));
      cursor = data.nextCursor;
      assert.equal(data.hasMore, cursor !== '');
    } while (cursor);
    assert.equal(seen.length, 45);
    assert.deepEqual(new Set(seen), new Set(txrefs));
  });

  it('sees every row that existed at the start exactly once while rows are inserted', async () => {
    const { brand, key, txrefs } = await brandWithTransactions(30);
    const seen: string[] = [];
    let cursor = '';
    do {
      const data = (await page(key, `?limit=4${cursor ? `&cursor=${cursor}` : ''}`)).json().data;
      seen.push(...data.items.map((x: any) => x.txref));
      cursor = data.nextCursor;
      await createTransaction(t.db, { brandId: brand.id });
      await createTransaction(t.db, { brandId: brand.id });
    } while (cursor);
    for (const txref of txrefs) assert.equal(seen.filter((s) => s === txref).length, 1, `${txref} seen once`);
    assert.equal(new Set(seen).size, seen.length, 'no row repeats');
  });

  for (const bad of ['0', '101', '-1', '2.5', 'abc', '']) {
    it(`refuses limit=${JSON.stringify(bad)} with validation_failed naming limit`, async () => {
      const { key } = await brandWithTransactions(0);
      const res = await page(key, `?limit=${bad}`);
      assert.equal(res.statusCode, 400);
      const body = res.json();
      assert.equal(body.data.code, 'validation_failed');
      assert.match(body.message, /limit/);
    });
  }

  it('accepts limit=100', async () => {
    const { key } = await brandWithTransactions(1);
    assert.equal((await page(key, '?limit=100')).statusCode, 200);
  });

  for (const [label, cursor] of [
    ['garbage', 'not-a-cursor'],
    ['base64 of garbage', Buffer.from('hello').toString('base64url')],
    ['a cursor of another list', Buffer.from(JSON.stringify(['v1', 'products', Date.now(), 'prod_x'])).toString('base64url')],
    ['a forged timestamp', Buffer.from(JSON.stringify(['v1', 'transactions', 'soon', 'txn_x'])).toString('base64url')],
    ['a timestamp past what a Date holds', Buffer.from(JSON.stringify(['v1', 'transactions', 9e15, 'txn_x'])).toString('base64url')],
    ['a timestamp in the year 10000', Buffer.from(JSON.stringify(['v1', 'transactions', Date.UTC(10000, 0, 1), 'txn_x'])).toString('base64url')],
    ['a timestamp before the year 2000', Buffer.from(JSON.stringify(['v1', 'transactions', 1, 'txn_x'])).toString('base64url')],
  ]) {
    it(`refuses ${label} as a cursor, naming cursor`, async () => {
      const { key } = await brandWithTransactions(0);
      const res = await page(key, `?cursor=${cursor}`);
      assert.equal(res.statusCode, 400);
      assert.equal(res.json().data.code, 'validation_failed');
      assert.match(res.json().message, /cursor/);
    });
  }
});
