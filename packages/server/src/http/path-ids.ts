import type { FastifyInstance } from 'fastify';
import { notFound } from '../errors.ts';

/**
 * Every path parameter of the API is an id we issued: a type prefix and base64url characters
 * (`prod_…`, `tx_…`), well under 100 characters. A value that cannot be one (a NUL or other
 * control character, a space, 3,000 characters) is answered like any other unknown id: 404
 * `not_found` in the envelope, the same on every route, before anything looks it up.
 * (The router's maxParamLength is raised in app.ts so that long values reach this check instead
 * of a bare 414.)
 */
const plausibleId = /^[A-Za-z0-9_-]{1,100}$/;

/** "products" -> "product", "deliveries" -> "delivery": what the path segment before an id names. */
function thingBefore(routeUrl: string, param: string): string {
  const segments = routeUrl.split('/');
  const at = segments.indexOf(`:${param}`);
  const plural = at > 0 ? segments[at - 1] : '';
  if (!plural || plural.startsWith(':')) return 'resource';
  return plural.endsWith('ies') ? `${plural.slice(0, -3)}y` : plural.replace(/s$/, '');
}

export function installPathIdCheck(app: FastifyInstance) {
  app.addHook('preValidation', (req, _reply, done) => {
    const url = req.routeOptions.url;
    if (!url?.startsWith('/api/')) return done();
    for (const [name, value] of Object.entries(req.params as Record<string, unknown>)) {
      if (typeof value === 'string' && !plausibleId.test(value)) throw notFound(thingBefore(url, name));
    }
    done();
  });
}
