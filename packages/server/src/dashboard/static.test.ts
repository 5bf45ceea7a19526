import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../app.ts';
import type { App } from '../http/app-type.ts';
import { openTestDb, type TestDb } from '../testing/db.ts';
import { testDeps } from '../testing/app.ts';

// A stand-in build (index.html and one hashed asset) so these tests do not depend on Vite having run.
const indexHtml = '<!doctype html><html><head><script type="module" src="/dashboard/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>';

let testDb: TestDb;
let dir: string;
let built: App;
let missing: App;
before(async () => {
  testDb = await openTestDb();
  dir = await mkdtemp(join(tmpdir(), 'dashboard-'));
  await mkdir(join(dir, 'dist', 'assets'), { recursive: true });
  await writeFile(join(dir, 'dist', 'index.html'), indexHtml);
  await writeFile(join(dir, 'dist', 'assets', 'index-abc123.js'), 'console.log("dashboard")');
  built = await buildApp(testDeps(testDb.db, { dashboardDir: join(dir, 'dist') }));
  missing = await buildApp(testDeps(testDb.db, { dashboardDir: join(dir, 'no-build-here') }));
});
after(async () => {
  await built.close();
  await missing.close();
  await testDb.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the dashboard build under /dashboard', () => {
  it('serves index.html for every page path, never cached, with a CSP that allows no inline script and no framing', async () => {
    for (const url of ['/dashboard', '/dashboard/', '/dashboard/developers/webhooks/we_123', '/dashboard/signin?returnTo=%2Fdashboard%2Fteam']) {
      const res = await built.inject({ url });
      assert.equal(res.statusCode, 200, url);
      assert.equal(res.body, indexHtml, url);
      assert.match(String(res.headers['content-type']), /text\/html/);
      assert.equal(res.headers['cache-control'], 'no-cache');
      assert.equal(res.headers['x-frame-options'], 'DENY');
      const csp = String(res.headers['content-security-policy']);
      assert.match(csp, /script-src 'self'(;|$)/);
      assert.match(csp, /frame-ancestors 'none'/);
      assert.doesNotMatch(csp, /unsafe-eval/);
    }
  });

  it('serves hashed assets as immutable and a missing asset as a 404', async () => {
    const asset = await built.inject({ url: '/dashboard/assets/index-abc123.js' });
    assert.equal(asset.statusCode, 200);
    assert.match(String(asset.headers['content-type']), /javascript/);
    assert.equal(asset.headers['cache-control'], 'public, max-age=31536000, immutable');
    const gone = await built.inject({ url: '/dashboard/assets/index-old999.js' });
    assert.equal(gone.statusCode, 404);
    assert.equal(gone.json().data.code, 'route_not_found');
  });

  it('answers an unknown /dashboard/api path with a 404 envelope, not the app', async () => {
    for (const method of ['GET', 'POST'] as const) {
      const res = await built.inject({ method, url: '/dashboard/api/unknown' });
      assert.equal(res.statusCode, 404);
      assert.match(String(res.headers['content-type']), /application\/json/);
      const body = res.json();
      assert.equal(body.status, 'error');
      assert.equal(body.data.code, 'route_not_found');
    }
  });

  it('says how to build the dashboard when the build is missing, instead of failing', async () => {
    for (const url of ['/dashboard', '/dashboard/developers/api-keys']) {
      const res = await missing.inject({ url });
      assert.equal(res.statusCode, 503);
      assert.match(String(res.headers['content-type']), /text\/html/);
      assert.match(res.body, /npm ci/);
    }
    const api = await missing.inject({ url: '/dashboard/api/unknown' });
    assert.equal(api.statusCode, 404);
  });
});
