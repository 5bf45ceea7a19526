/**
 * The dashboard's first-load budget (issue 26): the JavaScript a browser fetches before the first
 * page shows (the entry script and the chunks index.html preloads) must be at most 200 KB
 * compressed. Read from the build's own output: dist/index.html names the files, and the build
 * writes a .gz and a .br beside each (vite.config.ts); gzip is counted, the larger of the two, so
 * a browser without brotli is within budget too. Every other page is its own chunk, fetched when
 * opened (src/lib/lazy-page.ts). Run by .ci/run after the build; `node scripts/dashboard-budget.ts`.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

const budget = 200 * 1024;
const dist = join(import.meta.dirname, '../packages/dashboard/dist');

const html = await readFile(join(dist, 'index.html'), 'utf8');
const scripts = [...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="\/dashboard\/([^"]+\.js)"/g)].map((m) => m[1]);
if (!scripts.length) throw new Error(`no scripts found in ${join(dist, 'index.html')}: build the dashboard first (npm run build -w packages/dashboard)`);

let gzip = 0, brotli = 0, raw = 0;
const lines: string[] = [];
for (const file of scripts) {
  const [plain, gz, br] = await Promise.all(['', '.gz', '.br'].map((ext) => stat(join(dist, file + ext)).then((s) => s.size)));
  raw += plain; gzip += gz; brotli += br;
  lines.push(`  ${file}: ${(plain / 1024).toFixed(1)} KB, gzip ${(gz / 1024).toFixed(1)} KB, brotli ${(br / 1024).toFixed(1)} KB`);
}
console.log(`dashboard first load: ${scripts.length} scripts, ${(raw / 1024).toFixed(1)} KB raw, ${(gzip / 1024).toFixed(1)} KB gzip, ${(brotli / 1024).toFixed(1)} KB brotli (budget ${budget / 1024} KB compressed)`);
console.log(lines.join('\n'));
if (gzip > budget) {
  console.error(`over budget by ${((gzip - budget) / 1024).toFixed(1)} KB: load the new code when its page opens (lazyPage in src/App.tsx or the section's routes.tsx) rather than in the entry`);
  process.exit(1);
}
