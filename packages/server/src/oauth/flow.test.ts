import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError as UnauthorizedV1 } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientProvider as ProviderV1 } from '@modelcontextprotocol/sdk/client/auth.js';
import { createBrandWithCatalog } from '../testing/factories.ts';
import { authorizeAsCreator, startOAuthServer, type ConsentChoice, type OAuthTestServer } from '../testing/oauth.ts';

let s: OAuthTestServer;
before(async () => { s = await startOAuthServer(); });
after(async () => { await s.close(); });

const redirectUrl = 'http://127.0.0.1:33418/callback';

/** An OAuthClientProvider as an MCP client app keeps one: in memory, redirecting by recording the URL. */
function memoryProvider(scope?: string) {
  const state: { client?: unknown; tokens?: unknown; verifier?: string; authUrl?: URL } = {};
  const provider = {
    get redirectUrl() { return redirectUrl; },
    get clientMetadata() {
      return { client_name: 'Test Assistant', redirect_uris: [redirectUrl], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none', ...(scope ? { scope } : {}) };
    },
    state: () => 'state-123',
    clientInformation: () => state.client as never,
    saveClientInformation: (info: unknown) => { state.client = info; },
    tokens: () => state.tokens as never,
    saveTokens: (tokens: unknown) => { state.tokens = tokens; },
    redirectToAuthorization: (url: URL) => { state.authUrl = url; },
    saveCodeVerifier: (v: string) => { state.verifier = v; },
    codeVerifier: () => state.verifier!,
  };
  return { provider, state };
}

async function connectV1(brandCookie: string, choice: ConsentChoice, scope?: string) {
  const { provider, state } = memoryProvider(scope);
  const mcpUrl = new URL(`${s.url}/api/mcp`);
  const first = new TransportV1(mcpUrl, { authProvider: provider as unknown as ProviderV1 });
  const client = new ClientV1({ name: 'test', version: '1' });
  await assert.rejects(client.connect(first), UnauthorizedV1);
  assert.ok(state.authUrl, 'the client was sent to authorize');
  const { redirect, consentHtml } = await authorizeAsCreator(s, state.authUrl.href, brandCookie, choice);
  const code = redirect.searchParams.get('code');
  if (code) await first.finishAuth(code);
  const transport = new TransportV1(mcpUrl, { authProvider: provider as unknown as ProviderV1 });
  const connected = new ClientV1({ name: 'test', version: '1' });
  if (code) await connected.connect(transport);
  return { client: connected, state, redirect, consentHtml, authUrl: state.authUrl };
}

describe('MCP over OAuth with the 1.x SDK client', () => {
  it('discovers, registers, authorizes with PKCE and lists the tools the scopes allow', async () => {
    const { brand } = await createBrandWithCatalog(s.db, { plan: 'plus' });
    const { cookie } = s.signIn({ userId: 'usr_test1', brandId: brand.id });
    const { client, redirect, authUrl } = await connectV1(cookie, { decision: 'approve', scopes: ['products:read', 'checkout:write'] });
    assert.equal(authUrl.searchParams.get('code_challenge_method'), 'S256');
    assert.equal(redirect.searchParams.get('state'), 'state-123');
    assert.equal(redirect.searchParams.get('iss'), `${s.url}/oauth`);
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name).sort();
    assert.ok(names.includes('list_products'));
    assert.ok(names.includes('create_payment_link'));
    assert.ok(!names.includes('list_transactions'));
    const listed = await client.callTool({ name: 'list_products', arguments: {} });
    assert.ok(!listed.isError, JSON.stringify(listed));
    await client.close();
  });
});
