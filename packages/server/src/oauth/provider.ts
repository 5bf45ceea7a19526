/// <reference path="./provider-types.d.ts" />
import type { default as Provider, errors as ProviderErrors, KoaContextWithOIDC, ProviderClient } from 'oidc-provider';
import type { Deps } from '../deps.ts';
import { AppError } from '../errors.ts';
import { errorEnvelope } from '../http/error-handler.ts';
import { esc, layout } from '../pages/html.ts';
import type { Queryable } from '../db/client.ts';
import { checkEndpointUrl, type Lookup } from '../security/url-guard.ts';
import { cookieKeys, signingKeys } from './keys.ts';
import { findBrand } from '../brands/repository.ts';
import { parseAccountId } from './account.ts';
import { adapterClass, clientHasGrant } from './repository.ts';
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
        checkClientMetadata(metadata, errors);
        checkRedirectUris(metadata, errors);
        // A registered `scope` would cap what the client may ever ask for, and MCP clients register
        // with the challenge's read scopes: then stepping up (a tool answering 403
        // insufficient_scope) could only fail. The creator decides on the consent screen instead.
        delete metadata.scope;
      },
    },
    features: {
      devInteractions: { enabled: false },
      // Off, so it is neither advertised nor bound into tokens: /api/mcp and the REST API take
      // Bearer tokens only, and a DPoP-bound token they accepted without its proof would bind nothing.
      dPoP: { enabled: false },
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
    // Every fetch the provider makes passes the webhooks' SSRF guard first (registration refuses
    // the metadata that would make it fetch anything else, but a guard here costs nothing).
    async fetch(url: string, init: RequestInit) {
      const verdict = await checkEndpointUrl(url, 'live', deps.lookup);
      if (!verdict.ok) throw new Error('refused: the address is not a public https URL');
      return fetch(url, { ...init, signal: AbortSignal.timeout(5000) });
    },
    ttl: {
      AccessToken: hour,
      AuthorizationCode: 60,
      Interaction: hour,
      Session: 14 * day,
      Grant: 365 * day,
      RefreshToken: 30 * day,
    },
    // Every refresh rotates; a refresh token used twice revokes its grant (oidc-provider's reuse
    // detection). Called before the token is used up, so what would refuse the request is checked
    // here: a `resource` the token was not issued for (refused later, it used the token up and the
    // client's corrected retry counted as reuse), and a brand that has moved to Free.
    async rotateRefreshToken(ctx: KoaContextWithOIDC) {
      const token = ctx.oidc.entities.RefreshToken as unknown as { resourceIndicators: Set<string>; accountId: string };
      const asked = [ctx.oidc.params?.resource ?? []].flat() as string[];
      if (asked.length > 1 || asked.some((r) => !token.resourceIndicators.has(r))) {
        throw new errors.InvalidTarget('the resource is not one this refresh token was issued for; send the one the app was authorized for, or none');
      }
      const brandId = parseAccountId(token.accountId)?.brandId;
      const brand = brandId ? await findBrand(options.db, brandId) : undefined;
      if (brand?.plan !== 'plus') throw new errors.CustomOIDCProviderError('invalid_grant', 'Connecting apps needs the Plus plan; this brand is on Free.');
      return true;
    },
    issueRefreshToken: async (_ctx: unknown, client: ProviderClient, code: { scopes: Set<string> }) =>
      client.grantTypeAllowed('refresh_token') && code.scopes.has('offline_access'),
    // Public clients (PKCE, no secret) may call the token and revocation endpoints from a browser.
    clientBasedCORS: (_ctx: unknown, origin: string, client: ProviderClient) => origin !== 'null' && client.clientAuthMethod === 'none',
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `${oauthPath}/consent/${interaction.uid}` },
    renderError(ctx: KoaContextWithOIDC, out: Record<string, string>) {
      renderPage(ctx, out.error_description ?? out.error ?? 'The request is not valid.', out.error ?? '');
    },
  });

  // A path the provider does not know answers the API's 404 envelope, not Koa's plain text.
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.status === 404 && ctx.body === undefined) {
      const requestId = (ctx.req as { requestId?: string }).requestId ?? '';
      ctx.status = 404;
      ctx.type = 'json';
      ctx.body = errorEnvelope(requestId, new AppError('route_not_found', `No route ${ctx.method} ${oauthPath}${ctx.path}. See ${publicUrl}/docs/guides/oauth-mcp for the authorization server's endpoints.`));
    }
  });

  // prompt=none would answer an error by redirecting to the client's redirect URI at once, with
  // no page in between: for a client no creator ever approved, that makes our domain a redirector
  // to any https URL someone registered. Such a client gets an error page instead.
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.path !== '/auth') return;
    const params = (ctx as unknown as { oidc?: { params?: { prompt?: unknown; client_id?: unknown } } }).oidc?.params;
    if (!String(params?.prompt ?? '').split(' ').includes('none')) return;
    if (typeof params?.client_id === 'string' && await clientHasGrant(options.db, params.client_id)) return;
    ctx.remove('location');
    ctx.status = 400;
    renderPage(ctx, 'This app has not been connected to a brand yet, so it cannot sign in silently (prompt=none). Start connecting from the app.', 'consent_required');
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

/** The authorization server's error page (its status set by the caller). */
function renderPage(ctx: { type: string; body: unknown; set(name: string, value: string): void }, message: string, code: string) {
  ctx.type = 'html';
  ctx.set('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'");
  ctx.set('x-frame-options', 'DENY');
  ctx.set('cache-control', 'no-store');
  ctx.body = layout('Cannot connect the app', `<section class="card"><h1>Cannot connect the app</h1><p>${esc(message)}</p><p class="hint">${esc(code)}</p></section>`);
}

const loopbacks = new Set(['localhost', '127.0.0.1', '[::1]']);

/** NUL, or a UTF-16 surrogate without its pair: text PostgreSQL cannot store. */
const unstorableText = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Sizes a registration may not exceed: it is stored, and its name shown on the consent screen. */
export const clientLimits = { name: 200, uri: 2000, uris: 10, text: 2000, list: 20 };

/**
 * Metadata the open registration endpoint refuses. `sector_identifier_uri` and `jwks_uri` would
 * make this server fetch a URL the registrant chose (a blind SSRF with a timing oracle); we issue
 * public subject identifiers and opaque tokens, so neither has a use here. Text must be storable
 * (no NUL, no lone surrogate: PostgreSQL refuses both) and of a bounded size.
 */
function checkClientMetadata(metadata: Record<string, unknown>, errors: typeof ProviderErrors) {
  for (const key of ['sector_identifier_uri', 'jwks_uri']) {
    if (metadata[key] !== undefined) throw new errors.InvalidClientMetadata(`${key} is not supported by this server; leave it out`);
  }
  for (const [key, value] of Object.entries(metadata)) {
    const values = Array.isArray(value) ? value : [value];
    if (values.length > clientLimits.list) throw new errors.InvalidClientMetadata(`${key} may list ${clientLimits.list} values at most`);
    for (const v of values) {
      if (typeof v !== 'string') continue;
      if (unstorableText.test(v)) throw new errors.InvalidClientMetadata(`${key} contains a NUL character or an unpaired surrogate`);
      const max = key === 'client_name' ? clientLimits.name : key.endsWith('_uri') || key.endsWith('_uris') ? clientLimits.uri : clientLimits.text;
      if (v.length > max) throw new errors.InvalidClientMetadata(`${key} is longer than ${max} characters`);
    }
  }
  if (Array.isArray(metadata.redirect_uris) && metadata.redirect_uris.length > clientLimits.uris) {
    throw new errors.InvalidClientMetadata(`redirect_uris may list ${clientLimits.uris} URIs at most`);
  }
}

/** Schemes no redirect may use: they run code or read local files in a browser. */
const forbiddenSchemes = new Set(['javascript:', 'vbscript:', 'data:', 'blob:', 'file:', 'about:', 'filesystem:', 'view-source:', 'ws:', 'wss:', 'ftp:', 'mailto:', 'tel:', 'sms:']);

/**
 * OAuth 2.1 redirect URIs: https, http on a loopback address (a native app's listener, whose
 * port may change), or a native app's private-use scheme such as `cursor://…` (RFC 8252 §7.1;
 * PKCE binds the code to the app that asked, so another app claiming the scheme gains nothing).
 * A client with either of the last two is made `native`, for which oidc-provider ignores a
 * loopback port. Cursor registers all three kinds in one request.
 */
function checkRedirectUris(metadata: Record<string, unknown>, errors: typeof ProviderErrors) {
  const uris = Array.isArray(metadata.redirect_uris) ? metadata.redirect_uris as string[] : [];
  let native = false;
  let loopbackHttps = false;
  for (const raw of uris) {
    const url = typeof raw === 'string' ? URL.parse(raw) : null;
    if (!url) throw new errors.InvalidClientMetadata(`redirect_uris: ${String(raw)} is not a URL`);
    if (url.protocol === 'http:' && loopbacks.has(url.hostname)) native = true;
    else if (url.protocol === 'https:') loopbackHttps ||= loopbacks.has(url.hostname);
    else if (url.protocol === 'http:' || forbiddenSchemes.has(url.protocol)) {
      throw new errors.InvalidClientMetadata('redirect_uris must use https, or http on a loopback address (127.0.0.1, [::1], localhost), or an app\'s own scheme (app.example://callback)');
    } else native = true;
  }
  // A native client's https URIs must not be loopback (oidc-provider's rule); a web client's may.
  if (native && !loopbackHttps) metadata.application_type = 'native';
}
