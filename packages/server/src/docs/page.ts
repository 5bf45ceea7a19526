import { readFile } from 'node:fs/promises';

/**
 * The reference page: Scalar's API reference (the standalone bundle that
 * @scalar/fastify-api-reference ships, served from our origin: no CDN) over the served OpenAPI
 * document. The page carries no inline script: the configuration is a JSON data block that
 * Scalar reads, so the CSP allows scripts from 'self' only. Scalar injects its stylesheet at run
 * time, hence style-src 'unsafe-inline'; its default web fonts (from its own host) are off.
 *
 * Guides (docs/*.md) are rendered by the same renderer, as documents whose description is the
 * guide: `/docs/guides/webhooks` and so on, linked from the reference's introduction and tags.
 */

export const scalarScript = '/docs/assets/js/scalar.js';

export const contentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** Scalar's settings: nothing that calls Scalar's own services (fonts, telemetry, AI agent, MCP, proxy). */
const configuration = {
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
  hideClientButton: false,
  documentDownloadType: 'json',
  persistAuth: false,
  orderSchemaPropertiesBy: 'preserve',
};

export function renderPage(title: string, documentUrl: string, extra: Record<string, unknown> = {}): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>${esc(title)}</title>
  </head>
  <body>
    <noscript>
      <h1>${esc(title)}</h1>
      <p>This page needs JavaScript. The OpenAPI document is at <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>;
      the guides: ${Object.keys(guides).map((name) => `<a href="/docs/guides/${name}.md">${name}</a>`).join(', ')}.</p>
    </noscript>
    <script id="api-reference" type="application/json" data-url="${esc(documentUrl)}" data-configuration="${esc(JSON.stringify({ ...configuration, ...extra }))}"></script>
    <script src="${scalarScript}"></script>
  </body>
</html>
`;
}

export const guides = {
  webhooks: 'Webhooks',
  keys: 'API keys',
  checkout: 'Checkout',
  imports: 'Imports',
  idempotency: 'Idempotency',
  subscriptions: 'Subscriptions',
  payouts: 'Payouts',
  catalog: 'Catalog',
  'oauth-mcp': 'Apps and MCP',
  reference: 'Examples and docs for agents',
  coupons: 'Coupons',
  affiliates: 'Affiliates',
  customers: 'Customers',
  shipping: 'Shipping',
  refunds: 'Refunds and disputes',
  bookings: 'Bookings',
  storefront: 'Storefront',
  email: 'Email and invoices',
  files: 'Files',
  portal: 'Buyer portal',
  metrics: 'Home numbers',
  dashboard: 'Dashboard',
  observability: 'Observability',
} as const;

export type GuideName = keyof typeof guides;

const guidesDir = new URL('../../../../docs/', import.meta.url);

export function readGuide(name: GuideName): Promise<string> {
  return readFile(new URL(`${name}.md`, guidesDir), 'utf8');
}

/**
 * A screenshot a guide shows (`![…](screenshots/x.png)` in docs/*.md), which the guide's page at
 * /docs/guides/{name} resolves to /docs/guides/screenshots/x.png. Only plain file names are
 * read, so no path leaves the folder; undefined when there is no such picture.
 */
export async function readScreenshot(file: string): Promise<Buffer | undefined> {
  if (!/^[a-z0-9][a-z0-9-]*\.png$/.test(file)) return undefined;
  return readFile(new URL(`screenshots/${file}`, guidesDir)).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });
}

/** A guide as an OpenAPI document without operations, so the reference renders its markdown. */
export async function guideDocument(name: GuideName, version: string) {
  const markdown = await readGuide(name);
  const [, heading = guides[name]] = markdown.match(/^#\s+(.+)$/m) ?? [];
  // The title is plain text in the page's heading and tab, where Markdown's backticks would show.
  const others = (Object.keys(guides) as GuideName[]).filter((g) => g !== name).map((g) => `[${guides[g]}](/docs/guides/${g})`).join(' · ');
  return {
    openapi: '3.1.0',
    info: {
      title: heading.replaceAll('`', ''),
      version,
      description: `[← API reference](/docs) · Other guides: ${others}\n\n${markdown.replace(/^#\s+.+\n/m, '')}`,
    },
    paths: {},
  };
}
