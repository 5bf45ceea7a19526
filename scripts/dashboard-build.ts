/**
 * Run by `npm start` before the server: builds the dashboard (packages/dashboard) when its build
 * is missing or older than its sources, so `git pull && npm start` never serves a stale one.
 * Prints one line when it builds and nothing when the build is fresh; a failed build stops
 * `npm start` with Vite's output. `DASHBOARD_BUILD=skip` turns it off (production images built
 * once by `npm ci`, or several processes started at once from one checkout).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dashboardBuildStale } from '../packages/server/src/dashboard/build-freshness.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const dashboardDir = fileURLToPath(new URL('../packages/dashboard', import.meta.url));

/** Builds the dashboard when its build is stale (npm start, through scripts/start-checks.ts). */
export async function ensureDashboardBuild(): Promise<void> {
  if (process.env.DASHBOARD_BUILD === 'skip') return;
  const { stale, reason } = await dashboardBuildStale(dashboardDir);
  if (stale) {
    console.log(`Building the dashboard (${reason})…`);
    const build = spawnSync('npm', ['run', 'build', '-w', 'packages/dashboard'], { cwd: root, encoding: 'utf8' });
    if (build.status !== 0) {
      process.stderr.write(`${build.stdout ?? ''}${build.stderr ?? ''}`);
      console.error(`The dashboard build failed${build.error ? ` (${build.error.message})` : ''}: fix the error above, or start with DASHBOARD_BUILD=skip to serve the server without a fresh dashboard.`);
      process.exit(1);
    }
  }
}

if (import.meta.main) await ensureDashboardBuild();
