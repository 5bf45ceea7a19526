import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { Client } from '../src/index.ts';

/**
 * The SDK's README (issue 27, item 4): its table of calls names every method the client has, and
 * every TypeScript snippet in it compiles under strict TypeScript against the SDK's own source.
 */
const sdkDir = new URL('..', import.meta.url).pathname;
const root = new URL('../../..', import.meta.url).pathname;
const readme = await readFile(join(sdkDir, 'README.md'), 'utf8');

/** Every method of a client, as `client.products.customers.list`, found by walking its resources. */
function clientMethods(client: object): string[] {
  const found: string[] = [];
  const walk = (obj: object, path: string) => {
    for (let proto = Object.getPrototypeOf(obj); proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
      for (const name of Object.getOwnPropertyNames(proto)) {
        const d = Object.getOwnPropertyDescriptor(proto, name)!;
        if (name !== 'constructor' && typeof d.value === 'function') found.push(`${path}.${name}`);
      }
    }
    for (const [name, value] of Object.entries(obj)) if (value && typeof value === 'object') walk(value, `${path}.${name}`);
  };
  walk(client, 'client');
  return [...new Set(found)].sort();
}

/**
 * The calls the README's table names. A cell lists `client.products.list(params?)`, then
 * `.get(id)` for another method of the same resource.
 */
function readmeCalls(text: string): string[] {
  const calls: string[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('| `client.')) continue;
    const firstCell = line.split(' | ')[0]!;
    let prefix = '';
    for (const [, span] of firstCell.matchAll(/`([^`]+)`/g)) {
      const m = span!.match(/^(client(?:\.\w+)*)?\.(\w+)\(/);
      if (!m) continue;
      if (m[1]) prefix = m[1];
      if (prefix) calls.push(`${prefix}.${m[2]}`);
    }
  }
  return [...new Set(calls)].sort();
}

/**
 * What the snippets use without defining: the reader's own objects (an Express, Fastify or Hono
 * app, the raw body of a request, their handlers), declared here with the types those frameworks
 * give them, so that the SDK's calls are what is checked.
 */
const prelude = `import type { Client as SdkClient, Product, WebhookEvent } from '@creator-commerce/sdk';
declare global {
  // eslint-disable-next-line no-var
  var process: { env: Record<string, string | undefined> };
  type Buffer = Uint8Array;
  const client: SdkClient;
  const product: Product;
  const id: string;
  const apiKey: string;
  const secret: string;
  const rawBody: string;
  const headers: Headers;
  const order: { id: number };
  const items: { id: string; plan: string; type: string }[];
  const form: { formData: { fullName: string; email: string } };
  const member: Extract<WebhookEvent, { type: 'member.joined' }>['data'];
  function saveAll(items: unknown[]): Promise<void>;
  function fulfil(txref: string): void;
  function welcome(email: string): void;
  function handle(event: WebhookEvent): Promise<void>;
  function writeFile(path: string, data: Uint8Array): Promise<void>;
  const body: Parameters<SdkClient['paymentLinks']['create']>[0];
  // The web frameworks the webhook snippets use, as far as they use them (none is a dependency).
  interface ExpressRequest { body: Uint8Array; headers: Record<string, string | string[] | undefined> }
  interface ExpressResponse { sendStatus(code: number): unknown; status(code: number): { send(body: string): unknown } }
  interface FastifyReply { code(status: number): { send(): unknown } }
  interface FastifyScope {
    addContentTypeParser(type: string, options: { parseAs: 'buffer' }, parse: (req: unknown, body: Uint8Array, done: (err: Error | null, body?: unknown) => void) => void): void;
    post(path: string, handler: (req: { body: unknown; headers: Record<string, string | string[] | undefined> }, reply: FastifyReply) => Promise<unknown>): void;
  }
  interface HonoContext { req: { text(): Promise<string>; raw: Request }; env: { WEBHOOK_SECRET: string }; body(data: null, status: number): Response }
  const app: {
    post(path: string, middleware: unknown, handler: (req: ExpressRequest, res: ExpressResponse) => Promise<unknown>): void;
    post(path: string, handler: (c: HonoContext) => Promise<Response>): void;
    register(plugin: (scope: FastifyScope) => Promise<void>): void;
  };
  const express: { raw(options: { type: string }): unknown };
}
export {};
`;

/** A snippet as a module: its imports on top, the rest in an async function (snippets may `return` or `await`). */
function asModule(snippet: string): string {
  const lines = snippet.split('\n');
  const imports = lines.filter((l) => /^import\b.*from\s+'[^']+';$/.test(l));
  const body = lines.filter((l) => !imports.includes(l)).join('\n');
  // A snippet that is a module of its own (a Next.js route file) stays as written.
  if (/^export /m.test(body)) return `${imports.join('\n')}\n${body}\n`;
  return `${imports.join('\n')}\nexport async function snippet(): Promise<unknown> {\n${body}\n  return undefined;\n}\n`;
}

describe('the SDK README', () => {
  it('names every method of the client in its table of calls', () => {
    const methods = clientMethods(new Client({ apiKey: 'svc_test_readme' }));
    const named = readmeCalls(readme);
    assert.ok(methods.length >= 40, `${methods.length} methods`);
    const missing = methods.filter((m) => !named.includes(m));
    assert.deepEqual(missing, [], `add these to the table in packages/sdk/README.md ("Every method returns the envelope's data"): ${missing.join(', ')}`);
    const unknown = named.filter((m) => !methods.includes(m));
    assert.deepEqual(unknown, [], `the README names calls the client does not have: ${unknown.join(', ')}`);
  });

  it('the table check reads the shorthand and catches a missing method', () => {
    assert.deepEqual(readmeCalls('| `client.products.list(params?)`, `.get(id)` | GET |\n| `client.ping()` | GET /ping |'),
      ['client.ping', 'client.products.get', 'client.products.list']);
    class Products { list() {} get() {} }
    class Fake { readonly products = new Products(); ping() {} }
    assert.deepEqual(clientMethods(new Fake()), ['client.ping', 'client.products.get', 'client.products.list']);
  });

  it('compiles every TypeScript snippet under strict TypeScript', async () => {
    const snippets = [...readme.matchAll(/^```ts\n([\s\S]*?)^```/gm)].map((m) => m[1]!);
    assert.ok(snippets.length >= 10, `${snippets.length} snippets`);
    const dir = await mkdtemp(join(sdkDir, 'test', '.readme-'));
    try {
      const files = ['prelude.ts'];
      await writeFile(join(dir, 'prelude.ts'), prelude);
      for (const [i, snippet] of snippets.entries()) {
        const name = `snippet-${String(i + 1).padStart(2, '0')}.ts`;
        files.push(name);
        await writeFile(join(dir, name), asModule(snippet));
      }
      await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({
        compilerOptions: {
          target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', lib: ['es2022', 'dom', 'dom.iterable'],
          strict: true, noEmit: true, allowImportingTsExtensions: true, skipLibCheck: true, types: [],
          paths: { '@creator-commerce/sdk': [join(sdkDir, 'src/index.ts')] },
        },
        files,
      }));
      await promisify(execFile)(join(root, 'node_modules/.bin/tsc'), ['-p', join(dir, 'tsconfig.json')], { cwd: dir }).catch((e: { stdout: string; stderr: string }) => {
        const numbered = snippets.map((s, i) => `--- snippet-${String(i + 1).padStart(2, '0')}.ts (README):\n${s}`).join('\n');
        assert.fail(`a README snippet does not compile:\n${e.stdout}${e.stderr}\n${numbered}`);
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
