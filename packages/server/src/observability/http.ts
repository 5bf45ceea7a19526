import type { Span } from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServiceMetrics } from './metrics.ts';
import type { Tracing } from './tracing.ts';

/** The route a request matched, as its pattern (`/api/v1/products/:id`): bounded, unlike its path. */
const routeOf = (req: FastifyRequest) => req.routeOptions.url ?? 'unmatched';

/** Every answered request, counted and timed under its method, route pattern and status (GET /metrics). */
export function installHttpMetrics(app: FastifyInstance, metrics: ServiceMetrics) {
  app.addHook('onResponse', (req, reply, done) => {
    metrics.httpRequests.observe({ method: req.method, route: routeOf(req), status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
    done();
  });
}

/**
 * A server span per request, the child of the caller's span when the request carries a W3C
 * `traceparent`, made current in the first hook: the later hooks and the handler (with its
 * statements and any delivery it sends) run inside it. Fastify runs a body's parser in the
 * request's async context, so a POST's handler is inside it too (tracing.test.ts sends one over a
 * real socket).
 */
export function installRequestSpans(app: FastifyInstance, t: Tracing) {
  const { api } = t;
  const spans = new WeakMap<FastifyRequest, Span>();
  app.addHook('onRequest', (req, _reply, done) => {
    const parent = api.propagation.extract(api.ROOT_CONTEXT, req.headers);
    const span = t.tracer.startSpan(`${req.method} ${routeOf(req)}`, {
      kind: api.SpanKind.SERVER,
      attributes: { 'http.request.method': req.method, 'http.route': routeOf(req) },
    }, parent);
    spans.set(req, span);
    api.context.with(api.trace.setSpan(parent, span), done);
  });
  const end = (req: FastifyRequest, status?: number) => {
    const span = spans.get(req);
    if (!span) return;
    spans.delete(req);
    if (status !== undefined) {
      span.setAttribute('http.response.status_code', status);
      if (status >= 500) span.setStatus({ code: api.SpanStatusCode.ERROR });
    }
    span.end();
  };
  app.addHook('onResponse', (req, reply, done) => { end(req, reply.statusCode); done(); });
  app.addHook('onRequestAbort', (req, done) => { end(req); done(); });
}
