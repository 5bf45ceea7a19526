/**
 * `npm run bench`: every benchmark, on PGlite and, when DATABASE_URL is set, on PostgreSQL.
 * `npm run bench -- products storefront webhooks imports startup` picks some of them.
 * Prints the tables and writes them to bench/results/latest.md.
 * `npm run bench -- --scaling` runs only the scaling benchmark (bench/scaling.ts, PostgreSQL,
 * long; not part of CI) and writes bench/results/scaling.md instead.
 */
import { writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { benchImports } from './imports.ts';
import { benchProducts } from './products.ts';
import { benchScaling } from './scaling.ts';
import { benchStartup } from './startup.ts';
import { benchStorefront } from './storefront.ts';
import { benchWebhooks } from './webhooks.ts';
import { unitsSection } from './units.ts';

const databaseUrl = process.env.DATABASE_URL;

if (process.argv.includes('--scaling')) {
  if (!databaseUrl) throw new Error('The scaling benchmark runs on PostgreSQL: set DATABASE_URL.');
  const report = await benchScaling(databaseUrl);
  console.log(report);
  await writeFile(new URL('./results/scaling.md', import.meta.url), `${report}\n`);
  console.log('Written to bench/results/scaling.md');
  process.exit(0);
}

const only = process.argv.slice(2);
const wanted = (name: string) => !only.length || only.includes(name);
const sections: string[] = [
  '# Benchmark results',
  '',
  `${new Date().toISOString()} on ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}. `
    + `Load comes from autocannon in a separate process from the server.`,
  '',
];
const add = (text: string) => { console.log(text); sections.push(text); };

if (wanted('products')) {
  add(await benchProducts());
  if (databaseUrl) add(await benchProducts(databaseUrl));
  else add('_PostgreSQL not measured: set DATABASE_URL to include it._\n');
}

if (wanted('storefront')) add(await benchStorefront());
if (wanted('webhooks')) add(await benchWebhooks());
if (wanted('imports')) add(await benchImports());
if (wanted('startup')) add(await benchStartup());
const units = unitsSection();
if (units) add(units);

await writeFile(new URL('./results/latest.md', import.meta.url), `${sections.join('\n')}\n`);
console.log('Written to bench/results/latest.md');
