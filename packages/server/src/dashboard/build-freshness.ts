import { readdir, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';

/**
 * Whether the dashboard's build (`dist/index.html`) is missing or older than any of its inputs:
 * every file under `src/`, `index.html`, `vite.config.ts` and `package.json`. `npm start` asks
 * this (scripts/dashboard-build.ts) so a checkout edited or pulled since `npm ci` never serves a
 * stale dashboard. Modification times are enough: Vite writes index.html after reading them all.
 */
export async function dashboardBuildStale(dashboardDir: string): Promise<{ stale: boolean; reason: string }> {
  const inputs = [
    ...(await filesUnder(join(dashboardDir, 'src'))),
    ...['index.html', 'vite.config.ts', 'package.json'].map((f) => join(dashboardDir, f)),
  ];
  const reason = await builtBefore(join(dashboardDir, 'dist', 'index.html'), inputs, dashboardDir);
  return reason ? { stale: true, reason } : { stale: false, reason: 'up to date' };
}

/**
 * Why a build (its file written last) is stale: missing, or older than one of its inputs (named
 * relative to base); undefined when it is fresh. The server's bundle is checked the same way
 * (scripts/server-build.ts).
 */
export async function builtBefore(builtFile: string, inputs: string[], base: string): Promise<string | undefined> {
  const built = await mtime(builtFile);
  if (built === undefined) return 'no build yet';
  for (const file of inputs) {
    const changed = await mtime(file);
    if (changed !== undefined && changed > built) return `${relative(base, file)} changed since the last build`;
  }
  return undefined;
}

async function mtime(path: string): Promise<number | undefined> {
  try {
    return (await stat(path)).mtimeMs;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

export async function filesUnder(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true, recursive: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}
