import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { courseBody } from '../../server/src/testing/checkout-fixtures.ts';
import { testDbKind } from '../../server/src/testing/db.ts';
import { createBrandWithCatalog } from '../../server/src/testing/factories.ts';
import { startReceiver } from '../../server/src/testing/receiver.ts';
import { startLiveServer, type LiveServer } from './support.ts';

/**
 * The package as users get it: `npm pack`, installed from the tarball into a project outside the
 * workspace, then one script run under the machine's Node, Node 24, Bun and Deno against the real
 * server. Also: publint, Are the Types Wrong, and a strict `tsc` over the README's examples.
 *
 * Runs on the first (PGlite) run only: it tests the package, and the database behind the server
 * plays no part in that. Outside CI a missing runtime skips with what to install; with CI=true
 * nothing skips.
 */

const run = promisify(execFile);
const sdkDir = new URL('..', import.meta.url).pathname;
const root = new URL('../../..', import.meta.url).pathname;
const bin = (name: string) => join(root, 'node_modules', '.bin', name);
const inCi = process.env.CI === 'true' || process.env.CI === '1';

/** The first `node` on PATH outside node_modules/.bin: the machine's own, not the pinned 24. */
function systemNode(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir || dir.includes('node_modules')) continue;
    const candidate = join(dir, 'node');
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

const skipReason = (what: string, install: string) => (inCi ? false : `${what} is not installed: ${install}`);

// Registered on the PGlite run only (not skipped on the PostgreSQL one, so CI shows no skips).
if (testDbKind === 'pglite') describe('the packed SDK', () => {
  let live: LiveServer;
  let project: string;
  let tarball: string;
  let input: string;

  before(async () => {
    const packDir = await mkdtemp(join(tmpdir(), 'sdk-pack-'));
    // `npm pack` runs `prepack`, which builds dist/ from src/.
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', packDir], { cwd: sdkDir });
    tarball = join(packDir, JSON.parse(stdout.slice(stdout.indexOf('[')))[0].filename);

    project = await mkdtemp(join(tmpdir(), 'sdk-consumer-'));
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    await run('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', tarball], { cwd: project });
    await copyFile(new URL('./package/smoke.mjs', import.meta.url), join(project, 'smoke.mjs'));

    live = await startLiveServer({ worker: true });
    const { ids, testKey } = await createBrandWithCatalog(live.t.db);
    const rx = await startReceiver();
    const headers = { 'x-service-api': testKey, 'content-type': 'application/json' };
    const created = await (await fetch(`${live.baseUrl}/api/v1/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url: rx.url, events: ['transaction.succeeded'] }) })).json();
    await fetch(`${live.baseUrl}/api/v1/webhooks/test`, { method: 'POST', headers, body: JSON.stringify({ eventType: 'transaction.succeeded' }) });
    const [delivery] = await rx.waitFor(1);
    await rx.close();
    input = JSON.stringify({
      baseUrl: live.baseUrl,
      apiKey: testKey,
      secret: created.data.signingSecret,
      paymentLink: courseBody(ids),
      delivery: { body: delivery.raw.toString('utf8'), headers: delivery.headers },
    });
  });
  after(async () => {
    await live?.close();
    if (project) await rm(project, { recursive: true, force: true });
  });

  it('ships compiled ESM with declarations and nothing else', async () => {
    const { stdout } = await run('tar', ['-tzf', tarball]);
    const files = stdout.trim().split('\n').sort();
    assert.ok(files.includes('package/dist/index.js'));
    assert.ok(files.includes('package/dist/index.d.ts'));
    assert.ok(files.includes('package/README.md'));
    assert.ok(files.includes('package/LICENSE'), 'the MIT licence travels with the package');
    assert.deepEqual(files.filter((f) => !/^package\/(dist\/.+\.(js|d\.ts)|README\.md|LICENSE|package\.json)$/.test(f)), []);
    const installed = await readdir(join(project, 'node_modules'));
    assert.deepEqual(installed.filter((n) => !n.startsWith('.')), ['@creator-commerce'], 'no runtime dependencies');
  });

  const runtimes: { name: string; command: () => string | undefined; args: string[]; install: string }[] = [
    { name: 'the machine\'s Node', command: systemNode, args: ['smoke.mjs'], install: 'install Node.js 20 or newer on the PATH' },
    { name: 'Node 24', command: () => process.execPath, args: ['smoke.mjs'], install: 'npm ci (the node devDependency)' },
    { name: 'Bun', command: () => (existsSync(bin('bun')) ? bin('bun') : undefined), args: ['smoke.mjs'], install: 'npm ci (the bun devDependency)' },
    { name: 'Deno', command: () => (existsSync(bin('deno')) ? bin('deno') : undefined), args: ['run', '--quiet', '--allow-net', '--allow-env', '--allow-read', 'smoke.mjs'], install: 'npm ci (the deno devDependency)' },
  ];
  for (const runtime of runtimes) {
    const command = runtime.command();
    it(`pages products, makes a payment link and verifies webhooks under ${runtime.name}`, { skip: command ? false : skipReason(runtime.name, runtime.install) }, async (t) => {
      assert.ok(command, `${runtime.name} is missing: ${runtime.install}`);
      const { stdout } = await run(command, runtime.args, {
        cwd: project,
        env: { ...process.env, SMOKE_INPUT: input, DENO_DIR: join(project, '.deno'), DENO_NO_UPDATE_CHECK: '1' },
        timeout: 60_000,
      });
      const result = JSON.parse(stdout.trim().split('\n').at(-1) ?? '');
      t.diagnostic(`ran on ${result.runtime} (${command})`);
      assert.ok(result.products >= 4);
      assert.match(result.link, /^http/);
      assert.equal(result.notFound, true);
      assert.equal(result.delivered, 'transaction.succeeded');
      assert.equal(result.roundTrip, 'evt_smoke');
      assert.match(result.tampered, /Signature does not match/);
    });
  }

  it('passes publint', async () => {
    const { stdout } = await run(bin('publint'), ['--strict', sdkDir], { cwd: root });
    assert.doesNotMatch(stdout, /error|warning|suggestion/i, stdout);
  });

  it('resolves its types under node16, bundlers and ESM (Are the Types Wrong)', async () => {
    const { stdout } = await run(bin('attw'), [tarball, '--profile', 'esm-only', '--format', 'table-flipped'], { cwd: root }).catch((e) => {
      assert.fail(`attw found problems:\n${e.stdout}\n${e.stderr}`);
    });
    // attw exits non-zero on any problem outside the ignored CommonJS resolutions: ESM-only is the design.
    assert.doesNotMatch(stdout, /❌|💀|🥴|🐛/u, stdout);
  });

  it('compiles the documented examples under strict TypeScript, narrowing the event union on `type`', async () => {
    await run(bin('tsc'), ['-p', join(sdkDir, 'test/examples/tsconfig.json')], { cwd: root }).catch((e) => {
      assert.fail(`tsc failed on test/examples/usage.ts:\n${e.stdout}${e.stderr}`);
    });
  });
});
