import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** With DATABASE_URL the server needs a webhook sealing key (docs/webhooks.md); one for every test process. */
const webhookTestKey = randomBytes(32).toString('base64');

/** Rate limits no ordinary test reaches (tests that measure them set their own). */
const generousBudgets = { RATE_LIMIT_LIVE: '1000000', RATE_LIMIT_TEST: '1000000', RATE_LIMIT_AUTH_FAILURES: '1000000', RATE_LIMIT_OAUTH_REGISTRATIONS: '1000000' };

export const serverRoot = new URL('../../', import.meta.url).pathname;
const mainScript = join(serverRoot, 'src/main.ts');
const cliScript = join(serverRoot, 'src/cli/main.ts');

/** A PostgreSQL URL whose connections use the given schema first (pg reads `options` from the URL). */
export function urlWithSchema(url: string, schema: string): string {
  const u = new URL(url);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return u.toString();
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  json: <T = any>() => T;
}

/**
 * Runs `npm run cli -- …` the way a user does (the same script, the same environment variables),
 * with PGlite's WebAssembly on V8's baseline code as `npm start` runs it: a command lives a second
 * or two, and the optimising recompilation it would start was about 40% of its CPU.
 */
export async function runCli(args: string[], env: Record<string, string | undefined>, options: { input?: string } = {}): Promise<CliResult> {
  const child = spawn(process.execPath, ['--liftoff-only', cliScript, ...args], { env: { ...process.env, LOG_LEVEL: 'silent', ...env }, stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
  if (options.input !== undefined) child.stdin!.end(options.input);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => { stdout += c; });
  child.stderr!.on('data', (c: Buffer) => { stderr += c; });
  const [code] = await once(child, 'close');
  return { code, stdout, stderr, json: () => JSON.parse(stdout) };
}

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  url: string;
  output: () => string;
  stop(): Promise<void>;
}

/** Starts `npm start` (main.ts) as a real process on a free port and waits until it serves. */
export async function startServerProcess(env: Record<string, string | undefined>): Promise<ServerProcess> {
  // --liftoff-only as `npm start` runs it (docs/embedded.md).
  const child = spawn(process.execPath, ['--liftoff-only', mainScript], { env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', WEBHOOK_SECRET_KEY: webhookTestKey, WEBHOOK_ALLOW_LOOPBACK: 'true', ...generousBudgets, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => { output += c; });
  child.stderr!.on('data', (c: Buffer) => { output += c; });
  const deadline = Date.now() + 60_000;
  let port = 0;
  while (!port) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${output}`);
    if (Date.now() > deadline) { child.kill('SIGKILL'); throw new Error(`server did not start: ${output}`); }
    const m = output.match(/Server listening at http:\/\/127\.0\.0\.1:(\d+)/);
    if (m) port = Number(m[1]);
    else await new Promise((r) => setTimeout(r, 50));
  }
  // The lock file gets the port right after listen; wait until the CLI could find it. (Embedded
  // mode only: with DATABASE_URL, DATA_DIR holds files, not a locked database.)
  if (env.DATA_DIR && !env.DATABASE_URL) {
    while (!(await readFile(join(env.DATA_DIR, 'lock.json'), 'utf8').catch(() => '')).includes('"port"')) {
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  return {
    child,
    port,
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'close');
    },
  };
}

/** A TCP port nothing listens on right now (for servers a test starts itself: Redis, PostgreSQL). */
export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => { const { port } = s.address() as { port: number }; s.close(() => resolve(port)); });
  });
}

/** Starts `main.ts` with ROLES=worker as a real process and waits until it runs; `output()` is what it logged so far. */
export async function startWorkerProcess(env: Record<string, string | undefined>): Promise<ChildProcess & { output(): string }> {
  const child = spawn(process.execPath, ['--liftoff-only', mainScript], { env: { ...process.env, WEBHOOK_ALLOW_LOOPBACK: 'true', ...env, ROLES: 'worker', LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => { output += c; });
  child.stderr!.on('data', (c: Buffer) => { output += c; });
  const deadline = Date.now() + 60_000;
  while (!output.includes('service started')) {
    if (child.exitCode !== null || Date.now() > deadline) { child.kill('SIGKILL'); throw new Error(`worker did not start: ${output}`); }
    await new Promise((r) => setTimeout(r, 25));
  }
  return Object.assign(child, { output: () => output });
}
