import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError as UnauthorizedV1, type OAuthClientProvider as ProviderV1 } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2, UnauthorizedError as UnauthorizedV2, type OAuthClientProvider as ProviderV2 } from '@modelcontextprotocol/client';
import { readFileSync } from 'node:fs';
import { loadCatalog } from '../catalog/load.ts';
import { exampleCatalogPath } from '../cli/commands.ts';
import { cards, courseBody } from '../testing/checkout-fixtures.ts';
import { authorizeAsCreator, startOAuthServer, type ConsentChoice, type OAuthTestServer } from '../testing/oauth.ts';

let s: OAuthTestServer;
before(async () => {
  s = await startOAuthServer({ lookup: async (host) => (host === 'private.example.com' ? [{ address: '10.0.0.7', family: 4 }] : Promise.reject(new Error('ENOTFOUND'))) });
});
after(async () => { await s.close(); });

const redirectUrl = 'http://127.0.0.1:33418/callback';

/** An OAuthClientProvider as an MCP client app keeps one: in memory, "redirecting" by recording the URL. */
function memoryProvider() {
  const state: { client?: { client_id: string }; tokens?: { access_token: string; refresh_token?: string }; verifier?: string; authUrl?: URL } = {};
  const provider = {
    get redirectUrl() { return redirectUrl; },
    get clientMetadata() {
      return { client_name: 'Test Assistant', redirect_uris: [redirectUrl], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
    },
    state: () => 'state-123',
    clientInformation: () => state.client as never,
    saveClientInformation: (info: unknown) => { state.client = info as never; },
    tokens: () => state.tokens as never,
    saveTokens: (tokens: unknown) => { state.tokens = tokens as never; },
    redirectToAuthorization: (url: URL) => { state.authUrl = url; },
    saveCodeVerifier: (v: string) => { state.verifier = v; },
    codeVerifier: () => state.verifier!,
  };
  return { provider, state };
}

/** The whole flow with the 1.x SDK client: 401, discovery, registration, consent as the creator, token, connected client. */
async function connectV1(cookie: string, choice: ConsentChoice) {
  const { provider, state } = memoryProvider();
  const mcpUrl = new URL(`${s.url}/api/mcp`);
  const first = new TransportV1(mcpUrl, { authProvider: provider as unknown as ProviderV1 });
  await assert.rejects(new ClientV1({ name: 'test', version: '1' }).connect(first), UnauthorizedV1);
  assert.ok(state.authUrl, 'the client was sent to authorize');
  // The challenge asks for the read scopes and offline_access; a client wanting more up front
  // (instead of stepping up when a tool answers 403) adds them, as these tests' choices do.
  const asked = new Set([...(state.authUrl.searchParams.get('scope') ?? '').split(' '), ...(choice.scopes ?? [])]);
  state.authUrl.searchParams.set('scope', [...asked].join(' '));
  const { redirect, consentHtml } = await authorizeAsCreator(s, state.authUrl.href, cookie, choice);
  const code = redirect.searchParams.get('code');
  const client = new ClientV1({ name: 'test', version: '1' });
  if (code) {
    await first.finishAuth(code);
    await client.connect(new TransportV1(mcpUrl, { authProvider: provider as unknown as ProviderV1 }));
  }
  return { client, state, redirect, consentHtml, authUrl: state.authUrl };
}

const api = (path: string, token: string, init: RequestInit = {}) =>
  fetch(`${s.url}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...(init.body ? { 'content-type': 'application/json' } : {}), ...init.headers } });

const form = (path: string, body: Record<string, string>) =>
  fetch(`${s.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(body) });

const mcpStatus = (token: string) => fetch(`${s.url}/api/mcp`, {
  method: 'POST',
  headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
}).then((r) => r.status);

describe('discovery', () => {
  it('answers 401 with the resource metadata and every scope, and serves the metadata documents', async () => {
    const res = await fetch(`${s.url}/api/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(res.status, 401);
    const challenge = res.headers.get('www-authenticate')!;
    assert.match(challenge, new RegExp(`resource_metadata="${s.url}/.well-known/oauth-protected-resource/api/mcp"`));
    assert.match(challenge, /scope="products:read .*offline_access"/);
    const prm = await (await fetch(`${s.url}/.well-known/oauth-protected-resource/api/mcp`)).json();
    assert.equal(prm.resource, `${s.url}/api/mcp`);
    assert.deepEqual(prm.authorization_servers, [`${s.url}/oauth`]);
    assert.equal((await fetch(`${s.url}/.well-known/oauth-protected-resource`)).status, 200);
    for (const path of ['/.well-known/oauth-authorization-server/oauth', '/.well-known/openid-configuration/oauth', '/oauth/.well-known/openid-configuration']) {
      const meta = await (await fetch(`${s.url}${path}`)).json();
      assert.equal(meta.issuer, `${s.url}/oauth`, path);
      assert.deepEqual(meta.code_challenge_methods_supported, ['S256']);
      assert.deepEqual(meta.response_types_supported, ['code']);
      assert.equal(meta.authorization_response_iss_parameter_supported, true);
      assert.ok(meta.registration_endpoint && meta.revocation_endpoint);
      assert.ok(meta.scopes_supported.includes('offline_access') && meta.scopes_supported.includes('webhooks:write'));
      assert.ok(!meta.grant_types_supported.includes('implicit') && !meta.grant_types_supported.includes('password'));
    }
  });

  it('refuses a request from a page with no origin (Origin: null); another site\'s page needs a token', async () => {
    const res = await fetch(`${s.url}/api/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', origin: 'null' }, body: '{}' });
    assert.equal(res.status, 403);
    const other = await fetch(`${s.url}/api/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', origin: 'https://evil.example' }, body: '{}' });
    assert.equal(other.status, 401);
  });
});

describe('MCP over OAuth with the 1.x SDK client', () => {
  it('authorizes with PKCE, lists only granted tools, and a read and a write tool match REST', async () => {
    const { cookie } = await s.signUp('plus');
    const { client, redirect, authUrl, consentHtml, state } = await connectV1(cookie, { decision: 'approve', mode: 'test', scopes: ['products:read', 'webhooks:write'] });
    assert.equal(authUrl.searchParams.get('code_challenge_method'), 'S256');
    assert.equal(redirect.searchParams.get('state'), 'state-123');
    assert.equal(redirect.searchParams.get('iss'), `${s.url}/oauth`);
    assert.match(consentHtml, /Test Assistant/);
    assert.match(consentHtml, /Manage webhooks, see events and deliveries \(with members&#39; names and emails\), resend and send test events <code>\(webhooks:write\)<\/code><span class="tag">can make changes/);
    const names = (await client.listTools()).tools.map((t) => t.name);
    assert.ok(names.includes('list_products') && names.includes('create_webhook'));
    assert.ok(!names.includes('list_transactions') && !names.includes('create_payment_link'), names.join());
    const tool = (await client.listTools()).tools.find((t) => t.name === 'list_products')!;
    assert.equal(tool.annotations?.readOnlyHint, true);
    assert.ok(tool.outputSchema);

    const token = state.tokens!.access_token;
    const listed = await client.callTool({ name: 'list_products', arguments: {} });
    const rest = await (await api('/api/v1/products', token)).json();
    assert.deepEqual(listed.structuredContent, rest.data);

    const created = await client.callTool({ name: 'create_webhook', arguments: { url: 'http://127.0.0.1:9/hook', events: ['member.joined'] } });
    assert.ok(!created.isError, JSON.stringify(created.content));
    const id = (created.structuredContent as { id: string }).id;
    // A write tool passes an idempotency key through: the same key twice makes one endpoint.
    const once = { url: 'http://127.0.0.1:9/once', events: ['member.joined'], idempotencyKey: 'mcp-once-1' };
    const first = await client.callTool({ name: 'create_webhook', arguments: once });
    const again = await client.callTool({ name: 'create_webhook', arguments: once });
    assert.equal((again.structuredContent as { id: string }).id, (first.structuredContent as { id: string }).id);
    const onceUrls = ((await (await api('/api/v1/webhooks', token)).json()).data.items as { url: string }[]).filter((w) => w.url.endsWith('/once'));
    assert.equal(onceUrls.length, 1);
    const fetched = await client.callTool({ name: 'get_webhook', arguments: { id } });
    assert.deepEqual(fetched.structuredContent, (await (await api(`/api/v1/webhooks/${id}`, token)).json()).data);

    // A tool the grant hides answers 403 insufficient_scope (the client steps up, here in vain); the REST route refuses the same way.
    await assert.rejects(client.callTool({ name: 'list_transactions', arguments: {} }), /403/);
    const refused = await api('/api/v1/transactions', token);
    assert.equal(refused.status, 403);
    assert.equal((await refused.json()).data.code, 'scope_missing');
    await client.close();
  });

  it('sees only the mode chosen on the consent screen', async () => {
    const { cookie } = await s.signUp('plus');
    const { state } = await connectV1(cookie, { decision: 'approve', mode: 'test', scopes: ['webhooks:write'] });
    const token = state.tokens!.access_token;
    await api('/api/v1/webhooks', token, { method: 'POST', body: JSON.stringify({ url: 'http://127.0.0.1:9/hook', events: ['member.joined'] }) });
    const { state: live } = await connectV1(cookie, { decision: 'approve', mode: 'live', scopes: ['webhooks:write'] });
    const liveList = await (await api('/api/v1/webhooks', live.tokens!.access_token)).json();
    assert.equal(liveList.data.items.length, 0);
    assert.equal((await (await api('/api/v1/webhooks', token)).json()).data.items.length, 1);
  });

  it('"read only" grants only the read scopes asked for', async () => {
    const { cookie } = await s.signUp('plus');
    const { client } = await connectV1(cookie, { decision: 'read-only' });
    const names = (await client.listTools()).tools.map((t) => t.name);
    assert.ok(names.includes('list_transactions'));
    assert.ok(!names.includes('create_webhook') && !names.includes('create_payment_link'));
    await client.close();
  });

  it('rotates refresh tokens, and a reused refresh token revokes the grant', async () => {
    const { cookie } = await s.signUp('plus');
    const { state } = await connectV1(cookie, { decision: 'approve', scopes: ['products:read'] });
    const clientId = state.client!.client_id;
    const first = state.tokens!.refresh_token!;
    assert.ok(first, 'offline_access gave a refresh token');
    const refreshed = await (await form('/oauth/token', { grant_type: 'refresh_token', refresh_token: first, client_id: clientId })).json();
    assert.ok(refreshed.access_token && refreshed.refresh_token && refreshed.refresh_token !== first);
    assert.equal(refreshed.expires_in, 3600);
    assert.equal(await mcpStatus(refreshed.access_token), 200);
    const reused = await form('/oauth/token', { grant_type: 'refresh_token', refresh_token: first, client_id: clientId });
    assert.equal((await reused.json()).error, 'invalid_grant');
    assert.equal(await mcpStatus(refreshed.access_token), 401);
    const next = await form('/oauth/token', { grant_type: 'refresh_token', refresh_token: refreshed.refresh_token, client_id: clientId });
    assert.equal((await next.json()).error, 'invalid_grant');
  });

  it('revokes a token at the revocation endpoint', async () => {
    const { cookie } = await s.signUp('plus');
    const { state } = await connectV1(cookie, { decision: 'approve', scopes: ['products:read'] });
    const token = state.tokens!.access_token;
    assert.equal((await api('/api/v1/products', token)).status, 200);
    // Another client cannot revoke it: the answer is still 200 (RFC 7009) and the token still works.
    const other = await (await fetch(`${s.url}/oauth/reg`, { method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Other', redirect_uris: [redirectUrl], token_endpoint_auth_method: 'none' }) })).json();
    assert.equal((await form('/oauth/token/revocation', { token, client_id: other.client_id })).status, 200);
    assert.equal((await api('/api/v1/products', token)).status, 200);
    assert.equal((await form('/oauth/token/revocation', { token, client_id: state.client!.client_id })).status, 200);
    assert.equal((await api('/api/v1/products', token)).status, 401);
  });

  it('lists the app in the dashboard and cuts it off at once on Disconnect', async () => {
    const { cookie, csrfToken } = await s.signUp('plus');
    const { state, client } = await connectV1(cookie, { decision: 'approve', scopes: ['products:read'] });
    const token = state.tokens!.access_token;
    await client.callTool({ name: 'list_products', arguments: {} });
    const apps = await (await fetch(`${s.url}/dashboard/api/apps`, { headers: { cookie } })).json();
    assert.equal(apps.data.items.length, 1);
    const app = apps.data.items[0];
    assert.equal(app.name, 'Test Assistant');
    assert.deepEqual(app.scopes, ['products:read']);
    assert.equal(app.mode, 'live');
    assert.equal(app.offline, true);
    assert.ok(app.lastUsedAt);
    // Its recent calls: written after each response, so looked for until they appear.
    let calls: { method: string; path: string; status: number; at: string }[] = [];
    for (let i = 0; i < 100 && !calls.some((c) => c.path === '/api/mcp' && c.status === 200); i++) {
      calls = (await (await fetch(`${s.url}/dashboard/api/apps`, { headers: { cookie } })).json()).data.items[0].recentCalls;
      if (!calls.length) await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(calls.some((c) => c.method === 'POST' && c.path === '/api/mcp' && c.status === 200 && !Number.isNaN(Date.parse(c.at))), JSON.stringify(calls));
    const noCsrf = await fetch(`${s.url}/dashboard/api/apps/${app.id}`, { method: 'DELETE', headers: { cookie } });
    assert.equal(noCsrf.status, 403);
    const gone = await fetch(`${s.url}/dashboard/api/apps/${app.id}`, { method: 'DELETE', headers: { cookie, 'x-csrf-token': csrfToken } });
    assert.equal(gone.status, 200);
    assert.equal(await mcpStatus(token), 401);
    await assert.rejects(client.listTools());
    const refresh = await form('/oauth/token', { grant_type: 'refresh_token', refresh_token: state.tokens!.refresh_token!, client_id: state.client!.client_id });
    assert.equal((await refresh.json()).error, 'invalid_grant');
    assert.equal((await (await fetch(`${s.url}/dashboard/api/apps`, { headers: { cookie } })).json()).data.items.length, 0);
  });

  it('a Free brand gets access_denied whatever is clicked, and a downgrade cuts tokens off', async () => {
    const free = await s.signUp('free');
    const { redirect, consentHtml } = await connectV1(free.cookie, { decision: 'approve' });
    assert.match(consentHtml, /Connecting apps needs Plus/);
    assert.equal(redirect.searchParams.get('error'), 'access_denied');
    assert.equal(redirect.searchParams.get('state'), 'state-123');

    const plus = await s.signUp('plus');
    const { state } = await connectV1(plus.cookie, { decision: 'approve', scopes: ['products:read'] });
    assert.equal(await mcpStatus(state.tokens!.access_token), 200);
    await s.db.query("UPDATE brands SET plan = 'free' WHERE id = $1", [plus.brandId]);
    assert.equal(await mcpStatus(state.tokens!.access_token), 401);
  });

  it('Deny sends the app access_denied', async () => {
    const { cookie } = await s.signUp('plus');
    const { redirect } = await connectV1(cookie, { decision: 'deny' });
    assert.equal(redirect.searchParams.get('error'), 'access_denied');
  });

  it('refuses a token issued for another audience', async () => {
    const { cookie } = await s.signUp('plus');
    const { state } = await connectV1(cookie, { decision: 'approve', scopes: ['products:read'] });
    const token = state.tokens!.access_token;
    const hash = createHash('sha256').update(token).digest('base64url');
    await s.db.query(`UPDATE oauth_records SET payload = jsonb_set(payload, '{aud}', '"https://other.example/api"') WHERE kind = 'AccessToken' AND id = $1`, [hash]);
    assert.equal((await api('/api/v1/products', token)).status, 401);
  });
});

describe('MCP with the 2.x SDK client', () => {
  it('goes through the same flow and calls a tool', async () => {
    const { cookie } = await s.signUp('plus');
    const { provider, state } = memoryProvider();
    const mcpUrl = new URL(`${s.url}/api/mcp`);
    const first = new TransportV2(mcpUrl, { authProvider: provider as unknown as ProviderV2 });
    await assert.rejects(new ClientV2({ name: 'test', version: '2' }).connect(first), UnauthorizedV2);
    const { redirect } = await authorizeAsCreator(s, state.authUrl!.href, cookie, { decision: 'approve', scopes: ['products:read'] });
    await first.finishAuth(redirect.searchParams.get('code')!, redirect.searchParams.get('iss')!);
    const client = new ClientV2({ name: 'test', version: '2' });
    await client.connect(new TransportV2(mcpUrl, { authProvider: provider as unknown as ProviderV2 }));
    const names = (await client.listTools()).tools.map((t) => t.name);
    assert.ok(names.includes('get_product') && !names.includes('create_webhook'));
    const result = await client.callTool({ name: 'list_products', arguments: {} });
    assert.ok(Array.isArray((result.structuredContent as { items: unknown[] }).items));
    await client.close();
  });
});

describe('authorization requests OAuth 2.1 refuses', () => {
  async function registered() {
    const res = await fetch(`${s.url}/oauth/reg`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_name: 'Raw', redirect_uris: [redirectUrl], token_endpoint_auth_method: 'none' }) });
    assert.equal(res.status, 201);
    return (await res.json()).client_id as string;
  }
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const authorize = async (params: Record<string, string>) => {
    const res = await fetch(`${s.url}/oauth/auth?${new URLSearchParams({ response_type: 'code', redirect_uri: redirectUrl, state: 'x', ...params })}`, { redirect: 'manual' });
    return { status: res.status, location: res.headers.get('location') ?? '', body: res.status === 200 || res.status === 400 ? await res.text() : '' };
  };

  it('requires PKCE S256', async () => {
    const clientId = await registered();
    const none = await authorize({ client_id: clientId });
    assert.match(none.location, /error=invalid_request/);
    const plain = await authorize({ client_id: clientId, code_challenge: verifier, code_challenge_method: 'plain' });
    assert.match(plain.location, /error=invalid_request/);
  });

  it('refuses implicit, an unregistered redirect URI and a foreign resource', async () => {
    const clientId = await registered();
    const implicit = await authorize({ client_id: clientId, response_type: 'token', code_challenge: challenge, code_challenge_method: 'S256' });
    assert.ok(/unsupported_response_type/.test(implicit.location + implicit.body), implicit.location);
    const other = await authorize({ client_id: clientId, redirect_uri: 'http://evil.example/cb', code_challenge: challenge, code_challenge_method: 'S256' });
    assert.equal(other.status, 400);
    assert.ok(!other.location.includes('evil.example'));
    const foreign = await authorize({ client_id: clientId, resource: 'https://other.example/api', code_challenge: challenge, code_challenge_method: 'S256' });
    assert.match(foreign.location, /error=invalid_target/);
  });

  it('offers the read scopes to a client that asks for none', async () => {
    const clientId = await registered();
    const { cookie } = await s.signUp('plus');
    const url = `${s.url}/oauth/auth?${new URLSearchParams({ client_id: clientId, response_type: 'code', redirect_uri: redirectUrl, state: 'x', code_challenge: challenge, code_challenge_method: 'S256' })}`;
    const { redirect, consentHtml } = await authorizeAsCreator(s, url, cookie, { decision: 'approve' });
    const offered = [...consentHtml.matchAll(/name="scope" value="([^"]+)"/g)].map((m) => m[1]);
    assert.deepEqual(offered, ['products:read', 'customers:read', 'transactions:read']);
    const code = redirect.searchParams.get('code')!;
    const token = await (await form('/oauth/token', { grant_type: 'authorization_code', code, redirect_uri: redirectUrl, client_id: clientId, code_verifier: verifier })).json();
    assert.equal(token.scope, 'products:read customers:read transactions:read');
    assert.equal(token.expires_in, 3600);
    assert.equal((await api('/api/v1/transactions', token.access_token)).status, 200);
    // A code works once; using it again also revokes what it gave (RFC 6749 §4.1.2).
    const reused = await form('/oauth/token', { grant_type: 'authorization_code', code, redirect_uri: redirectUrl, client_id: clientId, code_verifier: verifier });
    assert.equal((await reused.json()).error, 'invalid_grant');
    assert.equal((await api('/api/v1/transactions', token.access_token)).status, 401);
  });

  it('refuses a wrong PKCE verifier', async () => {
    const clientId = await registered();
    const { cookie } = await s.signUp('plus');
    const url = `${s.url}/oauth/auth?${new URLSearchParams({ client_id: clientId, response_type: 'code', redirect_uri: redirectUrl, state: 'x', code_challenge: challenge, code_challenge_method: 'S256' })}`;
    const { redirect } = await authorizeAsCreator(s, url, cookie, { decision: 'approve' });
    const res = await form('/oauth/token', { grant_type: 'authorization_code', code: redirect.searchParams.get('code')!, redirect_uri: redirectUrl, client_id: clientId, code_verifier: randomBytes(32).toString('base64url') });
    assert.equal((await res.json()).error, 'invalid_grant');
  });

  it('refuses to register a plain-http redirect URI that is not loopback', async () => {
    const res = await fetch(`${s.url}/oauth/reg`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: ['http://app.example.com/cb'] }) });
    assert.equal(res.status, 400);
    assert.equal((await res.json()).error, 'invalid_redirect_uri');
  });

  it('does not fetch a client metadata document at a private address', async () => {
    const res = await authorize({ client_id: 'https://private.example.com/client.json', code_challenge: challenge, code_challenge_method: 'S256' });
    assert.equal(res.status, 400);
    assert.match(res.body, /client/i);
  });
});

describe('attribution to the app', () => {
  it('records the app on the payment links it creates, their payments and the events they raise', async () => {
    const { cookie, brandId } = await s.signUp('plus');
    const ids = await s.db.transaction((tx) => loadCatalog(tx, brandId, JSON.parse(readFileSync(exampleCatalogPath, 'utf8'))));
    const { state } = await connectV1(cookie, { decision: 'approve', mode: 'test', scopes: ['checkout:write', 'webhooks:write', 'customers:write'] });
    const token = state.tokens!.access_token;
    const appId = state.client!.client_id;
    const created = await api('/api/v1/payment-links', token, { method: 'POST', body: JSON.stringify(courseBody(ids)) });
    assert.equal(created.status, 200, await created.clone().text());
    const link = (await created.json()).data as { id: string; link: string };
    const [row] = await s.db.query<{ via: string; app_id: string }>('SELECT via, app_id FROM payment_links WHERE id = $1', [link.id]);
    assert.deepEqual({ ...row }, { via: 'oauth', app_id: appId });

    // The buyer pays on the hosted page: the transaction and its event carry the app on.
    const paid = await s.app.inject({ method: 'POST', url: `${new URL(link.link).pathname}/pay`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ card: cards.ok }).toString() });
    assert.ok(paid.statusCode < 400, paid.body);
    const [txn] = await s.db.query<{ app_id: string }>('SELECT app_id FROM transactions WHERE payment_link_id = $1', [link.id]);
    assert.equal(txn.app_id, appId);
    const events = (await (await api('/api/v1/events?type=transaction.succeeded', token)).json()).data.items as { appId?: string }[];
    assert.equal(events.length, 1);
    assert.equal(events[0].appId, appId);
    const joined = (await (await api('/api/v1/events?type=member.joined', token)).json()).data.items as { appId?: string; data: { membershipId: string } }[];
    assert.equal(joined.length, 1);
    assert.equal(joined[0].appId, appId, 'the membership the payment granted is the app\'s doing too');

    // The app removes the member: the removal is the app's. The same through a key is nobody's app.
    const cancelled = await api(`/api/v1/memberships/${joined[0].data.membershipId}/cancel`, token, { method: 'POST', body: JSON.stringify({ atPeriodEnd: false }) });
    assert.equal(cancelled.status, 200, await cancelled.clone().text());
    const removed = (await (await api('/api/v1/events?type=member.removed', token)).json()).data.items as { appId?: string }[];
    assert.deepEqual(removed.map((e) => e.appId), [appId]);
  });
});
