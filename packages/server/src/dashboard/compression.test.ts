import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { courseBody, createLink } from '../testing/checkout-fixtures.ts';
import { defaultDashboardDir } from './static.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { createBrandWithCatalog } from '../testing/factories.ts';

/**
 * What a browser is sent: the dashboard's script (compressed at build time), the API
 * reference's 4.9 MB script (compressed once per process) and a checkout page (compressed as it
 * is sent), each in brotli and in gzip, decompressing to exactly the file; the JSON API as it was.
 * The sizes these tests print are the ones in docs/performance.md.
 */

let t: TestApp;
before(async () => { t = await startTestApp(); });
after(async () => { await t.close(); });

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

function decode(encoding: string | undefined, bytes: Buffer): Buffer {
  if (encoding === 'br') return brotliDecompressSync(bytes);
  if (encoding === 'gzip') return gunzipSync(bytes);
  return bytes;
}

/** Fetches url plain, in brotli and in gzip; checks each answer's encoding and that all three are the same bytes as `file`. */
async function checkEncodings(url: string, file: Buffer, maxRatio = 1 / 3) {
  const sizes: Record<string, number> = {};
  for (const encoding of ['identity', 'br', 'gzip']) {
    const res = await get(url, encoding === 'identity' ? {} : { 'accept-encoding': encoding });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-encoding'], encoding === 'identity' ? undefined : encoding, `${url} in ${encoding}`);
    if (encoding !== 'identity') assert.match(String(res.headers.vary), /accept-encoding/i);
    assert.ok(decode(res.headers['content-encoding'] as string | undefined, res.rawPayload).equals(file), `${url} in ${encoding} decompresses to the file`);
    sizes[encoding] = res.rawPayload.length;
  }
  assert.ok(sizes.br < sizes.identity * maxRatio && sizes.gzip < sizes.identity * maxRatio, `compressed to under ${maxRatio} of the size: ${JSON.stringify(sizes)}`);
  return sizes;
}

describe('compressed pages and assets', () => {
  it('sends the dashboard\'s main script in brotli or gzip, made at build time, cached for a year, and its styles inside the compressed page', async (c) => {
    const indexPath = join(defaultDashboardDir, 'index.html');
    if (!existsSync(indexPath)) {
      c.skip('the dashboard is not built: run npm ci (or npm run build -w packages/dashboard)');
      return;
    }
    const html = await readFile(indexPath, 'utf8');
    const script = /<script[^>]+src="(\/dashboard\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    assert.ok(script, 'index.html names its script');
    // The stylesheet is inside index.html (a linked one held the first paint back a round trip,
    // vite.config.ts), so it travels compressed with the page.
    assert.doesNotMatch(html, /<link[^>]+rel="stylesheet"/);
    assert.match(html, /<style>[^<]*tailwindcss[^<]*\.bg-background/);
    const page = await get('/dashboard/', { 'accept-encoding': 'gzip, deflate, br' });
    assert.ok(['br', 'gzip'].includes(String(page.headers['content-encoding'])), 'the page and its inline styles are compressed');
    for (const url of [script]) {
      const path = join(defaultDashboardDir, url.slice('/dashboard/'.length));
      if (!existsSync(`${path}.br`)) {
        c.skip('the dashboard build has no precompressed files: rebuild it (npm run build -w packages/dashboard)');
        return;
      }
      const sizes = await checkEncodings(url, await readFile(path));
      c.diagnostic(`${url}: ${JSON.stringify(sizes)}`);
      const res = await get(url, { 'accept-encoding': 'gzip, deflate, br' });
      assert.equal(res.headers['content-encoding'], 'br', 'a browser that accepts both gets brotli');
      assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
      // The precompressed file is sent as it is: its bytes, not a compression of the file made now.
      assert.ok(res.rawPayload.equals(await readFile(`${path}.br`)));
    }
  });

  it('sends the API reference\'s script compressed, with an ETag that answers 304', async (c) => {
    const page = await get('/docs');
    const src = /<script src="([^"]+)"><\/script>/.exec(page.body)?.[1];
    assert.ok(src, 'the /docs page loads its script');
    const plain = await get(src);
    assert.equal(plain.statusCode, 200);
    assert.ok(plain.rawPayload.length > 1_000_000, 'the whole Scalar bundle');
    // brotli is made in the background after gzip: wait until it is ready.
    for (let i = 0; i < 400 && (await get(src, { 'accept-encoding': 'br' })).headers['content-encoding'] !== 'br'; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const sizes = await checkEncodings(src, plain.rawPayload);
    c.diagnostic(`${src}: ${JSON.stringify(sizes)}`);
    const etag = String(plain.headers.etag);
    const again = await get(src, { 'if-none-match': etag, 'accept-encoding': 'br' });
    assert.equal(again.statusCode, 304);
    assert.equal(again.rawPayload.length, 0);
  });

  it('compresses a checkout page with its stylesheet, and leaves the JSON API as it was', async (c) => {
    const { ids, testKey } = await createBrandWithCatalog(t.db);
    const link = await createLink(t, testKey, courseBody(ids));
    const plain = await get(link.path);
    assert.equal(plain.statusCode, 200);
    assert.match(plain.body, /<style>/);
    // A page of under 3 kB: its markup and stylesheet shrink by half.
    const sizes = await checkEncodings(link.path, plain.rawPayload, 0.55);
    c.diagnostic(`checkout page: ${JSON.stringify(sizes)}`);

    const api = await t.app.inject({ method: 'GET', url: '/api/v1/products?limit=100', headers: { 'x-service-api': testKey, 'accept-encoding': 'br, gzip' } });
    assert.equal(api.statusCode, 200);
    assert.ok(api.rawPayload.length > 1024, 'big enough that it would have been compressed');
    assert.equal(api.headers['content-encoding'], undefined);
    assert.equal(api.json().status, 'success');
  });
});
