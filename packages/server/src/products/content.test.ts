import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import type { Queryable } from '../db/client.ts';
import { loadCatalog } from '../catalog/load.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { runCommonRouteTests } from '../testing/auth-checks.ts';
import { createBrand, createKey } from '../testing/factories.ts';

/**
 * An item's content through the API (docs/files.md): a file streamed to the store, replaced with
 * a new version, downloaded back by the creator; a link instead; and everything refused that
 * should be, with nothing stored or changed.
 */
let t: TestApp;
before(async () => { t = await startTestApp({ files: { maxBytes: 1024 * 1024 } }); });
after(async () => { await t.close(); });

async function brandWithItem(db: Queryable, brandId?: string) {
  const id = brandId ?? (await createBrand(db)).id;
  const ids = await loadCatalog(db, id, { products: [{
    ref: 'course', type: 'course', title: 'Ink basics',
    items: [{ ref: 'workbook', type: 'pdf', title: 'Workbook' }, { ref: 'video', type: 'video', title: 'Lesson 1' }],
    tiers: [{ ref: 'std', name: 'Standard', price: { amount: 20, currency: 'USD' }, items: ['workbook', 'video'] }],
  }] });
  const key = await createKey(db, id, { mode: 'test' });
  return { brandId: id, productId: ids.course, itemId: ids.workbook, otherItemId: ids.video, key: key.key };
}

const fileUrl = (productId: string, itemId: string, name?: string) =>
  `/api/v1/products/${productId}/items/${itemId}/file${name ? `?filename=${encodeURIComponent(name)}` : ''}`;

async function storedFiles(): Promise<string[]> {
  const entries = await readdir(join(t.config.dataDir, 'files'), { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

function upload(key: string, productId: string, itemId: string, body: Buffer | Readable, type = 'application/pdf', name = 'workbook.pdf') {
  return t.request({ method: 'PUT', url: fileUrl(productId, itemId, name), key, headers: { 'content-type': type }, payload: body });
}

describe('PUT /products/{id}/items/{itemId}/file', () => {
  it('stores the streamed file and shows it as the item\'s content', async () => {
    const { productId, itemId, key } = await brandWithItem(t.db);
    const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(200_000)]);
    const res = await upload(key, productId, itemId, Readable.from([pdf.subarray(0, 50_000), pdf.subarray(50_000)]));
    assert.equal(res.statusCode, 200, res.body);
    const item = res.json().data;
    assert.equal(item.id, itemId);
    assert.deepEqual({ ...item.content, updatedAt: undefined }, {
      kind: 'file', fileName: 'workbook.pdf', contentType: 'application/pdf', size: pdf.length,
      sha256: createHash('sha256').update(pdf).digest('hex'), version: 1, updatedAt: undefined,
    });
    const product = (await t.request({ method: 'GET', url: `/api/v1/products/${productId}`, key })).json().data;
    assert.deepEqual(product.items.find((i: any) => i.id === itemId).content, item.content);
    assert.equal(product.items.find((i: any) => i.id !== itemId).content, undefined, 'the other item has none');

    const back = await t.request({ method: 'GET', url: fileUrl(productId, itemId), key });
    assert.equal(back.statusCode, 200);
    assert.equal(back.headers['content-type'], 'application/pdf');
    assert.match(String(back.headers['content-disposition']), /filename="workbook.pdf"/);
    assert.deepEqual(back.rawPayload, pdf);
  });

  it('replaces the file with a new version: the old bytes are gone, the new ones are served', async () => {
    const { productId, itemId, key } = await brandWithItem(t.db);
    await upload(key, productId, itemId, Buffer.from('%PDF first edition'));
    const before = await storedFiles();
    const res = await upload(key, productId, itemId, Buffer.from('%PDF second edition, with errata'), 'application/pdf', 'workbook-v2.pdf');
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data.content.version, 2);
    assert.equal(res.json().data.content.fileName, 'workbook-v2.pdf');
    const back = await t.request({ method: 'GET', url: fileUrl(productId, itemId), key });
    assert.equal(back.body, '%PDF second edition, with errata');
    const after = await storedFiles();
    assert.equal(after.length, before.length, 'the replaced file was removed from the store');
    assert.ok(!after.some((f) => before.includes(f) && f.includes(itemId)), 'under a new key');
  });

  it('refuses a file over FILE_MAX_BYTES with 413, keeping the item and storing nothing', async () => {
    const { productId, itemId, key } = await brandWithItem(t.db);
    await upload(key, productId, itemId, Buffer.from('%PDF small'));
    const before = await storedFiles();
    const big = Readable.from((function* () { for (let i = 0; i < 20; i++) yield Buffer.alloc(64 * 1024, 7); })());
    const res = await upload(key, productId, itemId, big, 'video/mp4', 'big.mp4');
    assert.equal(res.statusCode, 413, res.body);
    assert.equal(res.json().data.code, 'payload_too_large');
    assert.match(res.json().message, /1048576 bytes/);
    assert.deepEqual(await storedFiles(), before);
    const back = await t.request({ method: 'GET', url: fileUrl(productId, itemId), key });
    assert.equal(back.body, '%PDF small', 'the item keeps its file');
  });

  it('refuses a kind of file an item cannot hold (415), a missing type, and an empty body', async () => {
    const { productId, itemId, key } = await brandWithItem(t.db);
    const html = await upload(key, productId, itemId, Buffer.from('<script>alert(1)</script>'), 'text/html', 'x.html');
    assert.equal(html.statusCode, 415);
    assert.match(html.json().message, /text\/html is not a kind of file/);
    const none = await t.request({ method: 'PUT', url: fileUrl(productId, itemId), key, payload: Buffer.from('abc') });
    assert.equal(none.statusCode, 415);
    assert.match(none.json().message, /Content-Type/);
    const empty = await upload(key, productId, itemId, Buffer.alloc(0));
    assert.equal(empty.statusCode, 400);
    assert.match(empty.json().message, /`body`/);
    const badName = await upload(key, productId, itemId, Buffer.from('%PDF'), 'application/pdf', '///');
    assert.equal(badName.statusCode, 400);
    assert.match(badName.json().message, /`filename`/);
    assert.deepEqual(await storedFiles().then((f) => f.filter((p) => p.includes(itemId))), []);
  });

  it('answers 404 for an unknown item, an item of another product, and another brand\'s item', async () => {
    const mine = await brandWithItem(t.db);
    const theirs = await brandWithItem(t.db);
    for (const [p, i] of [[mine.productId, 'item_nope'], [theirs.productId, theirs.itemId], [mine.productId, theirs.itemId]]) {
      const res = await upload(mine.key, p, i, Buffer.from('%PDF'));
      assert.equal(res.statusCode, 404, `${p} ${i}`);
      assert.equal(res.json().data.code, 'not_found');
    }
  });

  it('needs a key with products:write', async () => {
    const { brandId, productId, itemId } = await brandWithItem(t.db);
    const none = await t.request({ method: 'PUT', url: fileUrl(productId, itemId), headers: { 'content-type': 'application/pdf' }, payload: Buffer.from('%PDF') });
    assert.equal(none.statusCode, 401);
    const reader = await createKey(t.db, brandId, { scopes: ['products:read'] });
    const res = await upload(reader.key, productId, itemId, Buffer.from('%PDF'));
    assert.equal(res.statusCode, 403);
    assert.match(res.json().message, /products:write/);
  });
});

describe('PUT and DELETE /products/{id}/items/{itemId}/content', () => {
  it('sets a link in place of a file, then removes it', async () => {
    const { productId, itemId, key } = await brandWithItem(t.db);
    await upload(key, productId, itemId, Buffer.from('%PDF'));
    const set = await t.request({ method: 'PUT', url: `/api/v1/products/${productId}/items/${itemId}/content`, key, payload: { url: 'https://video.example.com/ink/1' } });
    assert.equal(set.statusCode, 200, set.body);
    assert.deepEqual(set.json().data.content, { kind: 'url', url: 'https://video.example.com/ink/1' });
    assert.deepEqual(await storedFiles().then((f) => f.filter((p) => p.includes(itemId))), [], 'the file it had is removed');
    assert.equal((await t.request({ method: 'GET', url: fileUrl(productId, itemId), key })).statusCode, 404);
    const removed = await t.request({ method: 'DELETE', url: `/api/v1/products/${productId}/items/${itemId}/content`, key });
    assert.equal(removed.statusCode, 200);
    assert.equal(removed.json().data.content, undefined);
  });

  it('refuses a link that is not http(s), naming the field', async () => {
    const { productId, itemId, key } = await brandWithItem(t.db);
    for (const url of ['javascript:alert(1)', 'not a url', 'ftp://files.example.com/a.pdf']) {
      const res = await t.request({ method: 'PUT', url: `/api/v1/products/${productId}/items/${itemId}/content`, key, payload: { url } });
      assert.equal(res.statusCode, 400, url);
      assert.match(res.json().message, /`url`/);
    }
  });
});

describe('common route checks', () => {
  const setup = async ({ t, brandId }: { t: TestApp; brandId: string }) => {
    const { productId, itemId } = await brandWithItem(t.db, brandId);
    return { productId, itemId };
  };
  runCommonRouteTests('PUT /products/{id}/items/{itemId}/file', {
    method: 'PUT', scope: 'products:write', foreign: 404, modeScoped: false,
    async setup(ctx) {
      const { productId, itemId } = await setup(ctx);
      return { url: fileUrl(productId, itemId, 'a.pdf'), body: Buffer.from('%PDF-1.4 test'), headers: { 'content-type': 'application/pdf' }, marker: itemId };
    },
  }, () => t);
  runCommonRouteTests('PUT /products/{id}/items/{itemId}/content', {
    method: 'PUT', scope: 'products:write', foreign: 404, modeScoped: false,
    async setup(ctx) {
      const { productId, itemId } = await setup(ctx);
      return { url: `/api/v1/products/${productId}/items/${itemId}/content`, body: { url: 'https://example.com/a' }, marker: itemId };
    },
  }, () => t);
  runCommonRouteTests('GET /products/{id}/items/{itemId}/file', {
    method: 'GET', scope: 'products:read', foreign: 404, modeScoped: false, document: true,
    async setup(ctx) {
      const { productId, itemId } = await setup(ctx);
      const key = await createKey(ctx.t.db, ctx.brandId);
      await upload(key.key, productId, itemId, Buffer.from('%PDF marker-bytes'));
      return { url: fileUrl(productId, itemId), marker: 'marker-bytes' };
    },
  }, () => t);
});
