import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, resolve, dirname } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCommand } from '../cli/commands.ts';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { createBrand, createKey } from '../testing/factories.ts';
import { loadCatalog } from './load.ts';
import { catalogChannel, catalogVersion } from '../catalog-cache/version.ts';

/**
 * Issue 14's invalidation hook: every catalog write bumps the brand's catalog version and NOTIFYs
 * its id, in the write's transaction, through catalog-cache/version.ts catalogChanged(). These tests
 * fail when a new write path leaves it out: statically (SQL that writes the catalog lives in the
 * two catalog repositories only, and every module that calls their writing functions calls
 * catalogChanged, or is only used by modules that do), and by running every catalog write route
 * of the OpenAPI document, the CLI's catalog load and seed.
 */

const src = resolve(import.meta.dirname, '..');
const catalogTables = ['products', 'tiers', 'items', 'checkout_fields', 'hubs'];
const writesCatalog = new RegExp(`\\b(?:INSERT\\s+INTO|UPDATE|DELETE\\s+FROM|TRUNCATE(?:\\s+TABLE)?)\\s+(?:${catalogTables.join('|')})\\b`, 'i');
const repositories = ['products/repository.ts', 'hubs/repository.ts'];

async function sourceFiles(dir = src): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await sourceFiles(full)));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) out.push(full);
  }
  return out;
}

/** The exported functions of a repository whose body writes a catalog table. */
function writingFunctions(source: string): string[] {
  const parts = source.split(/(?=^export (?:async )?function )/m);
  return parts.flatMap((part) => {
    const name = /^export (?:async )?function (\w+)/.exec(part)?.[1];
    return name && writesCatalog.test(part) ? [name] : [];
  });
}

/** The modules a file imports, as paths relative to src, with the names it takes from each. */
function imports(file: string, source: string): { module: string; names: string[]; namespace?: string }[] {
  const out: { module: string; names: string[]; namespace?: string }[] = [];
  for (const m of source.matchAll(/^import\s+(?!type\b)([\s\S]*?)\s+from\s+'(\.[^']+)';/gm)) {
    const module = relative(src, resolve(dirname(file), m[2]));
    const clause = m[1];
    const namespace = /\*\s+as\s+(\w+)/.exec(clause)?.[1];
    const names = [...(/\{([\s\S]*)\}/.exec(clause)?.[1] ?? '').split(',')]
      .map((n) => n.trim()).filter((n) => n && !n.startsWith('type ')).map((n) => n.split(/\s+as\s+/)[0]);
    out.push({ module, names, ...(namespace ? { namespace } : {}) });
  }
  return out;
}

describe('the catalog version: static checks', () => {
  it('keeps SQL that writes the catalog in the products and hubs repositories', async () => {
    const offenders: string[] = [];
    for (const file of await sourceFiles()) {
      const rel = relative(src, file);
      if (repositories.includes(rel)) continue;
      if (writesCatalog.test(await readFile(file, 'utf8'))) offenders.push(rel);
    }
    assert.deepEqual(offenders, [], 'write the catalog through products/repository.ts or hubs/repository.ts, and call catalogChanged()');
  });

  it('has every caller of a catalog-writing repository function bump the version, or be used only by callers that do', async () => {
    const writers = new Map<string, Set<string>>();
    for (const repo of repositories) writers.set(repo, new Set(writingFunctions(await readFile(join(src, repo), 'utf8'))));
    assert.ok(writers.get('products/repository.ts')!.has('insertProduct') && writers.get('hubs/repository.ts')!.has('insertHub'), 'the scan finds the writers');

    const files = new Map<string, string>();
    for (const file of await sourceFiles()) files.set(relative(src, file), await readFile(file, 'utf8'));
    const importersOf = (module: string) => [...files].filter(([file, source]) => imports(join(src, file), source).some((i) => i.module === module)).map(([f]) => f);
    const bumps = (file: string) => /\bcatalogChanged\(/.test(files.get(file)!);
    const covered = (file: string, seen: Set<string>): boolean => {
      if (bumps(file)) return true;
      if (seen.has(file)) return false;
      seen.add(file);
      const users = importersOf(file);
      return users.length > 0 && users.every((u) => covered(u, seen));
    };

    const uncovered: string[] = [];
    let callers = 0;
    for (const [file, source] of files) {
      if (repositories.includes(file)) continue;
      const calls = imports(join(src, file), source).some((i) => {
        const names = writers.get(i.module);
        if (!names) return false;
        return i.names.some((n) => names.has(n)) || (i.namespace !== undefined && [...names].some((n) => source.includes(`${i.namespace}.${n}(`)));
      });
      if (!calls) continue;
      callers++;
      if (!covered(file, new Set())) uncovered.push(file);
    }
    assert.ok(callers >= 3, 'the scan finds the write paths');
    assert.deepEqual(uncovered, [], 'these write the catalog without catalogChanged(tx, brandId) on their path');
  });
});

describe('the catalog version: every write path bumps it and notifies', () => {
  let t: TestApp;
  before(async () => { t = await startTestApp({ files: { maxBytes: 1024 * 1024 } }); });
  after(async () => { await t.close(); });

  /** Runs `write`; asserts it bumped the brand's version by exactly one and NOTIFYd the brand id. */
  async function expectBump(brandId: string, write: () => Promise<unknown>) {
    const heard: string[] = [];
    const stop = await t.db.listen(catalogChannel, (payload) => heard.push(payload));
    try {
      const before = await catalogVersion(t.db, brandId);
      await write();
      assert.equal(await catalogVersion(t.db, brandId), before + 1, 'the version moved by one');
      for (let i = 0; i < 200 && !heard.includes(brandId); i++) await new Promise((r) => setTimeout(r, 25));
      assert.ok(heard.includes(brandId), 'the brand id was notified');
    } finally {
      await stop();
    }
  }

  const tier = { name: 'Free', price: { amount: 0, currency: 'USD' } };
  const withItem = async (brandId: string) => {
    const ids = await loadCatalog(t.db, brandId, { products: [{
      ref: 'p', type: 'digital', title: 'Guide', items: [{ ref: 'i', type: 'pdf', title: 'Workbook' }], tiers: [{ ref: 't', ...tier, items: ['i'] }],
    }] });
    return `/api/v1/products/${ids.p}/items/${ids.i}`;
  };
  const cases: Record<string, (ctx: { brandId: string; key: string }) => Promise<{ url: string; body: unknown; headers?: Record<string, string> }>> = {
    'post /products': async () => ({ url: '/api/v1/products', body: { type: 'digital', title: 'Guide', tiers: [tier] } }),
    'patch /products/{id}': async ({ brandId }) => {
      const ids = await loadCatalog(t.db, brandId, { products: [{ ref: 'p', type: 'digital', title: 'Guide', tiers: [{ ref: 't', ...tier }] }] });
      return { url: `/api/v1/products/${ids.p}`, body: { title: 'Guide 2', tiers: [{ id: ids.t, ...tier }, tier] } };
    },
    'post /hubs': async () => ({ url: '/api/v1/hubs', body: { name: 'Club', tiers: [tier] } }),
    // An item's content shows in the product's answer (docs/files.md).
    'put /products/{id}/items/{itemId}/file': async ({ brandId }) => ({
      url: `${await withItem(brandId)}/file?filename=workbook.pdf`, body: Buffer.from('%PDF-1.4 workbook'), headers: { 'content-type': 'application/pdf' },
    }),
    'put /products/{id}/items/{itemId}/content': async ({ brandId }) => ({ url: `${await withItem(brandId)}/content`, body: { url: 'https://video.example.com/ink/1' } }),
    'delete /products/{id}/items/{itemId}/content': async ({ brandId, key }) => {
      const item = await withItem(brandId);
      await t.request({ method: 'PUT', url: `${item}/content`, key, payload: { url: 'https://video.example.com/ink/1' } });
      return { url: `${item}/content`, body: undefined };
    },
    // The brand profile is not the catalog, but products' url names the slug (docs/storefront.md).
    'patch /brand': async () => ({ url: '/api/v1/brand', body: { displayName: 'Renamed' } }),
    'patch /hubs/{id}': async ({ brandId }) => {
      const ids = await loadCatalog(t.db, brandId, { hubs: [{ ref: 'h', name: 'Club', tiers: [{ ref: 't', ...tier }] }] });
      return { url: `/api/v1/hubs/${ids.h}`, body: { name: 'Club 2' } };
    },
  };

  it('covers every catalog write route of the OpenAPI document, each bumping once', async () => {
    const doc = (await t.request({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const writes = Object.entries(doc.paths as Record<string, Record<string, { description?: string }>>).flatMap(([path, methods]) =>
      Object.entries(methods).filter(([method, op]) => method !== 'get' && /Scope: `products:write`/.test(op.description ?? '')).map(([method]) => `${method} ${path}`))
      // Coupons and affiliates are managed with products:write but are in no catalog answer.
      .filter((route) => !/ \/(coupons|affiliates)\b/.test(route));
    assert.deepEqual(writes.sort(), Object.keys(cases).sort(), 'a new catalog write route needs a case here');
    for (const route of writes) {
      const brand = await createBrand(t.db);
      const key = (await createKey(t.db, brand.id)).key;
      const req = await cases[route]({ brandId: brand.id, key });
      await expectBump(brand.id, async () => {
        const res = await t.request({ method: route.split(' ')[0].toUpperCase() as 'POST', url: req.url, key, headers: req.headers, payload: req.body as object });
        assert.equal(res.statusCode, 200, `${route}: ${res.body}`);
      });
    }
  });

  it('does not move for a refused write', async () => {
    const brand = await createBrand(t.db);
    const key = (await createKey(t.db, brand.id)).key;
    await loadCatalog(t.db, brand.id, { hubs: [] });
    const before = await catalogVersion(t.db, brand.id);
    const res = await t.request({ method: 'POST', url: '/api/v1/products', key, payload: { type: 'digital', title: 'Bad', tiers: [{ ...tier, price: { amount: 0.001, currency: 'USD' } }] } });
    assert.equal(res.statusCode, 400);
    assert.equal(await catalogVersion(t.db, brand.id), before);
  });

  it('bumps on the CLI\'s catalog load and on seed --demo', async () => {
    const brand = await createBrand(t.db);
    await expectBump(brand.id, () => runCommand(t.db, t.keyCache, { command: 'catalog load', brandId: brand.id, catalog: { hubs: [{ ref: 'h', name: 'Club', tiers: [{ ref: 't', ...tier }] }] } }, t.config));
    const seeded = await runCommand(t.db, t.keyCache, { command: 'seed demo' }, t.config) as { brand: { id: string } };
    assert.equal(await catalogVersion(t.db, seeded.brand.id), 1);
  });
});
