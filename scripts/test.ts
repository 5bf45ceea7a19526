/**
 * `npm test`: every *.test.ts under packages/ with Node's test runner, on PGlite; and again on
 * PostgreSQL when TEST_DATABASE_URL is set. Ends with one line summing both runs.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

async function findTests(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await findTests(path)));
    else if (entry.name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

const filter = process.argv.slice(2);
// Words match the path inside the repository, so a checkout's own folder name never matches.
const files = (await findTests(join(root, 'packages'))).filter((f) => !filter.length || filter.some((x) => relative(root, f).includes(x))).sort();
const runs: ('pglite' | 'postgres')[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
if (!process.env.TEST_DATABASE_URL) {
  console.log('TEST_DATABASE_URL is not set: running on PGlite only. Set it to a PostgreSQL URL to run every test on PostgreSQL too.');
}

// Every test file is a process, and many start more (the CLI, the server): each would strip the
// types of and compile the same few hundred modules. Node keeps the result here instead (about
// 0.5 s of CPU less per process on the shared 2-core machine); it checks each file's contents itself.
const compileCache = process.env.NODE_COMPILE_CACHE ?? join(root, 'node_modules/.cache/creator-commerce-tests/compile');
// As `npm start` runs the server (docs/embedded.md): PGlite's WebAssembly stays on V8's baseline
// code. A test process lives seconds, too short to repay the optimising recompilation, which cost
// about a fifth of a PGlite test file's CPU (and some 500 MB while it ran); the runner passes the
// flag on to each file's process.
const nodeFlags = ['--liftoff-only'];

const timesDir = await mkdtemp(join(tmpdir(), 'cc-test-times-'));
const totals = { pass: 0, fail: 0, skipped: 0 };
for (const db of runs) {
  console.log(`\n=== ${files.length} test files on ${db} ===`);
  const started = Date.now();
  const timesFile = join(timesDir, db);
  const output = await new Promise<string>((resolve) => {
    const child = spawn(process.execPath, [...nodeFlags, '--test', '--test-concurrency=2', '--test-reporter=spec', '--test-reporter-destination=stdout',
      `--test-reporter=${join(root, 'scripts/test-file-times.ts')}`, `--test-reporter-destination=${timesFile}`, ...files], {
      env: { ...process.env, TEST_DB: db, NODE_COMPILE_CACHE: compileCache },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => { process.stdout.write(chunk); text += chunk.toString(); });
    child.on('close', (code) => resolve(code === 0 ? text : `${text}\n(exit ${code})`));
  });
  const count = (label: string) => Number(output.match(new RegExp(`ℹ ${label} (\\d+)`))?.[1] ?? 0);
  totals.pass += count('pass');
  totals.fail += count('fail') + (output.includes('(exit ') && count('fail') === 0 ? 1 : 0);
  totals.skipped += count('skipped');
  const times = (await readFile(timesFile, 'utf8').catch(() => '')).split('\n').filter(Boolean)
    .map((line) => line.split('\t')).sort((a, b) => Number(b[0]) - Number(a[0]));
  console.log(`\n${db}: ${Math.round((Date.now() - started) / 1000)} s; the slowest files:`);
  for (const [ms, file] of times.slice(0, 10)) console.log(`${(Number(ms) / 1000).toFixed(1).padStart(7)} s  ${relative(root, file)}`);
}
await rm(timesDir, { recursive: true, force: true });
console.log(`\n${totals.pass} passed, ${totals.fail} failed, ${totals.skipped} skipped`);
process.exitCode = totals.fail > 0 ? 1 : 0;
