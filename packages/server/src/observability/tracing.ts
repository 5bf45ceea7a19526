import type { Tracer } from '@opentelemetry/api';
import { traceStatements } from '../db/client.ts';

/**
 * OpenTelemetry tracing (docs/observability.md), on when OTEL_EXPORTER_OTLP_ENDPOINT is set.
 * Nothing of OpenTelemetry is imported until `startTracing` runs, and every place that makes a
 * span first checks `tracing`, so a process without the setting pays one variable read.
 *
 * The spans are made by hand at the three places that matter (the HTTP edge, db/client.ts's
 * statements through its `traceStatements` hook, webhooks/delivery.ts's attempts) rather than by the SDK's auto-instrumentation:
 * that patches modules as Node loads them, and `npm start` runs a bundle in which Fastify and pg
 * are not loaded as modules of their own (scripts/server-build.ts).
 */
export interface Tracing {
  api: typeof import('@opentelemetry/api');
  tracer: Tracer;
  /** Sends every ended span now (tests; shutdown). */
  flush(): Promise<void>;
  /** Flushes, then stops exporting. */
  shutdown(): Promise<void>;
}

export interface TracingSettings {
  /** An OTLP/HTTP collector's base URL; spans go to `<endpoint>/v1/traces` as JSON. */
  endpoint: string;
  serviceName: string;
  /** How long ended spans wait to be sent together (the batch processor's delay; OTEL_BSP_SCHEDULE_DELAY or 5 s unless set). */
  exportDelayMs?: number;
}

/** This process's tracing, once started; undefined means off. */
export let tracing: Tracing | undefined;

export async function startTracing(settings: TracingSettings): Promise<Tracing> {
  if (tracing) return tracing;
  const [api, sdk, { AsyncLocalStorageContextManager }, { W3CTraceContextPropagator }, { OTLPTraceExporter }, { resourceFromAttributes }] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/context-async-hooks'),
    import('@opentelemetry/core'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
  ]);
  const exporter = new OTLPTraceExporter({ url: `${settings.endpoint}/v1/traces` });
  const provider = new sdk.TracerProvider({
    resource: resourceFromAttributes({ 'service.name': settings.serviceName }),
    spanProcessors: [new sdk.BatchSpanProcessor({ exporter, ...(settings.exportDelayMs ? { scheduledDelayMillis: settings.exportDelayMs } : {}) })],
  });
  // Async-local context: a span started in a request's hook is the parent of the statements and
  // deliveries its handler runs, however many awaits later.
  api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  api.propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  api.trace.setGlobalTracerProvider(provider);
  const t: Tracing = {
    api,
    tracer: api.trace.getTracer('creator-commerce'),
    flush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
  traceStatements((sql, name, run) => statementSpan(t, sql, name, run));
  tracing = t;
  return t;
}

/** The first word of a statement (SELECT, INSERT, WITH, …): a span name that is bounded and says what ran. */
function statementVerb(sql: string): string {
  const match = /^\s*(?:--[^\n]*\n\s*)*([A-Za-z]+)/.exec(sql);
  return match ? match[1].toUpperCase() : 'SQL';
}

/**
 * Runs one database statement inside a client span named by its verb (and its prepared name when
 * it has one), when it runs inside a request or a delivery. The text is recorded without its
 * parameters, which hold people's data. Statements outside any span (the worker's polls and
 * claims, several a second even when idle) are not traced: each would be a trace of one span.
 */
export function statementSpan<T>(t: Tracing, sql: string, name: string | undefined, run: () => Promise<T>): Promise<T> {
  if (!t.api.trace.getSpan(t.api.context.active())) return run();
  const span = t.tracer.startSpan(name ? `${statementVerb(sql)} ${name}` : statementVerb(sql), {
    kind: t.api.SpanKind.CLIENT,
    attributes: { 'db.system.name': 'postgresql', 'db.query.text': sql.length > 2048 ? `${sql.slice(0, 2048)}…` : sql },
  });
  return t.api.context.with(t.api.trace.setSpan(t.api.context.active(), span), run).then(
    (result) => { span.end(); return result; },
    (err: unknown) => {
      span.setStatus({ code: t.api.SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
      span.end();
      throw err;
    },
  );
}

/** What a delivery span says about its delivery (no URL: a receiver's may carry a token). */
export interface DeliveryTraceFacts {
  deliveryId: string;
  eventId: string;
  eventType: string;
  endpointId: string;
  attempt: number;
  host: string;
}

/**
 * A client span for one delivery attempt, child of whatever is current (a resend's request; none
 * in the worker), and its W3C `traceparent` (and `tracestate`) written into `headers`, so the
 * receiver can continue the trace. `end` records how the attempt went.
 */
export function deliverySpan(t: Tracing, facts: DeliveryTraceFacts, headers: Record<string, string>) {
  const { api } = t;
  const span = t.tracer.startSpan('webhook delivery', {
    kind: api.SpanKind.CLIENT,
    attributes: {
      'http.request.method': 'POST',
      'server.address': facts.host,
      'webhook.delivery_id': facts.deliveryId,
      'webhook.event_id': facts.eventId,
      'webhook.event_type': facts.eventType,
      'webhook.endpoint_id': facts.endpointId,
      'webhook.attempt': facts.attempt,
    },
  });
  api.propagation.inject(api.trace.setSpan(api.context.active(), span), headers);
  return {
    end(result: { responseCode: number | null; error: string | null; outcome: string }) {
      if (result.responseCode !== null) span.setAttribute('http.response.status_code', result.responseCode);
      span.setAttribute('webhook.outcome', result.outcome);
      if (result.outcome !== 'succeeded') span.setStatus({ code: api.SpanStatusCode.ERROR, message: result.error ?? `HTTP ${result.responseCode}` });
      span.end();
    },
  };
}
