import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openPostgres } from '../db/client.ts';
import { testDbKind } from '../testing/db.ts';
import { runCli, startServerProcess, urlWithSchema, type ServerProcess } from '../testing/processes.ts';

/** The account commands of the real CLI, against a real server process (PGlite folder or PostgreSQL schema). */
let env: Record<string, string>;
let cleanup: () => Promise<void>;
let server: ServerProcess | undefined;
before(async () => {
  if (testDbKind === 'postgres') {
    const schema = `users_cli_${Math.random().toString(36).slice(2, 10)}`;
    const admin = openPostgres(process.env.TEST_DATABASE_URL!, { max: 1 });
    await admin.query(`CREATE SCHEMA ${schema}`);
    env = { DATABASE_URL: urlWithSchema(process.env.TEST_DATABASE_URL!, schema) };
    cleanup = async () => { await admin.query(`DROP SCHEMA ${schema} CASCADE`); await admin.close(); };
  } else {
    const dir = await mkdtemp(join(tmpdir(), 'users-cli-'));
    env = { DATA_DIR: dir };
    cleanup = () => rm(dir, { recursive: true, force: true });
  }
});
after(async () => {
  await server?.stop();
  await cleanup();
});

async function post(path: string, body: unknown, cookie?: string) {
  const res = await fetch(`${server!.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, cookie: res.headers.get('set-cookie')?.split(';')[0], body: (await res.json()) as any };
}

const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

describe('account commands of the CLI', () => {
  it('user create reads the password from stdin; user reset-password and brand create --owner-email print one-time links', async () => {
    const brand = await runCli(['brand', 'create', '--name', 'CLI Studio'], env);
    assert.equal(brand.code, 0, brand.stderr);
    const brandId = brand.json().id;
    const created = await runCli(['user', 'create', '--brand', brandId, '--email', 'Cli.Owner@example.com', '--password-stdin', '--name', 'Cli Owner'], env, { input: 'stdin secret 123\n' });
    assert.equal(created.code, 0, created.stderr);
    assert.deepEqual(created.json(), { id: created.json().id, email: 'Cli.Owner@example.com', name: 'Cli Owner', brandID: brandId, role: 'owner' });
    assert.match(created.json().id, /^usr_/);

    server = await startServerProcess(env);
    const signedIn = await post('/dashboard/api/signin', { email: 'cli.owner@example.com', password: 'stdin secret 123' });
    assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
    const ping = await fetch(`${server.url}/api/v1/ping`, { headers: { cookie: signedIn.cookie! } });
    assert.equal(((await ping.json()) as any).data.brandID, brandId);

    // While the server runs (embedded: the command goes through it).
    const dev = await runCli(['user', 'create', '--brand', brandId, '--email', 'dev@example.com', '--role', 'developer'], env);
    assert.equal(dev.code, 0, dev.stderr);
    assert.equal(dev.json().role, 'developer');
    assert.match(dev.json().link, /\/dashboard\/reset-password\?token=/, 'no password: a link to set one');

    const reset = await runCli(['user', 'reset-password', '--email', 'CLI.OWNER@example.com'], env);
    assert.equal(reset.code, 0, reset.stderr);
    assert.match(reset.json().link, /^http:\/\/localhost:\d+\/dashboard\/reset-password\?token=[A-Za-z0-9_-]{43}$/);
    const used = await post('/dashboard/api/password-reset', { token: tokenOf(reset.json().link), newPassword: 'a new one from the link' });
    assert.equal(used.status, 200, JSON.stringify(used.body));
    assert.equal((await post('/dashboard/api/signin', { email: 'cli.owner@example.com', password: 'stdin secret 123' })).status, 401);
    assert.equal((await post('/dashboard/api/signin', { email: 'cli.owner@example.com', password: 'a new one from the link' })).status, 200);

    const owned = await runCli(['brand', 'create', '--name', 'Second', '--plan', 'plus', '--owner-email', 'founder@example.com'], env);
    assert.equal(owned.code, 0, owned.stderr);
    const o = owned.json();
    assert.deepEqual(Object.keys(o).sort(), ['id', 'link', 'name', 'ownerEmail', 'plan']);
    assert.equal(o.ownerEmail, 'founder@example.com');
    const set = await post('/dashboard/api/password-reset', { token: tokenOf(o.link), newPassword: 'founder password' });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    const session = await fetch(`${server.url}/dashboard/api/session`, { headers: { cookie: set.cookie! } });
    assert.equal(((await session.json()) as any).data.brand.id, o.id);

    // An existing owner with a password is attached, with no link.
    const attached = await runCli(['brand', 'create', '--name', 'Third', '--owner-email', 'FOUNDER@example.com'], env);
    assert.equal(attached.code, 0, attached.stderr);
    assert.equal(attached.json().link, undefined);
    assert.equal(attached.json().ownerEmail, 'founder@example.com');

    const output = server.output();
    for (const secret of ['stdin secret 123', 'a new one from the link', tokenOf(reset.json().link), tokenOf(o.link), signedIn.cookie!.split('=')[1]]) {
      assert.ok(!output.includes(secret), 'no secret in the server log');
    }
  });

  it('refuses bad input with a message and exit status 1', async () => {
    const brandId = (await runCli(['brand', 'create', '--name', 'Strict'], env)).json().id;
    const existing = await runCli(['user', 'create', '--brand', brandId, '--email', 'taken@example.com', '--password-stdin'], env, { input: 'first password' });
    assert.equal(existing.code, 0, existing.stderr);
    const cases: [string[], string | undefined, RegExp][] = [
      [['user', 'create', '--brand', brandId, '--email', 'a@example.com', '--password-stdin'], 'short', /password.*at least 8/],
      [['user', 'create', '--brand', brandId, '--email', 'not-an-email', '--password-stdin'], 'long enough pw', /email/],
      [['user', 'create', '--brand', brandId, '--email', 'b@example.com', '--role', 'admin'], undefined, /--role/],
      [['user', 'create', '--brand', 'brand_nope', '--email', 'c@example.com'], undefined, /brand_nope/],
      [['user', 'create', '--email', 'c@example.com'], undefined, /--brand/],
      [['user', 'create', '--brand', brandId, '--email', 'd@example.com', '--password-stdin'], '', /no password/],
      [['user', 'create', '--brand', brandId, '--email', 'taken@example.com', '--password-stdin'], 'overwrite attempt', /already exists/],
      [['user', 'reset-password', '--email', 'nobody@example.com'], undefined, /nobody@example.com/],
      [['user', 'reset-password'], undefined, /--email/],
      [['brand', 'create', '--name', 'X', '--owner-email', 'bad'], undefined, /email/],
    ];
    for (const [args, input, message] of cases) {
      const res = await runCli(args, env, input === undefined ? {} : { input });
      assert.equal(res.code, 1, `${args.join(' ')}: ${res.stdout}`);
      assert.match(res.stderr, message, args.join(' '));
      assert.equal(res.stdout, '');
    }
  });
});
