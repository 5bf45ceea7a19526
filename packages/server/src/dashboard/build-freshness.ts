import { readdirSync, statSync } from 'node:fs';
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
  const built = mtime(builtFile);
  if (built === undefined) return 'no build yet';
  for (const file of inputs) {
    const changed = mtime(file);
    if (changed !== undefined && changed > built) return `${relative(base, file)} changed since the last build`;
  }
  return undefined;
}

// Synchronous on purpose: `npm start` runs these checks before the server, about a thousand files
// one after another, and a stat through the thread pool costs far more than the stat itself.
function mtime(path: string): number | undefined {
  try {
    return statSync(path).mtimeMs;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

export async function filesUnder(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true, recursive: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}
