import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppError } from '../errors.ts';
import { messagePage, sendPage } from '../pages/html.ts';

/**
 * The brand dashboard (packages/dashboard, a Vite-built single-page app) under `/dashboard`:
 * hashed files under `/dashboard/assets/` cached for a year, and index.html, never cached, for
 * every page path so that the SPA's router renders it (a reload of `/dashboard/developers/webhooks`
 * works). `/dashboard/api/*` is JSON only: a path no route claims is a 404 in the envelope, not
 * the app's HTML. The build is made by the dashboard's `prepare` script on `npm ci`; without it
 * the pages say so instead of failing.
 */

export const defaultDashboardDir = fileURLToPath(new URL('../../../dashboard/dist', import.meta.url));

/**
 * Scripts only from our origin (no inline script, no eval); styles also inline because Radix
 * positions popovers and locks scrolling with injected style rules; API calls only to our origin;
 * never framed. Images may come from https: product images are external URLs.
 */
const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: https:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

function securityHeaders(reply: FastifyReply) {
  return reply
    .header('content-security-policy', contentSecurityPolicy)
    .header('x-frame-options', 'DENY')
    .header('x-content-type-options', 'nosniff')
    // same-origin, not no-referrer: with no-referrer the browser sends `Origin: null` on the
    // app's own POSTs, which the CSRF check refuses.
    .header('referrer-policy', 'same-origin');
}

export async function dashboardStatic(app: FastifyInstance, options: { dir?: string } = {}) {
  const dir = options.dir ?? defaultDashboardDir;
  const indexPath = join(dir, 'index.html');

  await app.register(fastifyStatic, {
    root: join(dir, 'assets'),
    prefix: '/dashboard/assets/',
    decorateReply: false,
    index: false,
    // The build may appear after the server started (npm ci in another terminal): look files up
    // per request rather than globbing once, and do not warn about a folder that is not there yet.
    wildcard: true,
    suppressWarning: true,
    // The build writes a .br and a .gz beside each asset (vite.config.ts, precompress): sent as
    // they are to a browser that accepts them, with Vary: Accept-Encoding. A build without them
    // is compressed per request instead (http/compression.ts).
    preCompressed: true,
    // Vite names every asset by its content hash: a changed file gets a new name.
    cacheControl: false,
    setHeaders: (res) => {
      res.header('cache-control', 'public, max-age=31536000, immutable');
      res.header('x-content-type-options', 'nosniff');
    },
  });

  const sendIndex = async (reply: FastifyReply) => {
    let html: string;
    try {
      html = await readFile(indexPath, 'utf8');
    } catch {
      return sendPage(reply, 503, messagePage('The dashboard is not built',
        'This server has no dashboard build. Run `npm ci` in the project folder (it builds packages/dashboard), or '
        + '`npm run build -w packages/dashboard`, then reload this page.'));
    }
    return securityHeaders(reply)
      .header('content-type', 'text/html; charset=utf-8')
      // Always ask again: a new build must reach people at once, its assets have new names.
      .header('cache-control', 'no-cache')
      .send(html);
  };

  const page = { schema: { hide: true } };
  app.get('/dashboard', page, (_req, reply) => sendIndex(reply));
  app.get('/dashboard/*', page, (req, reply) => {
    const path = req.url.split('?')[0];
    if (path === '/dashboard/api' || path.startsWith('/dashboard/api/')) {
      throw new AppError('route_not_found', `No route ${req.method} ${path}. The dashboard's JSON routes are listed in docs/dashboard.md.`);
    }
    return sendIndex(reply);
  });
}
