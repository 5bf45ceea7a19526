import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openPostgres } from '../db/client.ts';
import { testDbKind } from '../testing/db.ts';
import { urlWithSchema } from '../testing/processes.ts';

/**
 * `npm run cli -- …` exactly as the README shows it, through npm: stdout is one JSON object and
 * nothing else (so `| jq` works), and our errors still reach stderr.
 */
const repoRoot = new URL('../../../../', import.meta.url).pathname;
let env: Record<string, string>;
let cleanup: () => Promise<void>;

before(async () => {
  if (testDbKind === 'postgres') {
    const schema = `npmrun_${Math.random().toString(36).slice(2, 10)}`;
    const admin = openPostgres(process.env.TEST_DATABASE_URL!, { max: 1 });
    await admin.query(`CREATE SCHEMA ${schema}`);
    env = { DATABASE_URL: urlWithSchema(process.env.TEST_DATABASE_URL!, schema), WEBHOOK_SECRET_KEY: Buffer.alloc(32, 7).toString('base64') };
    cleanup = async () => { await admin.query(`DROP SCHEMA ${schema} CASCADE`); await admin.close(); };
  } else {
    const dir = await mkdtemp(join(tmpdir(), 'npm-run-'));
    env = { DATA_DIR: dir };
    cleanup = () => rm(dir, { recursive: true, force: true });
  }
});
after(() => cleanup());

async function npmRunCli(args: string[]) {
  // The settings of the `npm test` that runs us (npm_config_*) must not decide how npm behaves here.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_config_')));
  const child = spawn('npm', ['run', 'cli', '--', ...args], { cwd: repoRoot, env: { ...inherited, LOG_LEVEL: 'silent', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => { stdout += c; });
  child.stderr.on('data', (c: Buffer) => { stderr += c; });
  const [code] = await once(child, 'close');
  return { code: code as number, stdout, stderr };
}

describe('npm run cli', () => {
  it('prints one JSON object on stdout and nothing else', async () => {
    const res = await npmRunCli(['brand', 'create', '--name', 'Piped']);
    assert.equal(res.code, 0, res.stderr);
    const parsed = JSON.parse(res.stdout);
    assert.equal(parsed.name, 'Piped');
    assert.match(parsed.id, /^brand_/);
  });

  it('exits 1 with our message on stderr and nothing on stdout when the command fails', async () => {
    const res = await npmRunCli(['key', 'create', '--brand', 'brand_x', '--mode', 'test', '--scopes', '']);
    assert.equal(res.code, 1);
    assert.equal(res.stdout, '');
    assert.match(res.stderr, /--scopes needs a comma-separated list of scopes, or all/);
  });

  it('refuses an empty or blank scope list instead of granting every scope', async () => {
    for (const scopes of ['', ' ', ',', 'products:read,']) {
      const res = await npmRunCli(['key', 'create', '--brand', 'brand_x', '--mode', 'test', '--scopes', scopes]);
      assert.equal(res.code, 1, `--scopes "${scopes}"`);
      assert.match(res.stderr, /--scopes needs/, `--scopes "${scopes}"`);
    }
  });
});
