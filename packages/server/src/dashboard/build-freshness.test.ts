import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { dashboardBuildStale } from './build-freshness.ts';

/** A dashboard folder in a temp directory, with fixed modification times (no clock involved). */
describe('dashboardBuildStale', () => {
  let dir: string;
  const past = new Date('2026-01-01T00:00:00Z');
  const built = new Date('2026-01-02T00:00:00Z');
  const later = new Date('2026-01-03T00:00:00Z');

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dashboard-'));
    await mkdir(join(dir, 'src', 'routes'), { recursive: true });
    await mkdir(join(dir, 'dist'));
    for (const f of ['src/main.tsx', 'src/routes/home.tsx', 'index.html', 'vite.config.ts', 'package.json']) {
      await writeFile(join(dir, f), '');
      await utimes(join(dir, f), past, past);
    }
    await writeFile(join(dir, 'dist', 'index.html'), '');
    await utimes(join(dir, 'dist', 'index.html'), built, built);
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('is fresh when the build is newer than every input', async () => {
    assert.deepEqual(await dashboardBuildStale(dir), { stale: false, reason: 'up to date' });
  });

  it('is stale when there is no build', async () => {
    await rm(join(dir, 'dist'), { recursive: true });
    assert.deepEqual(await dashboardBuildStale(dir), { stale: true, reason: 'no build yet' });
  });

  for (const input of ['src/routes/home.tsx', 'index.html', 'vite.config.ts', 'package.json']) {
    it(`is stale when ${input} changed after the build`, async () => {
      await utimes(join(dir, input), later, later);
      const answer = await dashboardBuildStale(dir);
      assert.equal(answer.stale, true);
      assert.match(answer.reason, new RegExp(`${input.replace('.', '\\.')} changed since the last build`));
    });
  }

  it('is stale when a new source file appears after the build', async () => {
    await writeFile(join(dir, 'src', 'routes', 'settings.tsx'), '');
    await utimes(join(dir, 'src', 'routes', 'settings.tsx'), later, later);
    assert.equal((await dashboardBuildStale(dir)).stale, true);
  });

  it('ignores files outside the inputs (dist itself, README)', async () => {
    await writeFile(join(dir, 'README.md'), '');
    await utimes(join(dir, 'README.md'), later, later);
    await writeFile(join(dir, 'dist', 'extra.js'), '');
    await utimes(join(dir, 'dist', 'extra.js'), later, later);
    assert.equal((await dashboardBuildStale(dir)).stale, false);
  });
});
