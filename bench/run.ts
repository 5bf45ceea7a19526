/**
 * `npm run bench`: every benchmark, on PGlite and, when DATABASE_URL is set, on PostgreSQL.
 * Prints the tables and writes them to bench/results/latest.md.
 */
import { writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { benchProducts } from './products.ts';

const databaseUrl = process.env.DATABASE_URL;
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

await writeFile(new URL('./results/latest.md', import.meta.url), `${sections.join('\n')}\n`);
console.log('Written to bench/results/latest.md');
