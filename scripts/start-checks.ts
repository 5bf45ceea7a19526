/**
 * What `npm start` runs before the server: the dashboard's build check, then the server bundle's
 * (each builds what is stale and prints one line when it does; DASHBOARD_BUILD=skip and
 * SERVER_BUILD=skip turn them off). One process for both: each Node process that runs TypeScript
 * spends about 150 ms loading the type stripper before it does anything.
 */
import { ensureDashboardBuild } from './dashboard-build.ts';
import { ensureServerBuild } from './server-build.ts';

await ensureDashboardBuild();
await ensureServerBuild();
