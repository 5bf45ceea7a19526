import { readdir, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';

/**
 * Whether the dashboard's build (`dist/index.html`) is missing or older than any of its inputs:
 * every file under `src/`, `index.html`, `vite.config.ts` and `package.json`. `npm start` asks
 * this (scripts/dashboard-build.ts) so a checkout edited or pulled since `npm ci` never serves a
 * stale dashboard. Modification times are enough: Vite writes index.html after reading them all.
 */
export async function dashboardBuildStale(dashboardDir: string): Promise<{ stale: boolean; reason: string }> {
  const built = await mtime(join(dashboardDir, 'dist', 'index.html'));
  if (built === undefined) return { stale: true, reason: 'no build yet' };
  const inputs = [
    ...(await filesUnder(join(dashboardDir, 'src'))),
    ...['index.html', 'vite.config.ts', 'package.json'].map((f) => join(dashboardDir, f)),
  ];
  for (const file of inputs) {
    const changed = await mtime(file);
    if (changed !== undefined && changed > built) return { stale: true, reason: `${relative(dashboardDir, file)} changed since the last build` };
  }
  return { stale: false, reason: 'up to date' };
}

async function mtime(path: string): Promise<number | undefined> {
  try {
    return (await stat(path)).mtimeMs;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

async function filesUnder(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true, recursive: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}
