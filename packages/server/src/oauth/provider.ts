/// <reference path="./provider-types.d.ts" />
import type { default as Provider, errors as ProviderErrors, KoaContextWithOIDC, ProviderClient } from 'oidc-provider';
import type { Deps } from '../deps.ts';
import { esc, layout } from '../pages/html.ts';
import type { Queryable } from '../db/client.ts';
import { checkEndpointUrl, type Lookup } from '../security/url-guard.ts';
import { cookieKeys, signingKeys } from './keys.ts';
import { adapterClass } from './repository.ts';
import { defaultScopes, grantableScopes, requestableScopes } from './scopes.ts';

/** Where the authorization server lives under PUBLIC_URL; its issuer is PUBLIC_URL + this. */
export const oauthPath = '/oauth';

export const issuerOf = (publicUrl: string) => `${publicUrl}${oauthPath}`;

/** The resources a token can be for (RFC 8707): the MCP endpoint and the REST API. */
export function ourResources(publicUrl: string) {
  return { mcp: `${publicUrl}/api/mcp`, rest: `${publicUrl}/api/v1` };
}

/**
 * Whether `resource` names this server. The two paths are the resources we advertise; the bare
 * origin is what a client that found only the root protected-resource metadata asks for.
 */
export function isOurResource(publicUrl: string, resource: string): boolean {
  const r = ourResources(publicUrl);
  return [r.mcp, r.rest, publicUrl, `${publicUrl}/`].includes(resource);
}

const hour = 3600;
const day = 24 * hour;

/**
 * The OAuth 2.1 authorization server: oidc-provider (certified), configured to what we promise
 * in docs/oauth-mcp.md. Only the authorization code flow with PKCE S256; tokens are opaque and
 * stored (hashed) in oauth_records, so the bearer resolver can check them, and their grant, on
 * every request in any process.
 */
export async function buildProvider(deps: Deps): Promise<Provider> {
  const serverKey = deps.secrets.webhookKey;
  return configuredProvider({
    db: deps.db, publicUrl: deps.config.publicUrl, lookup: deps.lookup,
    jwks: await signingKeys(deps.db, serverKey, deps.log), cookieKeys: cookieKeys(serverKey),
  });
}

/** The server's provider, built by the first call (the first request under /oauth) and shared; a failed build is tried again next time. */
export function providerOnFirstUse(deps: Deps): () => Promise<Provider> {
  let provider: Promise<Provider> | undefined;
  return () => (provider ??= buildProvider(deps).catch((err: unknown) => {
    provider = undefined;
    throw err;
  }));
}

/**
 * The provider with every setting we promise; the server builds it with its kept keys, and the
 * CLI's `oauth client create` with throwaway ones, only to validate and store a client exactly as
 * dynamic registration does (oauth/clients.ts).
 *
 * oidc-provider (with Koa and jose under it) is imported here, not at the top: loading it was a
 * tenth of the embedded server's cold start, and most runs never see an OAuth request. The server
 * builds its provider on the first request under /oauth (oauth/routes.ts).
 */
export async function configuredProvider(options: { db: Queryable; publicUrl: string; lookup: Lookup; jwks: { keys: Record<string, unknown>[] }; cookieKeys: string[] }): Promise<Provider> {
  const { default: Provider, errors } = await import('oidc-provider');
  const { publicUrl } = options;
  const resources = ourResources(publicUrl);
  const deps = { lookup: options.lookup };

  const provider = new Provider(issuerOf(publicUrl), {
    adapter: adapterClass(options.db),
    jwks: options.jwks,
    cookies: {
      keys: options.cookieKeys,
      long: { signed: true, httpOnly: true, sameSite: 'lax' },
      short: { signed: true, httpOnly: true, sameSite: 'lax' },
    },
    // No OpenID Connect claims beyond the subject: these tokens are for the API, not sign-in.
    claims: { openid: ['sub'] },
    // The account is the grant's brand, mode and creator (oauth/account.ts); its only claim is the subject.
    findAccount: (_ctx: unknown, accountId: string) => ({ accountId, claims: () => ({ sub: accountId }) }),
    // Our scopes are listed here too (registration checks a client's `scope` against this list);
    // the consent screen grants them to the resource, where the access token takes them from.
    scopes: ['openid', ...requestableScopes],
    responseTypes: ['code'],
    // OAuth 2.1: PKCE for every client, confidential ones too. oidc-provider 9 only knows S256.
    pkce: { required: () => true },
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: 'ES256',
    },
    // Exact redirect URI match; a client with one registered URI still has to send it.
    allowOmittingSingleRegisteredRedirectUri: false,
    extraClientMetadata: {
      // Declared only so the validator below sees every registration (DCR and metadata documents).
      properties: ['software_id'],
      validator(_ctx: unknown, key: string, _value: unknown, metadata: Record<string, unknown>) {
        if (key !== 'software_id') return;
        checkRedirectUris(metadata, errors);
      },
    },
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      // RFC 7591: open, any client may register itself (MCP clients do).
      registration: { enabled: true, initialAccessToken: false },
      // A client revokes its own tokens only; another client's token is left alone and the answer
      // is still 200, as RFC 7009 has it, so a client learns nothing about tokens it does not hold.
      revocation: { enabled: true, allowedPolicy: async (_ctx: unknown, client: { clientId: string }, token: { clientId?: string }) => token.clientId === client.clientId },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resources.mcp,
        useGrantedResource: () => true,
        getResourceServerInfo(_ctx: unknown, indicator: string) {
          if (!isOurResource(publicUrl, indicator)) throw new errors.InvalidTarget('this authorization server issues tokens for this service only');
          return { scope: grantableScopes.join(' '), audience: indicator, accessTokenTTL: hour, accessTokenFormat: 'opaque' };
        },
      },
      // Client ID Metadata Documents (an https URL as client_id), fetched past the webhooks' SSRF guard.
      clientIdMetadataDocument: {
        enabled: true,
        ack: 'draft-02',
        async allowFetch(_ctx: unknown, clientId: string) {
          const verdict = await checkEndpointUrl(clientId, 'live', deps.lookup);
          return verdict.ok;
        },
        cacheDuration: { min: 60, max: day },
      },
    },
    fetchResponseBodyLimits: { 'client_id metadata document': 5 * 1024 } as never,
    fetch: (url: string, options: RequestInit) => fetch(url, { ...options, signal: AbortSignal.timeout(5000) }),
    ttl: {
      AccessToken: hour,
      AuthorizationCode: 60,
      Interaction: hour,
      Session: 14 * day,
      Grant: 365 * day,
      RefreshToken: 30 * day,
    },
    // Every refresh rotates; a refresh token used twice revokes its grant (oidc-provider's reuse detection).
    rotateRefreshToken: true,
    issueRefreshToken: async (_ctx: unknown, client: ProviderClient, code: { scopes: Set<string> }) =>
      client.grantTypeAllowed('refresh_token') && code.scopes.has('offline_access'),
    // Public clients (PKCE, no secret) may call the token and revocation endpoints from a browser.
    clientBasedCORS: (_ctx: unknown, origin: string, client: ProviderClient) => origin !== 'null' && client.clientAuthMethod === 'none',
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `${oauthPath}/consent/${interaction.uid}` },
    renderError(ctx: KoaContextWithOIDC, out: Record<string, string>) {
      ctx.type = 'html';
      ctx.set('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'");
      ctx.set('x-frame-options', 'DENY');
      ctx.body = layout('Cannot connect the app', `<section class="card"><h1>Cannot connect the app</h1><p>${esc(out.error_description ?? out.error ?? 'The request is not valid.')}</p><p class="hint">${esc(out.error ?? '')}</p></section>`);
    },
  });

  // A client that asks for no scope gets the read scopes (DESIGN.md: otherwise oidc-provider grants nothing).
  provider.use(async (ctx, next) => {
    if (ctx.path === '/auth' && ctx.method === 'GET' && !ctx.query.request_uri) {
      const q = new URLSearchParams(ctx.querystring);
      if (!q.get('scope')) q.set('scope', defaultScopes.join(' '));
      // OpenID Connect keeps offline_access only with prompt=consent; every authorization here
      // shows the consent screen anyway, so an OAuth client asking for it gets its refresh token.
      if (q.get('scope')!.split(' ').includes('offline_access') && !q.get('prompt')) q.set('prompt', 'consent');
      if (q.toString() !== ctx.querystring) {
        ctx.querystring = q.toString();
        // The provider finds its mount path (/oauth) by looking for the request URL inside originalUrl.
        (ctx as unknown as { req: { originalUrl?: string }; url: string }).req.originalUrl = `${oauthPath}${(ctx as unknown as { url: string }).url}`;
      }
    }
    await next();
  });
  return provider;
}

const loopbacks = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * OAuth 2.1 redirect URIs: https, or http on a loopback address (a native app's listener, whose
 * port may change: such a client is made `native`, for which oidc-provider ignores the port).
 */
function checkRedirectUris(metadata: Record<string, unknown>, errors: typeof ProviderErrors) {
  const uris = Array.isArray(metadata.redirect_uris) ? metadata.redirect_uris as string[] : [];
  let loopback = false;
  for (const raw of uris) {
    const url = URL.parse(raw);
    if (!url) throw new errors.InvalidClientMetadata(`redirect_uris: ${raw} is not a URL`);
    if (url.protocol === 'http:' && loopbacks.has(url.hostname)) loopback = true;
    else if (url.protocol !== 'https:') throw new errors.InvalidClientMetadata('redirect_uris must use https, or http on a loopback address (127.0.0.1, [::1], localhost)');
  }
  if (loopback) metadata.application_type = 'native';
}
