import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Type } from 'typebox';
import { buildApp } from '../app.ts';
import { eventTypes } from '../events/types.ts';
import { Envelope } from '../http/envelope.ts';
import { startTestApp, testDeps, type TestApp } from '../testing/app.ts';
import { guides, readGuide, type GuideName } from './page.ts';

/**
 * The docs for coding agents (issue 27, item 4): /llms.txt and /llms-full.txt (llmstxt.org), a
 * Markdown page per operation, event type and guide, and /.well-known/api-catalog (RFC 9727), all
 * compared here with the served OpenAPI document they are made from, so they cannot drift.
 */

let t: TestApp;
let doc: Record<string, any>;
before(async () => {
  t = await startTestApp();
  doc = (await t.request({ method: 'GET', url: '/api/v1/openapi.json' })).json();
});
after(async () => { await t.close(); });

const origin = () => String(doc.servers[0].url).replace(/\/api\/v1$/, '');
const operations = () => Object.entries(doc.paths as Record<string, Record<string, any>>)
  .flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })));
const get = (url: string) => t.request({ method: 'GET', url });
/** The JSON of the first ```json block after a heading. */
const jsonAfter = (markdown: string, heading: string) => {
  const at = markdown.indexOf(heading);
  assert.ok(at >= 0, `${heading} is on the page`);
  const m = markdown.slice(at).match(/```json\n([\s\S]*?)\n```/);
  assert.ok(m, `a JSON example after ${heading}`);
  return JSON.parse(m[1]!);
};

describe('docs for agents', () => {
  it('serves /llms.txt in the llmstxt.org shape, linking every operation, event type and guide', async () => {
    const res = await get('/llms.txt');
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/markdown/);
    const lines = res.body.split('\n');
    assert.equal(lines[0], `# ${doc.info.title}`, 'an H1 with the name first');
    assert.match(lines[2]!, /^> \S/, 'then a blockquote summary');
    assert.ok(!/^#{3,} /m.test(res.body) && /^## /m.test(res.body), 'sections are H2 lists of links');
    const links = [...res.body.matchAll(/^- \[[^\]]+\]\((\S+?)\)/gm)].map((m) => m[1]!);
    for (const { op } of operations()) assert.ok(links.includes(`${origin()}/docs/operations/${op.operationId}.md`), `links ${op.operationId}`);
    for (const type of eventTypes) assert.ok(links.includes(`${origin()}/docs/events/${type}.md`), `links ${type}`);
    for (const name of Object.keys(guides)) assert.ok(links.includes(`${origin()}/docs/guides/${name}.md`), `links the ${name} guide`);
    // Every link answers, as Markdown (or the document itself).
    for (const link of links) {
      const page = await get(link.slice(origin().length));
      assert.equal(page.statusCode, 200, link);
    }
  });

  it('writes each operation\'s page from the document: method and path, parameters, fields, examples, errors and samples', async () => {
    for (const { path, method, op } of operations()) {
      const res = await get(`/docs/operations/${op.operationId}.md`);
      assert.equal(res.statusCode, 200, op.operationId);
      assert.match(String(res.headers['content-type']), /^text\/markdown/);
      const md = res.body;
      assert.ok(md.startsWith(`# ${op.summary}\n`), op.operationId);
      assert.ok(md.includes(`\`${method.toUpperCase()} ${doc.servers[0].url}${path}\``), `${op.operationId}: method and path`);
      for (const p of op.parameters ?? []) {
        const name = p.$ref ? doc.components.parameters[p.$ref.split('/').pop()].name : p.name;
        assert.ok(md.includes(`| \`${name}\` |`), `${op.operationId}: parameter ${name}`);
      }
      const request = op.requestBody?.content?.['application/json'];
      if (request) {
        assert.deepEqual(jsonAfter(md, '## Request body'), Object.values(request.examples as Record<string, any>)[0].value, `${op.operationId}: request example`);
      }
      const [status, success] = Object.entries(op.responses as Record<string, any>).find(([s]) => s.startsWith('2'))!;
      const media = success.content?.['application/json'];
      if (media) assert.deepEqual(jsonAfter(md, `## Response ${status}`), Object.values(media.examples as Record<string, any>)[0].value, `${op.operationId}: response example`);
      for (const s of Object.keys(op.responses).filter((x) => !x.startsWith('2'))) assert.match(md, new RegExp(`^\\| ${s} \\|`, 'm'), `${op.operationId}: error ${s}`);
      for (const sample of op['x-codeSamples']) assert.ok(md.includes(sample.source), `${op.operationId}: ${sample.label} sample`);
    }
    assert.equal((await get('/docs/operations/noSuchOperation.md')).statusCode, 404);
  });

  it('writes each event type\'s page with its headers, fields and the example delivery of the webhooks section', async () => {
    for (const type of eventTypes) {
      const md = (await get(`/docs/events/${type}.md`)).body;
      assert.ok(md.startsWith(`# Event ${type}\n`));
      assert.ok(md.includes('| `webhook-signature` |'));
      const example = doc.webhooks[type].post.requestBody.content['application/json'].examples[type].value;
      assert.deepEqual(jsonAfter(md, 'Example:'), example, type);
    }
    assert.equal((await get('/docs/events/nothing.happened.md')).statusCode, 404);
  });

  it('puts every operation, event and guide page in /llms-full.txt, as served on their own', async () => {
    const full = (await get('/llms-full.txt')).body;
    assert.ok(full.startsWith(`# ${doc.info.title}\n`));
    for (const { op } of operations()) assert.ok(full.includes((await get(`/docs/operations/${op.operationId}.md`)).body.trim()), op.operationId);
    for (const type of eventTypes) assert.ok(full.includes((await get(`/docs/events/${type}.md`)).body.trim()), type);
    for (const name of Object.keys(guides) as GuideName[]) assert.ok(full.includes((await readGuide(name)).trim()), name);
  });

  it('serves every guide the reference points to, as a page and as Markdown', async () => {
    // The guides may still point to operators' documents (performance, the dashboard's own
    // routes), which are in the repository a self-hoster runs but not the API's docs.
    const served = new Set(Object.keys(guides));
    const cited = new Set([...JSON.stringify(doc).matchAll(/\bdocs\/([a-z-]+)\.md\b/g)].map((m) => m[1]!));
    assert.ok(cited.has('refunds') && cited.has('bookings'), 'the check reads the citations');
    assert.deepEqual([...cited].filter((name) => !served.has(name)).sort(), [], 'a guide the served docs cite but do not serve');
    for (const name of cited) {
      assert.equal((await get(`/docs/guides/${name}`)).statusCode, 200, name);
      assert.equal((await get(`/docs/guides/${name}.md`)).body, await readGuide(name as GuideName), name);
    }
    // The page's title is plain text: `GET /metrics/summary` in a heading shows without its backticks.
    for (const name of Object.keys(guides)) assert.doesNotMatch((await get(`/docs/guides/${name}.json`)).json().info.title, /`/, name);
  });

  it('serves the RFC 9727 API catalog, whose links answer', async () => {
    const res = await get('/.well-known/api-catalog');
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"');
    assert.match(String(res.headers.link), /<\/\.well-known\/api-catalog>; rel="api-catalog"/);
    const { linkset } = res.json();
    assert.equal(linkset.length, 1);
    assert.equal(linkset[0].anchor, doc.servers[0].url);
    assert.equal(linkset[0]['service-desc'][0].href, `${origin()}/api/v1/openapi.json`);
    for (const link of [...linkset[0]['service-desc'], ...linkset[0]['service-doc']]) {
      assert.equal((await get(link.href.slice(origin().length))).statusCode, 200, link.href);
    }
    const head = await t.request({ method: 'HEAD', url: '/.well-known/api-catalog' });
    assert.equal(head.statusCode, 200);
    assert.match(String(head.headers.link), /rel="api-catalog"/);
  });

  it('lists a route added anywhere without an edit in docs/, with its own page', async () => {
    const probe = await buildApp(testDeps(t.db, { config: { publicUrl: 'http://shop.example.com' } }));
    probe.get('/api/v1/probe-bookings/:id', {
      schema: { summary: 'Get a booking', description: 'One booking.', tags: ['Products'], params: Type.Object({ id: Type.String() }),
        response: { 200: Envelope(Type.Object({ id: Type.String(), email: Type.String({ format: 'email' }) }, { $id: 'ProbeBooking' })) } },
      config: { auth: { scope: 'products:read' } },
    }, async () => undefined);
    await probe.ready();
    try {
      const index = (await probe.inject({ method: 'GET', url: '/llms.txt' })).body;
      assert.ok(index.includes('- [Get a booking](http://shop.example.com/docs/operations/getProbeBookingsId.md): `GET /probe-bookings/{id}`. One booking.'), index);
      const page = await probe.inject({ method: 'GET', url: '/docs/operations/getProbeBookingsId.md' });
      assert.equal(page.statusCode, 200);
      assert.ok(jsonAfter(page.body, '## Response 200').data.email.includes('@'));
    } finally {
      await probe.close();
    }
  });
});
