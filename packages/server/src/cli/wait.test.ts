import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { serverRoot } from '../testing/processes.ts';
import { until } from '../testing/until.ts';

/**
 * `npm start` then, a few seconds later, `npm run cli -- seed --demo`: the CLI finds the folder
 * held by a server that does not listen yet. It waits for it instead of failing. Each holder is
 * frozen (SIGSTOP) while it holds the folder, so the CLI meets it in exactly that state.
 */
const dirs: string[] = [];
const children: ChildProcess[] = [];
after(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) { c.kill('SIGCONT'); c.kill('SIGKILL'); }
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

function start(script: string, args: string[], dataDir: string) {
  // Embedded mode whatever database this test run uses: the data-folder lock is what is tested.
  const env = { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', DATABASE_URL: '' };
  const child = spawn(process.execPath, [join(serverRoot, script), ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const out = { stdout: '', stderr: '' };
  child.stdout!.on('data', (c: Buffer) => { out.stdout += c; });
  child.stderr!.on('data', (c: Buffer) => { out.stderr += c; });
  return { child, out, exited: once(child, 'close') };
}

const lockOf = async (dir: string) => JSON.parse(await readFile(join(dir, 'lock.json'), 'utf8').catch(() => 'null'));

describe('the CLI and a data folder that is busy for a moment', () => {
  it('waits for a server that is still starting, then goes through it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cli-wait-'));
    dirs.push(dir);
    const server = start('src/main.ts', [], dir);
    await until('the server to take the folder', async () => (await lockOf(dir))?.role === 'server');
    server.child.kill('SIGSTOP');
    assert.equal((await lockOf(dir)).port, undefined, 'frozen before it listens');
    const cli = start('src/cli/main.ts', ['seed', '--demo'], dir);
    await until('the CLI to say it waits', () => cli.out.stderr.includes('Waiting for the server'));
    server.child.kill('SIGCONT');
    const [code] = await cli.exited;
    assert.equal(code, 0, cli.out.stderr);
    assert.equal(cli.out.stderr.match(/Waiting/g)?.length, 1, 'says it once');
    const { key } = JSON.parse(cli.out.stdout);
    const { port } = await lockOf(dir);
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/products`, { headers: { 'x-service-api': key } });
    assert.equal(res.status, 200, 'the server ran the command: it knows the new key');
    assert.equal(((await res.json()) as any).data.items.length, 4);
    server.child.kill('SIGTERM');
    await server.exited;
  });

  it('waits briefly for another CLI command holding the folder', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cli-wait-'));
    dirs.push(dir);
    const [migrated] = await start('src/cli/main.ts', ['migrate'], dir).exited;
    assert.equal(migrated, 0);
    const first = start('src/cli/main.ts', ['brand', 'create', '--name', 'First'], dir);
    await until('the first command to take the folder', async () => (await lockOf(dir))?.role === 'cli');
    first.child.kill('SIGSTOP');
    const second = start('src/cli/main.ts', ['brand', 'create', '--name', 'Second'], dir);
    await until('the second command to say it waits', () => second.out.stderr.includes('Waiting for another CLI command'));
    first.child.kill('SIGCONT');
    const [[firstCode], [secondCode]] = await Promise.all([first.exited, second.exited]);
    assert.equal(firstCode, 0, first.out.stderr);
    assert.equal(secondCode, 0, second.out.stderr);
    assert.equal(JSON.parse(second.out.stdout).name, 'Second');
  });
});
