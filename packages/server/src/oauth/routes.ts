/// <reference path="./provider-types.d.ts" />
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import type Provider from 'oidc-provider';
import { findBrand } from '../brands/repository.ts';
import { AppError } from '../errors.ts';
import type { Deps } from '../deps.ts';
import type { App } from '../http/app-type.ts';
import { messagePage, sendPage } from '../pages/html.ts';
import { accountIdOf } from './account.ts';
import { consentPage } from './consent-page.ts';
import { isOurResource, issuerOf, oauthPath, ourResources } from './provider.ts';
import { revokeGrant } from './repository.ts';
import { grantableScopes, readScopes, requestableScopes } from './scopes.ts';
import type { SessionReader } from './session.ts';

/**
 * The authorization server's HTTP side: oidc-provider mounted at /oauth (authorization, token,
 * registration, revocation, JWKS, discovery), the metadata documents clients discover it by,
 * and the consent screen the provider sends the creator's browser to.
 */
export async function oauthRoutes(app: App, deps: Deps, providerOf: () => Promise<Provider>, sessions: SessionReader) {
  const { publicUrl } = deps.config;
  const consentPrefix = '/consent/';
  // Everything under /oauth but the consent pages (routes of ours, below, which a parametric route
  // wins over this wildcard) is the provider's, built on first use. It is handed the raw request
  // before Fastify reads the body (the provider parses its own forms), with the path below /oauth
  // as the provider expects when mounted; a route costs the other routes nothing, where a
  // middleware layer ran on every request the service answers.
  let callback: ReturnType<Provider['callback']> | undefined;
  // Open registration is unauthenticated and each client is stored: a budget per client address.
  const registrations = app.createRateLimit({
    max: deps.config.rateLimits.registrationsPerHour,
    timeWindow: 3_600_000,
    keyGenerator: (req) => `oauth-registrations:${req.ip}`,
    allowList: [],
  });
  const toProvider = async (req: FastifyRequest, reply: FastifyReply) => {
    if (req.url.startsWith(`${oauthPath}${consentPrefix}`)) return;
    if (req.method === 'POST' && req.url.split('?')[0] === `${oauthPath}/reg`) {
      const counted = await registrations(req);
      if (!counted.isAllowed && counted.isExceeded) {
        reply.header('retry-after', String(counted.ttlInSeconds));
        throw new AppError('rate_limited', `Too many client registrations from this address; try again in ${counted.ttlInSeconds} s, or reuse the client you registered.`);
      }
    }
    callback ??= (await providerOf()).callback();
    reply.hijack();
    const raw = req.raw as IncomingMessage & { originalUrl?: string; requestId?: string };
    raw.requestId = req.id;
    reply.raw.setHeader('x-request-id', req.id);
    raw.originalUrl = raw.url;
    raw.url = raw.url!.slice(oauthPath.length) || '/';
    await callback(raw, reply.raw);
  };
  app.all(`${oauthPath}/*`, { schema: { hide: true }, onRequest: toProvider }, (_req, reply) => reply.callNotFound());

  // RFC 8414 and the OpenID discovery paths clients also try for an issuer with a path.
  let metadata: string | undefined;
  const serverMetadata = async (_req: FastifyRequest, reply: FastifyReply) => {
    // Asked of the provider as a client at PUBLIC_URL would: it names its endpoints by the request's host.
    metadata ??= (await app.inject({ method: 'GET', url: `${oauthPath}/.well-known/openid-configuration`, headers: { host: new URL(publicUrl).host } })).body;
    return reply.header('content-type', 'application/json').header('access-control-allow-origin', '*').header('cache-control', 'public, max-age=300').send(metadata);
  };
  for (const url of [`/.well-known/oauth-authorization-server${oauthPath}`, `/.well-known/openid-configuration${oauthPath}`, '/.well-known/oauth-authorization-server']) {
    app.get(url, { schema: { hide: true } }, serverMetadata);
  }

  // RFC 9728 protected resource metadata: the MCP endpoint, the REST API, and the root form.
  const resources = ourResources(publicUrl);
  const resourceMetadata = (resource: string) => async (_req: FastifyRequest, reply: FastifyReply) =>
    reply.header('access-control-allow-origin', '*').header('cache-control', 'public, max-age=300').send({
      resource,
      authorization_servers: [issuerOf(publicUrl)],
      scopes_supported: requestableScopes,
      bearer_methods_supported: ['header'],
      resource_name: 'Creator commerce',
      resource_documentation: `${publicUrl}/docs/guides/oauth-mcp`,
    });
  app.get('/.well-known/oauth-protected-resource/api/mcp', { schema: { hide: true } }, resourceMetadata(resources.mcp));
  app.get('/.well-known/oauth-protected-resource/api/v1', { schema: { hide: true } }, resourceMetadata(resources.rest));
  app.get('/.well-known/oauth-protected-resource', { schema: { hide: true } }, resourceMetadata(publicUrl));

  await app.register(async (pages: App) => {
    pages.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16 * 1024 }, (_req, body, done) => {
      const form = new URLSearchParams(body as string);
      done(null, { ...Object.fromEntries(form), scope: form.getAll('scope') });
    });
    const problem = (reply: FastifyReply, status: number, message: string) => sendPage(reply, status, messagePage('Cannot connect the app', message));

    /** The interaction, the signed-in creator and what the consent page shows, or a reply already sent. */
    async function load(req: FastifyRequest<{ Params: { uid: string } }>, reply: FastifyReply) {
      const provider = await providerOf();
      let details;
      try {
        details = await provider.interactionDetails(req.raw, reply.raw);
      } catch {
        problem(reply, 400, 'This connection request has expired or was opened in another browser. Start connecting again from the app.');
        return undefined;
      }
      if (details.uid !== req.params.uid) {
        problem(reply, 400, 'This connection request does not match this page. Start connecting again from the app.');
        return undefined;
      }
      const session = await sessions.read(req);
      if (!session) {
        reply.code(303).header('cache-control', 'no-store').redirect(sessions.signInUrl(`${oauthPath}${consentPrefix}${details.uid}`), 303);
        return undefined;
      }
      if (session.role !== 'owner') {
        problem(reply, 403, 'Only the brand\'s owners can connect apps. Ask an owner to connect this app.');
        return undefined;
      }
      const brand = await findBrand(deps.db, session.brandId);
      const client = await provider.Client.find(details.params.client_id);
      if (!brand || !client) {
        problem(reply, 400, 'This app is no longer registered. Start connecting again from the app.');
        return undefined;
      }
      const asked = String(details.params.scope ?? '').split(' ').filter(Boolean);
      const scopes = grantableScopes.filter((s) => asked.includes(s));
      const redirect = URL.parse(String(details.params.redirect_uri ?? client.redirectUris[0] ?? ''));
      const metadataUrl = /^https:\/\//.test(client.clientId) ? client.clientId : undefined;
      const view = {
        action: `${oauthPath}${consentPrefix}${details.uid}`,
        csrfToken: session.csrfToken,
        appName: client.clientName ?? (metadataUrl ? new URL(metadataUrl).host : 'An app'),
        // A native app's scheme is shown with it (cursor://anysphere.cursor-retrieval), a web app's host alone.
        redirectHost: !redirect ? 'an unknown address' : /^https?:$/.test(redirect.protocol) ? redirect.host : `${redirect.protocol}//${redirect.host}`,
        ...(metadataUrl ? { metadataUrl } : {}),
        brandName: brand.name,
        scopes,
        offline: asked.includes('offline_access'),
        plan: brand.plan,
      };
      return { provider, details, session, brand, client, asked, view };
    }

    pages.get<{ Params: { uid: string } }>(`${oauthPath}${consentPrefix}:uid`, { schema: { hide: true } }, async (req, reply) => {
      const loaded = await load(req, reply);
      if (!loaded) return reply;
      // The form posts here, and the answer redirects to the app: CSP form-action covers redirects too.
      // A native app's own scheme (cursor://…) has no origin: the scheme itself is the source.
      const appUrl = URL.parse(String(loaded.details.params.redirect_uri ?? ''));
      const appSource = !appUrl ? undefined : /^https?:$/.test(appUrl.protocol) ? appUrl.origin : appUrl.protocol;
      return sendPage(reply, 200, consentPage(loaded.view), { formAction: appSource && appSource !== 'null' ? [appSource] : [] });
    });

    pages.post<{ Params: { uid: string }; Body: { csrf?: string; decision?: string; mode?: string; scope?: string[] } }>(
      // The form carries the CSRF token as a field (app-wide checks want it in a header, which a form cannot send).
      `${oauthPath}${consentPrefix}:uid`, { schema: { hide: true }, config: { csrf: 'origin' } }, async (req, reply) => {
        const origin = req.headers.origin;
        if (origin !== undefined && origin !== new URL(publicUrl).origin) {
          return problem(reply, 403, 'This consent form was sent from another website, so it was not taken.');
        }
        const loaded = await load(req, reply);
        if (!loaded) return reply;
        const { provider, details, session, brand, client, asked } = loaded;
        const body = req.body ?? {};
        if (!body.csrf || body.csrf !== session.csrfToken) {
          return problem(reply, 403, 'This consent form has expired. Go back to the app and connect again.');
        }
        let result: Record<string, unknown>;
        if (brand.plan !== 'plus') {
          result = { error: 'access_denied', error_description: 'Connecting apps needs the Plus plan; this brand is on Free.' };
        } else if (body.decision !== 'approve' && body.decision !== 'read-only') {
          result = { error: 'access_denied', error_description: 'The creator did not allow the app to connect.' };
        } else {
          const ticked = (body.scope ?? []).filter((s) => asked.includes(s));
          const granted = grantableScopes.filter((s) => ticked.includes(s) && (body.decision === 'approve' || readScopes.includes(s)));
          const mode = body.mode === 'test' ? 'test' : 'live';
          const accountId = accountIdOf({ brandId: brand.id, mode, userId: session.userId });
          // A new consent replaces the app's earlier grant, so scopes unticked now are gone now.
          if (details.grantId) await revokeGrant(deps.db, details.grantId);
          const grant = new provider.Grant({ accountId, clientId: client.clientId });
          if (asked.includes('offline_access')) grant.addOIDCScope('offline_access');
          if (asked.includes('openid')) grant.addOIDCScope('openid');
          const requested = [details.params.resource ?? ourResources(publicUrl).mcp].flat().filter((r): r is string => typeof r === 'string' && isOurResource(publicUrl, r));
          const refused = grantableScopes.filter((s) => asked.includes(s) && !granted.includes(s));
          for (const resource of requested) {
            if (granted.length) grant.addResourceScope(resource, granted.join(' '));
            // Unticked scopes are refused explicitly, or the provider would ask for consent again.
            if (refused.length) grant.rejectResourceScope(resource, refused.join(' '));
          }
          if (granted.length) grant.addOIDCScope(granted.join(' '));
          if (refused.length) grant.rejectOIDCScope(refused.join(' '));
          const grantId = await grant.save();
          result = { login: { accountId }, consent: { grantId } };
        }
        const to = await provider.interactionResult(req.raw, reply.raw, result, { mergeWithLastSubmission: false });
        return reply.code(303).header('cache-control', 'no-store').redirect(to, 303);
      },
    );
  });
}
