import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client as McpClient, StreamableHTTPClientTransport, UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/client';
import { Client } from '@creator-commerce/sdk';
import { createKey, createTransaction } from '../testing/factories.ts';
import { authorizeAsCreator, startOAuthServer, type OAuthTestServer } from '../testing/oauth.ts';

/** GET /metrics/summary through the official SDK and through the MCP tool an assistant calls: the same numbers. */
let s: OAuthTestServer;
before(async () => { s = await startOAuthServer(); });
after(async () => { await s.close(); });

const redirectUrl = 'http://127.0.0.1:33419/callback';

async function connectAssistant(cookie: string) {
  const state: { client?: unknown; tokens?: unknown; verifier?: string; authUrl?: URL } = {};
  const provider = {
    get redirectUrl() { return redirectUrl; },
    get clientMetadata() {
      return { client_name: 'Numbers Assistant', redirect_uris: [redirectUrl], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
    },
    state: () => 'state-1',
    clientInformation: () => state.client as never,
    saveClientInformation: (info: unknown) => { state.client = info; },
    tokens: () => state.tokens as never,
    saveTokens: (tokens: unknown) => { state.tokens = tokens; },
    redirectToAuthorization: (url: URL) => { state.authUrl = url; },
    saveCodeVerifier: (v: string) => { state.verifier = v; },
    codeVerifier: () => state.verifier!,
  } as unknown as OAuthClientProvider;
  const mcpUrl = new URL(`${s.url}/api/mcp`);
  const first = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
  await assert.rejects(new McpClient({ name: 'test', version: '2' }).connect(first), UnauthorizedError);
  const { redirect } = await authorizeAsCreator(s, state.authUrl!.href, cookie, { decision: 'approve', mode: 'test', scopes: ['transactions:read'] });
  await first.finishAuth(redirect.searchParams.get('code')!, redirect.searchParams.get('iss')!);
  const client = new McpClient({ name: 'test', version: '2' });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
  return client;
}

describe('the metrics summary in the SDK and MCP', () => {
  it('answers the same numbers to client.metrics.summary() and the get_metrics_summary tool', async () => {
    const { cookie, brandId } = await s.signUp('plus');
    await createTransaction(s.db, { brandId, amount: 4200, currency: 'EUR' });
    await createTransaction(s.db, { brandId, amount: 1000, currency: 'EUR', mode: 'live' });
    const { key } = await createKey(s.db, brandId, { mode: 'test', scopes: ['transactions:read'] });

    const summary = await new Client({ apiKey: key, baseUrl: `${s.url}/api/v1` }).metrics.summary();
    assert.deepEqual(summary.revenue.map((r) => [r.currency, r.today.net, r.today.sales]), [['EUR', 42, 1]], 'test mode only, in its own currency');

    const assistant = await connectAssistant(cookie);
    const tool = (await assistant.listTools()).tools.find((t) => t.name === 'get_metrics_summary');
    assert.ok(tool, 'offered with transactions:read');
    assert.equal(tool.annotations?.readOnlyHint, true);
    const called = await assistant.callTool({ name: 'get_metrics_summary', arguments: {} });
    assert.equal(called.isError, undefined);
    const viaMcp = called.structuredContent as typeof summary;
    assert.deepEqual(viaMcp.revenue, summary.revenue);
    assert.deepEqual(viaMcp.recentSales.map((t) => t.txref), summary.recentSales.map((t) => t.txref));
    await assistant.close();
  });
});
