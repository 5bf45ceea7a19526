import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import { freePort, serverRoot, startServerProcess } from './testing/processes.ts';

/**
 * The console a person reads (issue 27, item 3): with LOG_FORMAT=pretty (what a terminal gets by
 * default) readable lines, one per request, and a banner naming the URLs and the next command;
 * JSON lines otherwise, with no banner.
 */
async function withServer(env: Record<string, string | undefined>, body: (s: Awaited<ReturnType<typeof startServerProcess>>) => Promise<void>) {
  const dir = await mkdtemp(join(tmpdir(), 'console-'));
  const server = await startServerProcess({ DATA_DIR: dir, DATABASE_URL: undefined, PUBLIC_URL: 'http://localhost:4321', ...env });
  try {
    await body(server);
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

async function untilLogged(server: { output(): string }, pattern: RegExp) {
  for (let i = 0; i < 100 && !pattern.test(server.output()); i++) await new Promise((r) => setTimeout(r, 50));
}

describe('the console', () => {
  it('is pretty with LOG_FORMAT=pretty: a banner with the URLs and the next command, one line per request', async () => {
    await withServer({ LOG_FORMAT: 'pretty' }, async (server) => {
      await untilLogged(server, /seed --demo/);
      const out = server.output();
      for (const line of ['http://localhost:4321/api/v1', 'http://localhost:4321/docs', 'http://localhost:4321/dashboard', 'npm run cli -- seed --demo']) {
        assert.ok(out.includes(line), `the banner names ${line}:\n${out}`);
      }
      assert.equal((await fetch(`${server.url}/api/v1/ping?refresh_token=secret-rt`)).status, 401);
      await untilLogged(server, /GET \/api\/v1\/ping/);
      const lines = server.output().split('\n').filter((l) => l.includes('/api/v1/ping'));
      assert.equal(lines.length, 1, `one line per request:\n${server.output()}`);
      assert.match(lines[0], /INFO.*GET \/api\/v1\/ping\?refresh_token=\[redacted\] 401 \d+ ms/);
      assert.ok(!server.output().includes('{"level"'), 'no JSON lines');
      assert.ok(!server.output().includes('secret-rt'));
    });
  });

  it('writes JSON lines and no banner with LOG_FORMAT=json', async () => {
    await withServer({ LOG_FORMAT: 'json' }, async (server) => {
      await untilLogged(server, /service started/);
      assert.ok(!server.output().includes('seed --demo'));
      const started = server.output().split('\n').find((l) => l.includes('service started'))!;
      assert.equal(JSON.parse(started).msg, 'service started');
    });
  });

  it('writes JSON lines by default when stdout is not a terminal (a pipe, a log collector)', async () => {
    await withServer({ LOG_FORMAT: undefined }, async (server) => {
      await untilLogged(server, /service started/);
      assert.ok(!server.output().includes('seed --demo'), 'no banner in a pipe');
      const started = server.output().split('\n').find((l) => l.includes('service started'))!;
      assert.equal(JSON.parse(started).msg, 'service started');
    });
  });

  it('is pretty by default on a terminal: the banner, and no JSON lines', { skip: process.platform === 'linux' ? false : 'needs util-linux script(1) for a pseudo-terminal' }, async () => {
    // script(1) gives the server a pseudo-terminal for stdout, as a person's shell would.
    const dir = await mkdtemp(join(tmpdir(), 'console-tty-'));
    const port = await freePort();
    const env: Record<string, string | undefined> = { ...process.env, DATA_DIR: dir, DATABASE_URL: undefined, LOG_FORMAT: undefined, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: 'http://localhost:4321' };
    const child = spawn('script', ['-qfec', `${JSON.stringify(process.execPath)} ${JSON.stringify(join(serverRoot, 'src/main.ts'))}`, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    let out = '';
    child.stdout.on('data', (c: Buffer) => { out += c; });
    child.stderr.on('data', (c: Buffer) => { out += c; });
    try {
      // As long as startServerProcess gives a server to start (60 s: the machine may be loaded).
      for (let i = 0; i < 600 && !out.includes('seed --demo') && child.exitCode === null; i++) await new Promise((r) => setTimeout(r, 100));
      assert.match(out, /http:\/\/localhost:4321\/docs/, `the banner on a terminal:\n${out}`);
      assert.ok(!out.includes('{"level"'), `no JSON lines on a terminal:\n${out}`);
    } finally {
      // The server and script(1) are one process group of our own.
      if (child.exitCode === null) { process.kill(-child.pid!, 'SIGTERM'); await once(child, 'close'); }
      await rm(dir, { recursive: true, force: true });
    }
  });
});
