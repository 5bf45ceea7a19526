import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { guides } from './page.ts';

/**
 * Docs that stand alone (issue 27, item 4): what a user reads, in the repository or served, cites
 * no file they do not have (the team's spec, design notes), no endpoint numbers from it, and every
 * shell sample defines the variables it uses.
 */

const root = new URL('../../../../', import.meta.url);
let t: TestApp;
before(async () => { t = await startTestApp(); });
after(async () => { await t.close(); });

/** Files the project's users never get, and the spec's endpoint numbers. */
const unreachable = /shared\/spec|api-reference\.md|\b(DOMAIN|DESIGN|STYLE)\.md\b|\bendpoints? \d+\b/gi;

function unreachableReferences(text: string): string[] {
  return [...text.matchAll(unreachable)].map((m) => m[0]);
}

/** The team's issue numbers: a user of the service has no access to that tracker. */
const issueNumbers = (text: string) => [...text.matchAll(/\bissue \d+\b/gi)].map((m) => m[0]);

/** Shell variables a sample uses without setting them (`$BASE_URL` with no `BASE_URL=…` before it). */
function undefinedVariables(sample: string): string[] {
  const used = [...sample.matchAll(/\$\{?([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!);
  const defined = new Set([
    ...[...sample.matchAll(/(?:^|[\s;(])(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=/gm)].map((m) => m[1]!),
    ...[...sample.matchAll(/\bfor\s+(\w+)\s+in\b/g)].map((m) => m[1]!),
    'HOME', 'PWD',
  ]);
  return [...new Set(used.filter((name) => !defined.has(name)))];
}

/** Fenced shell blocks of a Markdown text (```sh, ```bash, ```shell, or unlabelled with a curl). */
function shellBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```(\w*)\n([\s\S]*?)^```/gm)]
    .filter(([, lang, body]) => ['sh', 'bash', 'shell', 'console'].includes(lang!) || (lang === '' && /\bcurl\b/.test(body!)))
    .map(([, , body]) => body!);
}

async function repositoryDocs(): Promise<[string, string][]> {
  const names = ['README.md', 'packages/sdk/README.md', ...(await readdir(new URL('docs/', root))).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
  return Promise.all(names.map(async (name) => [name, await readFile(new URL(name, root), 'utf8')] as [string, string]));
}

async function servedDocs(): Promise<[string, string][]> {
  const urls = ['/api/v1/openapi.json', '/docs', '/llms.txt', '/llms-full.txt', ...Object.keys(guides).flatMap((g) => [`/docs/guides/${g}.md`, `/docs/guides/${g}.json`])];
  return Promise.all(urls.map(async (url) => {
    const res = await t.request({ method: 'GET', url });
    assert.equal(res.statusCode, 200, url);
    return [url, res.body] as [string, string];
  }));
}

describe('docs that stand alone', () => {
  it('the checks themselves catch a spec file, an endpoint number and an undefined variable', () => {
    assert.deepEqual(unreachableReferences('It implements `shared/spec/api-reference.md` (endpoints 13–21).'), ['shared/spec', 'api-reference.md', 'endpoints 13']);
    assert.deepEqual(undefinedVariables('curl "$BASE_URL/products" -H "x-service-api: $KEY"'), ['BASE_URL', 'KEY']);
    assert.deepEqual(undefinedVariables('KEY=svc_test_…\nBASE_URL=http://localhost:3000\ncurl "$BASE_URL/products" -H "x-service-api: ${KEY}"'), []);
  });

  it('cites no file a user does not have, and no endpoint numbers, in the repository\'s docs', async () => {
    for (const [name, text] of await repositoryDocs()) assert.deepEqual(unreachableReferences(text), [], name);
  });

  it('cites none in the served OpenAPI document, the reference page or the guides', async () => {
    for (const [url, text] of await servedDocs()) assert.deepEqual(unreachableReferences(text), [], url);
  });

  it('names no issue of the team\'s tracker in what it serves (the engineering docs in the repository may)', async () => {
    assert.deepEqual(issueNumbers('Our addition (issue 24). Issue 25; every route'), ['issue 24', 'Issue 25']);
    for (const [url, text] of await servedDocs()) assert.deepEqual(issueNumbers(text), [], url);
  });

  it('defines every variable the shell samples of /llms-full.txt use (every operation, event and guide page)', async () => {
    const full = (await t.request({ method: 'GET', url: '/llms-full.txt' })).body;
    const blocks = shellBlocks(full);
    assert.ok(blocks.length >= 40, `${blocks.length} shell samples`);
    for (const block of blocks) assert.deepEqual(undefinedVariables(block), [], block);
  });

  it('defines every variable its shell samples use, in the repository\'s docs', async () => {
    for (const [name, text] of await repositoryDocs()) {
      for (const block of shellBlocks(text)) assert.deepEqual(undefinedVariables(block), [], `${name}:\n${block}`);
    }
  });

  it('defines every variable the curl samples of the OpenAPI document use', async () => {
    const doc = (await t.request({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    let samples = 0;
    for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const [method, op] of Object.entries(methods)) {
        for (const sample of (op['x-codeSamples'] ?? []) as { lang: string; source: string }[]) {
          if (sample.lang !== 'Shell') continue;
          samples++;
          assert.deepEqual(undefinedVariables(sample.source), [], `${method.toUpperCase()} ${path}:\n${sample.source}`);
          assert.doesNotMatch(sample.source, /\{\w+\}/, `${method.toUpperCase()} ${path}: curl would read {id} as a URL glob`);
        }
      }
    }
    assert.ok(samples >= 40, `${samples} curl samples`);
  });
});
