import assert from 'node:assert/strict';
import { Client, StreamableHTTPClientTransport, UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/client';
import { authorizeAsCreator, type OAuthTestServer } from './oauth.ts';

/** What an assistant's OAuth provider has been told: its registration, tokens, PKCE verifier and the last authorization URL it was sent to. */
export interface AssistantState { client?: unknown; tokens?: unknown; verifier?: string; authUrl?: URL }

/**
 * An OAuth client provider as an MCP SDK client (1.x or 2.x) uses it, for a public client
 * registered dynamically under `name`, keeping everything in `state` and recording the
 * authorization URL instead of opening a browser.
 */
export function assistantProvider(name: string, redirectUrl: string): { provider: OAuthClientProvider; state: AssistantState } {
  const state: AssistantState = {};
  const provider = {
    redirectUrl,
    clientMetadata: { client_name: name, redirect_uris: [redirectUrl], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' },
    state: () => 'state-1',
    clientInformation: () => state.client as never,
    saveClientInformation: (info: unknown) => { state.client = info; },
    tokens: () => state.tokens as never,
    saveTokens: (tokens: unknown) => { state.tokens = tokens; },
    redirectToAuthorization: (url: URL) => { state.authUrl = url; },
    saveCodeVerifier: (v: string) => { state.verifier = v; },
    codeVerifier: () => state.verifier!,
  } as unknown as OAuthClientProvider;
  return { provider, state };
}

export interface AssistantOptions {
  /** The client's name in its registration (what the consent page shows). */
  name: string;
  /** The scopes it asks for beside the challenge's read scopes, and the creator grants. */
  scopes: string[];
  redirectUrl?: string;
  /** With it, the client supports elicitation (form mode) and answers each question with it, as its user would. */
  answer?: (message: string) => { action: 'accept' | 'decline'; content?: Record<string, boolean> };
}

/**
 * The official MCP SDK client connected to `s` as an assistant connects: refused without a token,
 * registered and authorized through the OAuth flow by the creator signed in with `cookie`
 * (approving `scopes` in test mode), then connected with its token.
 */
export async function connectAssistant(s: OAuthTestServer, cookie: string, options: AssistantOptions): Promise<Client> {
  const { provider, state } = assistantProvider(options.name, options.redirectUrl ?? 'http://127.0.0.1:33418/callback');
  const mcpUrl = new URL(`${s.url}/api/mcp`);
  const first = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
  await assert.rejects(new Client({ name: 'test', version: '2' }).connect(first), UnauthorizedError);
  // The challenge asks for the read scopes (docs/oauth-mcp.md); a client that needs more asks for them.
  const asked = new Set([...(state.authUrl!.searchParams.get('scope') ?? '').split(' '), ...options.scopes]);
  state.authUrl!.searchParams.set('scope', [...asked].join(' '));
  const { redirect } = await authorizeAsCreator(s, state.authUrl!.href, cookie, { decision: 'approve', mode: 'test', scopes: options.scopes });
  await first.finishAuth(redirect.searchParams.get('code')!, redirect.searchParams.get('iss')!);
  // Elicitation is on the 2026-07-28 revision, whose requests carry the client's capabilities (mcp/confirm.ts).
  const { answer } = options;
  const client = new Client({ name: 'test', version: '2' }, answer ? { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: 'auto' } } : {});
  if (answer) client.setRequestHandler('elicitation/create', async (request) => answer((request.params as { message: string }).message));
  await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
  return client;
}
