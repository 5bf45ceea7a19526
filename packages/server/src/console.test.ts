import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { startServerProcess } from './testing/processes.ts';

/**
 * The console a person reads (issue 27, item 3): with LOG_FORMAT=pretty (what a terminal gets by
 * default) readable lines, one per request, and a banner naming the URLs and the next command;
 * JSON lines otherwise, with no banner.
 */
async function withServer(env: Record<string, string>, body: (s: Awaited<ReturnType<typeof startServerProcess>>) => Promise<void>) {
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
});
