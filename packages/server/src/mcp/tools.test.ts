import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2, UnauthorizedError as UnauthorizedV2 } from '@modelcontextprotocol/client';
import { scopes } from '../auth/principal.ts';
import { eventTypes } from '../events/types.ts';
import { authorizeAsCreator, startOAuthServer, type OAuthTestServer } from '../testing/oauth.ts';
import { assistantProvider } from '../testing/mcp-assistant.ts';
import { isIdArgument } from './catalog.ts';

/**
 * The MCP tools as an assistant sees them (issue 27, item 6), through the real MCP SDK clients
 * 1.x and 2.x: hubs and catalog writes, described id arguments, event types as an enum, marketing
 * fields hidden, annotations, and the lean tools/list profile.
 */
let s: OAuthTestServer;
/** A token holding every scope. */
let all: string;
before(async () => {
  s = await startOAuthServer();
  all = await token([...scopes]);
});
after(async () => { await s.close(); });

const loopback = 'http://127.0.0.1:33418/callback';
const verifier = randomBytes(32).toString('base64url');
const challenge = createHash('sha256').update(verifier).digest('base64url');
const form = (path: string, body: Record<string, string>) =>
  fetch(`${s.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(body) });

/** An access token for a new Plus creator's app, approved with the scopes given. */
async function token(scope: string[]) {
  const { cookie } = await s.signUp('plus');
  const reg = await fetch(`${s.url}/oauth/reg`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_name: 'Tool Tester', redirect_uris: [loopback], token_endpoint_auth_method: 'none' }) });
  const { client_id: clientId } = await reg.json() as { client_id: string };
  const auth = `${s.url}/oauth/auth?${new URLSearchParams({ client_id: clientId, response_type: 'code', redirect_uri: loopback, state: 's', code_challenge: challenge, code_challenge_method: 'S256', scope: [...scope, 'offline_access'].join(' ') })}`;
  const { redirect } = await authorizeAsCreator(s, auth, cookie, { decision: 'approve', mode: 'test', scopes: scope });
  const tokens = await (await form('/oauth/token', { grant_type: 'authorization_code', code: redirect.searchParams.get('code')!, redirect_uri: loopback, client_id: clientId, code_verifier: verifier })).json() as { access_token: string };
  assert.ok(tokens.access_token);
  return tokens.access_token;
}

async function clients(accessToken: string, query = '') {
  const url = new URL(`${s.url}/api/mcp${query}`);
  const requestInit = { headers: { authorization: `Bearer ${accessToken}` } };
  const v1 = new ClientV1({ name: 'tools-test', version: '1' });
  await v1.connect(new TransportV1(url, { requestInit }));
  const v2 = new ClientV2({ name: 'tools-test', version: '2' });
  await v2.connect(new TransportV2(url, { requestInit }));
  return { v1, v2 };
}

/** The raw `tools/list` answer's size in bytes, as a client receives it. */
async function listBytes(accessToken: string, query = '') {
  const res = await fetch(`${s.url}/api/mcp${query}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
  assert.equal(res.status, 200);
  const text = await res.text();
  // The answer may come as one server-sent event: count its JSON only.
  const json = text.startsWith('event:') || text.startsWith('data:') ? text.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join('') : text;
  return { bytes: Buffer.byteLength(json), tools: (JSON.parse(json) as { result: { tools: { name: string }[] } }).result.tools };
}

type Tool = Awaited<ReturnType<ClientV2['listTools']>>['tools'][number];
const props = (tool: Tool) => (tool.inputSchema as { properties: Record<string, Record<string, any>> }).properties;

describe('the MCP tools', () => {
  it('lists and gets hubs, and creates and changes products and hubs with products:write, through both SDKs', async () => {
    const { v1, v2 } = await clients(all);
    for (const client of [v1, v2]) {
      const names = (await client.listTools()).tools.map((t) => t.name);
      for (const name of ['list_hubs', 'get_hub', 'create_product', 'update_product', 'create_hub', 'update_hub']) assert.ok(names.includes(name), name);
    }
    const hub = await v2.callTool({ name: 'create_hub', arguments: { name: 'Studio Club', tiers: [{ name: 'Free member', price: { amount: 0, currency: 'USD' } }], idempotencyKey: 'hub-1' } });
    assert.equal(hub.isError, undefined, JSON.stringify(hub.content));
    const hubId = (hub.structuredContent as { id: string }).id;
    const listed = await v1.callTool({ name: 'list_hubs', arguments: {} });
    assert.ok((listed.structuredContent as { items: { id: string }[] }).items.some((h) => h.id === hubId));
    const got = await v1.callTool({ name: 'get_hub', arguments: { id: hubId } });
    assert.equal((got.structuredContent as { tiers: { name: string }[] }).tiers[0]!.name, 'Free member');
    const renamed = await v2.callTool({ name: 'update_hub', arguments: { id: hubId, description: 'Painting together, weekly.' } });
    assert.equal((renamed.structuredContent as { description: string }).description, 'Painting together, weekly.');

    const product = await v2.callTool({ name: 'create_product', arguments: {
      type: 'course', title: 'Inking basics', items: [{ ref: 'lesson-1', type: 'lesson', title: 'Pens' }],
      tiers: [{ name: 'Standard', price: { amount: 30, currency: 'USD' }, itemIDs: ['lesson-1'] }],
    } });
    assert.equal(product.isError, undefined, JSON.stringify(product.content));
    const created = product.structuredContent as { id: string; tiers: { id: string }[] };
    const updated = await v1.callTool({ name: 'update_product', arguments: { id: created.id, title: 'Inking basics, revised' } });
    assert.equal((updated.structuredContent as { title: string }).title, 'Inking basics, revised');
    const bad = await v2.callTool({ name: 'update_product', arguments: { id: created.id, hubID: 'hub_nosuchhub' } });
    assert.equal(bad.isError, true);
    assert.match((bad.content as { text: string }[])[0]!.text, /hubID/, 'the route\'s own refusal, naming the field');
    await v1.close();
    await v2.close();
  });

  it('hides the catalog writes from a token without products:write, and lists hubs with products:read', async () => {
    const reader = await token(['products:read']);
    const { v1, v2 } = await clients(reader);
    for (const client of [v1, v2]) {
      const names = (await client.listTools()).tools.map((t) => t.name);
      assert.ok(names.includes('list_hubs') && names.includes('get_hub'));
      for (const name of ['create_product', 'update_product', 'create_hub', 'update_hub']) assert.ok(!names.includes(name), name);
    }
    await v1.close();
    await v2.close();
  });

  it('describes every id argument: what it is and which tool finds one', async () => {
    const { v1, v2 } = await clients(all);
    const tools = (await v2.listTools()).tools;
    const problems: string[] = [];
    for (const tool of tools) {
      for (const [name, schema] of Object.entries(props(tool))) {
        if (!isIdArgument(name)) continue;
        if (!/`[a-z]+_…`/.test(schema.description ?? '') || !/\b(list|get|create|import)_[a-z_]+/.test(schema.description ?? '')) {
          problems.push(`${tool.name}.${name}: add its collection or name to idDescriptions in mcp/tools.ts`);
        }
      }
    }
    assert.deepEqual(problems, []);
    const member = props(tools.find((t) => t.name === 'get_hub_member')!);
    assert.match(member.hubID!.description, /^The hub's id \(`hub_…`\): list_hubs/);
    assert.match(member.id!.description, /^The membership's id \(`mem_…`\)/);
    assert.match(props(tools.find((t) => t.name === 'get_transaction')!).id!.description, /txref \(`txn_…`\): list_transactions/);
    // The 1.x client sees the same.
    assert.deepEqual(props((await v1.listTools()).tools.find((t) => t.name === 'get_hub_member')! as Tool).hubID, member.hubID);
    await v1.close();
    await v2.close();
  });

  it('offers event types as an enum, says create_payment_link takes 1 to 20 items, and hides marketing fields', async () => {
    const { v1, v2 } = await clients(all);
    const tools = (await v1.listTools()).tools as Tool[];
    const tool = (name: string) => tools.find((t) => t.name === name)!;
    assert.deepEqual(props(tool('list_events')).type!.enum, [...eventTypes]);
    assert.deepEqual(props(tool('list_deliveries')).eventType!.enum, [...eventTypes]);
    assert.deepEqual(props(tool('create_webhook')).events!.items.enum, [...eventTypes]);
    assert.deepEqual(props(tool('update_webhook')).events!.items.enum, [...eventTypes]);
    assert.deepEqual(props(tool('send_test_event')).eventType!.enum, [...eventTypes]);
    assert.match(tool('create_payment_link').description ?? '', /1 to 20 items/);
    const link = props(tool('create_payment_link'));
    for (const hidden of ['utmRef', 'adClickID', 'adType', 'checkoutOtpVerificationSkipped', 'receive_emails']) assert.ok(!(hidden in link), `${hidden} is hidden`);
    for (const kept of ['items', 'form', 'metadata', 'redirectUrl', 'idempotencyKey']) assert.ok(kept in link, `${kept} is offered`);
    // A wrong event type is refused before the route runs, by the client's own SDK or the server.
    const wrong = await v2.callTool({ name: 'list_events', arguments: { type: 'order.placed' } }).catch((err: Error) => ({ isError: true, content: [{ text: err.message }] }));
    assert.equal(wrong.isError, true);
    const right = await v2.callTool({ name: 'list_events', arguments: { type: 'member.joined' } });
    assert.equal(right.isError, undefined);
    await v1.close();
    await v2.close();
  });

  it('annotates reads, additive writes, destructive writes and tools that reach outside', async () => {
    const { v1, v2 } = await clients(all);
    const tools = (await v2.listTools()).tools;
    const hints = (name: string) => tools.find((t) => t.name === name)!.annotations!;
    for (const name of ['list_products', 'get_hub', 'list_events', 'get_transaction']) {
      assert.equal(hints(name).readOnlyHint, true, name);
      assert.equal(hints(name).destructiveHint, undefined, `${name}: destructiveHint means nothing on a read`);
    }
    for (const name of ['create_product', 'create_hub', 'create_payment_link', 'import_hub_members', 'resend_delivery']) {
      assert.equal(hints(name).readOnlyHint, false, name);
      assert.equal(hints(name).destructiveHint, false, `${name} only adds`);
    }
    for (const name of ['update_product', 'update_hub', 'update_webhook', 'delete_webhook', 'cancel_membership', 'remove_hub_member', 'refund_transaction', 'update_brand']) {
      assert.equal(hints(name).destructiveHint, true, name);
    }
    for (const name of ['refund_transaction', 'verify_payment', 'send_test_event', 'resend_delivery', 'create_webhook']) assert.equal(hints(name).openWorldHint, true, name);
    for (const name of ['list_products', 'create_product', 'pay_test_payment_link', 'delete_webhook']) assert.equal(hints(name).openWorldHint, false, name);
    assert.deepEqual((await v1.listTools()).tools.find((t) => t.name === 'update_hub')!.annotations, hints('update_hub'));
    await v1.close();
    await v2.close();
  });

  it('halves tools/list with ?profile=lean, keeping every tool, its input and structured output', async () => {
    const full = await listBytes(all);
    const lean = await listBytes(all, '?profile=lean');
    const header = await fetch(`${s.url}/api/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${all}`, 'mcp-profile': 'lean', 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    if (process.env.MCP_DUMP) (await import('node:fs')).writeFileSync(process.env.MCP_DUMP, JSON.stringify({ full: full.tools, lean: lean.tools }));
    console.log(`tools/list with every scope: ${full.bytes} bytes full, ${lean.bytes} bytes lean (${full.tools.length} tools)`);
    assert.ok(lean.bytes * 2 <= full.bytes, `lean ${lean.bytes} B is at most half of full ${full.bytes} B`);
    assert.deepEqual(lean.tools.map((t) => t.name), full.tools.map((t) => t.name));
    assert.ok(Buffer.byteLength(await header.text()) < full.bytes, 'the MCP-Profile header asks for it too');

    const { v1, v2 } = await clients(all, '?profile=lean');
    for (const client of [v1, v2]) {
      const tools = (await client.listTools()).tools as Tool[];
      // Arguments keep their descriptions and constraints; only nested descriptions go.
      const fullInput = props(full.tools.find((t) => t.name === 'get_hub_member') as unknown as Tool);
      assert.deepEqual(props(tools.find((t) => t.name === 'get_hub_member')!), fullInput);
      const link = props(tools.find((t) => t.name === 'create_payment_link')!);
      assert.equal(link.items!.maxItems, 20);
      assert.match(link.metadata!.description ?? '', /Up to 50 string keys/);
      assert.equal(link.items!.items.properties.id.description, undefined, 'a nested description goes');
      assert.ok(tools.find((t) => t.name === 'list_products')!.outputSchema, 'output schemas stay');
    }
    // Structured output still comes, and each SDK checks it against the lean output schema.
    const hub = await v2.callTool({ name: 'create_hub', arguments: { name: 'Lean Club', tiers: [{ name: 'Free', price: { amount: 0, currency: 'USD' } }] } });
    const hubId = (hub.structuredContent as { id: string }).id;
    for (const client of [v1, v2]) {
      const got = await client.callTool({ name: 'get_hub', arguments: { id: hubId } });
      assert.equal((got.structuredContent as { name: string; tiers: { price: { currency: string } }[] }).tiers[0]!.price.currency, 'USD');
    }
    await v1.close();
    await v2.close();
  });

  it('goes through OAuth discovery from the lean URL with the 2.x SDK client, for a token of the /api/mcp resource', async () => {
    const { cookie } = await s.signUp('plus');
    const { provider, state } = assistantProvider('Lean Assistant', loopback);
    const url = new URL(`${s.url}/api/mcp?profile=lean`);
    const first = new TransportV2(url, { authProvider: provider });
    await assert.rejects(new ClientV2({ name: 'lean', version: '2' }).connect(first), UnauthorizedV2);
    assert.equal(state.authUrl!.searchParams.get('resource'), `${s.url}/api/mcp`, 'the resource is the MCP endpoint, without the profile');
    const { redirect } = await authorizeAsCreator(s, state.authUrl!.href, cookie, { decision: 'approve', scopes: ['products:read'] });
    await first.finishAuth(redirect.searchParams.get('code')!, redirect.searchParams.get('iss')!);
    const client = new ClientV2({ name: 'lean', version: '2' });
    await client.connect(new TransportV2(url, { authProvider: provider }));
    const tools = (await client.listTools()).tools;
    assert.deepEqual((tools.find((t) => t.name === 'get_hub')!.outputSchema as { properties: Record<string, unknown> }).properties.tiers, { type: 'array' }, 'the lean schemas');
    await client.close();
  });
});
