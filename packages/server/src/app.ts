import Fastify, { type FastifyServerOptions } from 'fastify';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from './deps.ts';
import { wireEventSubscribers } from './subscribers.ts';
import { docsRoutes, documentRoute } from './docs/routes.ts';
import { operationTransform } from './docs/openapi.ts';
import type { App } from './http/app-type.ts';
import { apiKeyResolver } from './keys/resolver.ts';
import { installAuth } from './auth/resolve.ts';
import { LastUsedRecorder } from './keys/last-used.ts';
import { installCsrfCheck } from './users/csrf.ts';
import { sessionResolver } from './users/resolver.ts';
import { dashboardAccountRoutes } from './users/routes.ts';
import { dashboardKeyRoutes } from './keys/routes.ts';
import { dashboardWebhookRoutes } from './webhooks/dashboard-routes.ts';
import { clientErrorHandler, frameworkErrors, installRequestDeadlines, newRequestId } from './http/edges.ts';
import { installErrorHandling } from './http/error-handler.ts';
import { installJsonDepthLimit } from './http/json-depth.ts';
import { documentIdempotencyHeader, installIdempotencyGuard } from './http/idempotency.ts';
import { installRateLimits } from './http/rate-limit.ts';
import { installPathIdCheck } from './http/path-ids.ts';
import { installTextRule, validatorsByPart, installQueryCheck } from './http/validation.ts';
import { serializersOnUse, validatorsOnUse } from './http/compile-on-use.ts';
import { pingRoute } from './http/ping.ts';
import { adminRoutes } from './cli/admin-route.ts';
import { checkoutPages } from './checkout/pages.ts';
import { checkoutRoutes } from './checkout/routes.ts';
import { stripeWebhookRoutes } from './payments/stripe/routes.ts';
import { importRoutes } from './imports/routes.ts';
import { membershipRoutes } from './memberships/routes.ts';
import { productRoutes } from './products/routes.ts';
import { itemContentRoutes } from './products/content-routes.ts';
import { fileStoreFromConfig } from './files/configured.ts';
import { customerSessionRoutes } from './portal/routes.ts';
import { portalPages } from './portal/pages.ts';
import { unsubscribePages } from './mail/unsubscribe.ts';
import { hubRoutes } from './hubs/routes.ts';
import { transactionRoutes } from './transactions/routes.ts';
import { refundRoutes } from './refunds/routes.ts';
import { eventRoutes } from './events/routes.ts';
import { webhookRoutes } from './webhooks/routes.ts';
import { subscriptionRoutes } from './subscriptions/routes.ts';
import { payoutRoutes } from './payouts/routes.ts';
import { dashboardSetupRoutes, metricsRoutes } from './metrics/routes.ts';
import { customerRoutes } from './customers/routes.ts';
import { mailRoutes } from './mail/routes.ts';
import { invoiceRoutes } from './invoices/routes.ts';
import { clockRoutes } from './test-clock/routes.ts';
import { brandRoutes } from './brands/routes.ts';
import { checkoutLinkRoutes } from './checkout-links/routes.ts';
import { couponRoutes } from './coupons/routes.ts';
import { affiliateRoutes } from './affiliates/routes.ts';
import { bookingRoutes } from './bookings/routes.ts';
import { shippingRoutes } from './shipping/routes.ts';
import { storefrontPages } from './storefront/pages.ts';
import { checkoutLinkPages } from './checkout-links/pages.ts';
import { dashboardStatic } from './dashboard/static.ts';
import { installCompression } from './http/compression.ts';
import { oauthResolver } from './oauth/resolver.ts';
import { providerOnFirstUse } from './oauth/provider.ts';
import { oauthRoutes } from './oauth/routes.ts';
import { installAppCallLog } from './oauth/app-calls.ts';
import { appsRoutes } from './oauth/apps-routes.ts';
import { dashboardSessions } from './oauth/session.ts';
import { mcpRoutes } from './mcp/routes.ts';
import { testHelperRoutes } from './checkout/test-helpers.ts';
import { OneLinePerRequest } from './logger.ts';
import { restChallenge } from './auth/challenge.ts';
import { clientAuthMethod } from './oauth/repository.ts';
import { routeCatalog } from './mcp/catalog.ts';
import { enableMetrics } from './observability/metrics.ts';
import { installHttpMetrics, installRequestSpans } from './observability/http.ts';
import { tracing } from './observability/tracing.ts';

/** The HTTP app of one process, on the deps its composition root built. */
export async function buildApp(deps: Deps): Promise<App> {
  wireEventSubscribers();
  const options: FastifyServerOptions = {
    loggerInstance: deps.log,
    // Pretty logs (a person at a terminal) get one line per request instead of Fastify's two.
    ...(deps.config.logFormat === 'pretty' ? { logController: new OneLinePerRequest() } : {}),
    bodyLimit: deps.config.bodyLimitBytes,
    // Our own id on every request; an id the client sends is not trusted.
    genReqId: newRequestId,
    requestIdHeader: false,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', useDefaults: true, allErrors: true } },
    // Coercion for the query string and path only; bodies are validated as sent (http/validation.ts).
    // Both compiled when a route is first used, not at start (http/compile-on-use.ts).
    schemaController: { compilersFactory: { buildValidator: validatorsOnUse(validatorsByPart), buildSerializer: serializersOnUse() } },
    // Long path values reach http/path-ids.ts (404 in the envelope) instead of a bare 414.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 8192 },
    // A request (headers and body) must have arrived by then: slow uploads are cut off (408).
    requestTimeout: deps.config.requestTimeoutMs,
    // …except a file upload, which may take up to UPLOAD_TIMEOUT: Node's own check is per server,
    // so it is set to the longer one, and every other route keeps REQUEST_TIMEOUT through
    // installRequestDeadlines (which also answers a slow body 408).
    ...(deps.config.files?.uploadTimeoutMs > deps.config.requestTimeoutMs ? { requestTimeout: deps.config.files.uploadTimeoutMs } : {}),
    // Node's own refusals and the shutdown answer in the envelope (http/edges.ts).
    clientErrorHandler,
    frameworkErrors,
    return503OnClosing: false,
    // Whose X-Forwarded-For to believe (TRUST_PROXY): the client address throttling counts.
    // (A hop count is documented by Fastify, though its type leaves it out.)
    trustProxy: deps.config.trustProxy as FastifyServerOptions['trustProxy'],
  };
  const app = Fastify(options).withTypeProvider<TypeBoxTypeProvider>();
  // First, so every request is timed and traced from its first hook (docs/observability.md).
  if (deps.config.observability.metricsPort !== undefined) installHttpMetrics(app, await enableMetrics());
  if (tracing) installRequestSpans(app, tracing);

  // A text body on a JSON API is a mistake; answer 415 instead of handing a string to validation.
  app.removeContentTypeParser('text/plain');
  installJsonDepthLimit(app);
  // Hooks that do not wait for anything are written with `done`: every request runs each of them,
  // and an async function costs a promise and a turn of the microtask queue apiece.
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id);
    done();
  });
  installRequestDeadlines(app, deps.config.requestTimeoutMs);
  installErrorHandling(app, { db: deps.db });
  const onAuthFailure = await installRateLimits(app, { settings: deps.config.rateLimits, redis: deps.redis });
  // Keys' "last used", noted per request in memory and written at most once a minute per key.
  const keyUses = new LastUsedRecorder(deps.db, { log: app.log });
  app.addHook('onClose', async () => keyUses.close());
  // The catalog cache hears other processes' catalog writes from the moment this app serves.
  app.addHook('onReady', async () => deps.catalogCache.start());
  app.addHook('onClose', async () => deps.catalogCache.stop());
  const bearer = oauthResolver(deps);
  installAuth(app, [apiKeyResolver({ ...deps, keyUses }), sessionResolver(deps), bearer], { onFailure: onAuthFailure, challenge: restChallenge(deps.config.publicUrl) });
  // What each OAuth app did lately, for the dashboard's Apps page.
  installAppCallLog(app, deps.db);
  // After auth, so a session principal is known; before any body is read.
  installCsrfCheck(app, { db: deps.db, publicUrl: deps.config.publicUrl });
  installPathIdCheck(app);
  installTextRule(app);

  app.addHook('onRoute', documentIdempotencyHeader);
  app.addHook('onRoute', documentRoute);
  installQueryCheck(app, '/api/v1/');
  installIdempotencyGuard(app, deps.secrets.webhookKey);
  await app.register(swagger, {
    // Shapes with an $id become named components (Product, Membership, …) instead of def-N.
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    // Each operation's id and contract come from its route's config.operation (http/operation.ts).
    transform: operationTransform,
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Creator commerce API',
        version: '0.1.0',
        description: 'Products, hub members, customers, transactions, checkout and webhooks of one brand. '
          + 'Every response is the envelope { status, message, data }.',
      },
      servers: [{ url: `${deps.config.publicUrl}/api/v1` }],
      components: {
        securitySchemes: { ApiKey: { type: 'apiKey', in: 'header', name: 'x-service-api' } },
      },
    },
  });

  // Items' files (docs/files.md): a folder under DATA_DIR, or S3 when S3_BUCKET is set.
  const fileStore = fileStoreFromConfig(deps.config);
  // MCP tools take their schemas and scopes from the REST routes as those register.
  const catalog = routeCatalog();
  app.addHook('onRoute', catalog.onRoute);
  await app.register(async (api) => {
    const v1 = api;
    pingRoute(v1);
    productRoutes(v1, deps);
    itemContentRoutes(v1, { db: deps.db, store: fileStore, files: deps.config.files, secrets: deps.secrets, publicUrl: deps.config.publicUrl });
    customerSessionRoutes(v1, deps);
    hubRoutes(v1, deps);
    membershipRoutes(v1, deps);
    transactionRoutes(v1, deps);
    refundRoutes(v1, deps);
    webhookRoutes(v1, deps);
    eventRoutes(v1, deps);
    checkoutRoutes(v1, deps);
    importRoutes(v1, deps);
    subscriptionRoutes(v1, deps);
    payoutRoutes(v1, deps);
    mailRoutes(v1, deps);
    invoiceRoutes(v1, deps);
    clockRoutes(v1, deps);
    testHelperRoutes(v1, deps);
    brandRoutes(v1, deps);
    checkoutLinkRoutes(v1, deps);
    couponRoutes(v1, deps);
    affiliateRoutes(v1, deps);
    bookingRoutes(v1, deps);
    shippingRoutes(v1, deps);
    metricsRoutes(v1, deps);
    customerRoutes(v1, deps);
  }, { prefix: '/api/v1' });

  await app.register(async (dashboard) => {
    dashboardAccountRoutes(dashboard, deps);
    dashboardKeyRoutes(dashboard, deps);
    dashboardWebhookRoutes(dashboard, deps);
    dashboardSetupRoutes(dashboard, deps);
  }, { prefix: '/dashboard/api' });
  const sessions = dashboardSessions(deps.db);
  await oauthRoutes(app, deps, providerOnFirstUse(deps), sessions);
  appsRoutes(app, { db: deps.db, sessions });
  mcpRoutes(app, { publicUrl: deps.config.publicUrl, resolver: bearer, tools: catalog.tools, onAuthFailure, clientAuthMethod: (id) => clientAuthMethod(deps.db, id) });

  // The pages and their assets, compressed for browsers (http/compression.ts); the JSON API is not.
  await app.register(async (pages) => {
    await installCompression(pages);
    docsRoutes(pages);
    checkoutPages(pages, deps);
    storefrontPages(pages, deps);
    checkoutLinkPages(pages, deps);
    portalPages(pages, { ...deps, store: fileStore });
    unsubscribePages(pages, deps);
    await dashboardStatic(pages, { dir: deps.dashboardDir });
  });
  stripeWebhookRoutes(app, deps);
  if (deps.adminToken) adminRoutes(app, { db: deps.db, keyCache: deps.keyCache, adminToken: deps.adminToken, config: deps.config });
  return app;
}
