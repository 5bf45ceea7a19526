import Fastify, { type RouteOptions } from 'fastify';
import { Type } from 'typebox';
import type { App } from '../http/app-type.ts';
import { ErrorEnvelope } from '../http/envelope.ts';
import { finishDocument } from './openapi.ts';
import { precompressed, sendPrecompressed, type Precompressed } from '../http/compression.ts';
import { contentSecurityPolicy, guideDocument, guides, readGuide, readScreenshot, renderPage, scalarScript, type GuideName } from './page.ts';
import { apiCatalog, eventMarkdown, llmsFull, llmsIndex, operationMarkdown, operationsOf } from './markdown.ts';

const errorResponses = {
  400: { ...ErrorEnvelope, description: 'validation_failed: a parameter or body field is invalid; `message` names it.' },
  401: { ...ErrorEnvelope, description: 'authentication_required: the key is missing, unknown or revoked.' },
  403: { ...ErrorEnvelope, description: 'scope_missing: the key lacks the scope this endpoint needs.' },
  404: { ...ErrorEnvelope, description: 'not_found: no such resource in this brand and mode.' },
};

/**
 * onRoute hook: refuses an /api/v1 route without a success response schema (it would be missing
 * from the OpenAPI document and the SDK), and documents each authenticated route's key, scope
 * and error responses.
 */
export function documentRoute(route: RouteOptions) {
  const hidden = (route.schema as { hide?: boolean } | undefined)?.hide;
  if (route.url.startsWith('/api/v1/') && !hidden) {
    const responses = Object.keys((route.schema?.response as object | undefined) ?? {});
    if (!responses.some((status) => status.startsWith('2'))) {
      throw new Error(`Route ${String(route.method)} ${route.url} has no 2xx response schema; every API route must declare one.`);
    }
  }
  const auth = route.config?.auth;
  if (!auth || !route.schema) return;
  const accepted = auth.scope === null ? [] : [auth.scope].flat();
  const scopeNote = accepted.length ? `Scope: ${accepted.map((scope) => `\`${scope}\``).join(' or ')}.` : 'Any valid key; no scope needed.';
  route.schema = {
    ...route.schema,
    description: [route.schema.description, scopeNote].filter(Boolean).join('\n\n'),
    security: [{ ApiKey: [] }],
    response: { ...errorResponses, ...(route.schema.response as object) },
  };
}

const isGuide = (name: string): name is GuideName => Object.hasOwn(guides, name);
const html = { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': contentSecurityPolicy, 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' };

export function docsRoutes(app: App) {
  let document: Record<string, any> | undefined;
  const openapi = () => (document ??= finishDocument(app.swagger() as unknown as Record<string, any>));
  app.get('/api/v1/openapi.json', { schema: { hide: true } }, async () => openapi());

  // The docs as Markdown for agents (llmstxt.org) and the RFC 9727 API catalog, all made from the
  // served document (docs/markdown.ts) when asked for; nothing of it is a file in the repository.
  const origin = () => String(openapi().servers?.[0]?.url ?? '').replace(/\/api\/v1$/, '');
  const markdown = 'text/markdown; charset=utf-8';
  app.get('/llms.txt', { schema: { hide: true } }, async (_req, reply) => reply.type(markdown).send(llmsIndex(openapi(), origin())));
  app.get('/llms-full.txt', { schema: { hide: true } }, async (_req, reply) => {
    const texts = await Promise.all((Object.keys(guides) as GuideName[]).map(async (name) => ({ name, title: guides[name], markdown: await readGuide(name) })));
    return reply.type(markdown).send(llmsFull(openapi(), origin(), texts));
  });
  app.get<{ Params: { id: string } }>('/docs/operations/:id', { schema: { hide: true } }, async (req, reply) => {
    const id = req.params.id.replace(/\.md$/, '');
    const found = operationsOf(openapi()).find((o) => o.op.operationId === id);
    if (!found) return reply.callNotFound();
    return reply.type(markdown).send(operationMarkdown(openapi(), found));
  });
  app.get<{ Params: { type: string } }>('/docs/events/:type', { schema: { hide: true } }, async (req, reply) => {
    const type = req.params.type.replace(/\.md$/, '');
    if (!Object.hasOwn(openapi().webhooks ?? {}, type)) return reply.callNotFound();
    return reply.type(markdown).send(eventMarkdown(openapi(), type));
  });
  app.get('/.well-known/api-catalog', { schema: { hide: true } }, async (_req, reply) => reply
    .type('application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"')
    .header('link', '</.well-known/api-catalog>; rel="api-catalog"')
    .send(Buffer.from(JSON.stringify(apiCatalog(openapi(), origin()))))); // a Buffer, so no charset is added to the RFC's type

  app.get('/docs', { schema: { hide: true } }, async (_req, reply) => reply.headers(html).send(renderPage('Creator commerce API reference', '/api/v1/openapi.json')));

  app.get<{ Params: { name: string } }>('/docs/guides/:name', { schema: { hide: true } }, async (req, reply) => {
    const name = req.params.name.replace(/\.(md|json)$/, '');
    if (!isGuide(name)) return reply.callNotFound();
    if (req.params.name.endsWith('.md')) return reply.type('text/markdown; charset=utf-8').send(await readGuide(name));
    if (req.params.name.endsWith('.json')) return guideDocument(name, openapi().info.version);
    return reply.headers(html).send(renderPage(`${guides[name]} guide`, `/docs/guides/${name}.json`, { hiddenClients: true, hideClientButton: true, hideModels: true }));
  });

  app.get<{ Params: { file: string } }>('/docs/guides/screenshots/:file', { schema: { hide: true } }, async (req, reply) => {
    const picture = await readScreenshot(req.params.file);
    if (!picture) return reply.callNotFound();
    return reply.type('image/png').header('cache-control', 'public, max-age=3600').header('x-content-type-options', 'nosniff').send(picture);
  });

  // Scalar's bundle, from the package on disk, loaded when a page first asks for it, and
  // compressed then, once (4.9 MB; 1.4 MB gzipped, 1.2 MB in brotli: http/compression.ts). Its
  // name has no hash, so browsers keep it an hour and then ask again with its ETag (304).
  let bundle: Promise<Precompressed> | undefined;
  app.get(scalarScript, { schema: { hide: true }, compress: false }, async (req, reply) => {
    bundle ??= scalarBundle().then((text) => precompressed(Buffer.from(text))).catch((err: unknown) => { bundle = undefined; throw err; });
    const file = await bundle;
    reply.type('application/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600');
    return sendPrecompressed(req, reply, file);
  });

  app.get('/', { schema: { hide: true, response: { 200: Type.Object({ name: Type.String(), docs: Type.String(), openapi: Type.String() }) } } }, async () => ({
    name: 'Creator commerce API',
    docs: '/docs',
    openapi: '/api/v1/openapi.json',
  }));
}

/**
 * Scalar's standalone script. It is 5 MB of JavaScript inside @scalar/fastify-api-reference's
 * module, whose loading was a fifth of the server's start-up, so it is imported on the first
 * request for it instead. The package hands the script out only through its Fastify plugin's
 * route, so that plugin runs once on a private instance and its route is asked.
 */
async function scalarBundle(): Promise<string> {
  const { default: scalar } = await import('@scalar/fastify-api-reference');
  const renderer = Fastify({ logger: false });
  try {
    await renderer.register(scalar, { routePrefix: '/scalar', configuration: { content: {} } });
    const res = await renderer.inject({ method: 'GET', url: '/scalar/js/scalar.js' });
    if (res.statusCode !== 200) throw new Error(`Scalar's plugin answered ${res.statusCode} for its script`);
    return res.body;
  } finally {
    await renderer.close();
  }
}
