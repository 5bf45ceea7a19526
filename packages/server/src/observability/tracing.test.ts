import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../testing/app.ts';
import { createBrand, createKey } from '../testing/factories.ts';
import { registerEndpoint, startReceiver, type Receiver } from '../testing/receiver.ts';
import { startTracing, type Tracing } from './tracing.ts';
import { until } from '../testing/until.ts';

/**
 * Tracing as a collector sees it: a plain HTTP server stands in for an OTLP/HTTP collector and
 * receives the spans (JSON) of a request, its statements and the webhook delivery it causes, and
 * a real receiver gets a `traceparent` that names a span the collector received.
 */

interface ReceivedSpan { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; attributes: { key: string; value: Record<string, unknown> }[] }

let collector: Server;
const spans: ReceivedSpan[] = [];
const contentTypes = new Set<string>();
let tracing: Tracing;
let t: TestApp;
let rx: Receiver;

before(async () => {
  collector = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      contentTypes.add(`${req.method} ${req.url} ${req.headers['content-type']}`);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { resourceSpans: { scopeSpans: { spans: ReceivedSpan[] }[] }[] };
      for (const rs of body.resourceSpans) for (const ss of rs.scopeSpans) spans.push(...ss.spans);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  tracing = await startTracing({ endpoint: `http://127.0.0.1:${(collector.address() as AddressInfo).port}`, serviceName: 'tracing-test', exportDelayMs: 50 });
  // After tracing started: the app installs its request spans when it is built.
  t = await startTestApp({ worker: true });
  rx = await startReceiver();
});
after(async () => {
  await t.close();
  await rx.close();
  await tracing.shutdown();
  collector.close();
});

const attribute = (span: ReceivedSpan, key: string) => Object.values(span.attributes.find((a) => a.key === key)?.value ?? {})[0];

describe('OpenTelemetry tracing', () => {
  it('exports a request span that continues the caller\'s trace, with its statements inside it', async () => {
    const brand = await createBrand(t.db);
    const { key } = await createKey(t.db, brand.id, { mode: 'test' });
    const callerTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
    const callerSpan = '00f067aa0ba902b7';
    const res = await t.request({ method: 'GET', url: '/api/v1/products/prod_nothere', key, headers: { traceparent: `00-${callerTrace}-${callerSpan}-01` } });
    assert.equal(res.statusCode, 404);
    await tracing.flush();
    const request = await until('the request span', () => spans.find((s) => s.traceId === callerTrace && s.name === 'GET /api/v1/products/:id'));
    assert.equal(request.parentSpanId, callerSpan);
    assert.equal(request.kind, 2, 'a server span');
    assert.equal(attribute(request, 'http.response.status_code'), 404);
    // The product lookup (and the key's check) ran inside the request's span.
    const statements = spans.filter((s) => s.traceId === callerTrace && s.parentSpanId === request.spanId && attribute(s, 'db.system.name') === 'postgresql');
    assert.ok(statements.some((s) => s.name.startsWith('SELECT') && String(attribute(s, 'db.query.text')).includes('products')), `statements: ${statements.map((s) => s.name).join(', ')}`);
    assert.ok([...contentTypes].every((c) => c === 'POST /v1/traces application/json'), [...contentTypes].join(', '));
  });

  it('sends each webhook delivery with a traceparent that joins the delivery\'s exported span', async () => {
    const brand = await createBrand(t.db);
    const { key } = await createKey(t.db, brand.id, { mode: 'test' });
    const ep = await registerEndpoint(t, key, rx.url, ['transaction.succeeded']);
    rx.secret = ep.signingSecret;
    // Over a real socket, not inject: the body then arrives in the socket's callbacks, outside the request's context.
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const sent = await fetch(`${address}/api/v1/webhooks/test`, {
      method: 'POST', headers: { 'x-service-api': key, 'content-type': 'application/json' }, body: JSON.stringify({ eventType: 'transaction.succeeded' }),
    });
    assert.equal(sent.status, 200);
    const [got] = await rx.waitFor(1);
    assert.ok(got.verified, 'the signature still verifies with the extra header');
    const m = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/.exec(String(got.headers.traceparent));
    assert.ok(m, `a W3C traceparent: ${got.headers.traceparent}`);
    const [, traceId, spanId] = m;
    const delivery = await until('the delivery span', async () => {
      await tracing.flush();
      return spans.find((s) => s.traceId === traceId && s.spanId === spanId);
    });
    assert.equal(delivery.name, 'webhook delivery');
    assert.equal(delivery.kind, 3, 'a client span');
    assert.equal(attribute(delivery, 'webhook.event_id'), got.json.id);
    assert.equal(attribute(delivery, 'webhook.endpoint_id'), ep.id);
    assert.equal(attribute(delivery, 'http.response.status_code'), 200);
    assert.equal(attribute(delivery, 'webhook.outcome'), 'succeeded');
    // A POST's handler runs after its body was read, still inside the request's span: the event's insert is its child.
    const post = spans.find((s) => s.name === 'POST /api/v1/webhooks/test');
    assert.ok(post, 'the POST request span');
    assert.ok(spans.some((s) => s.traceId === post.traceId && s.parentSpanId === post.spanId && s.name.startsWith('INSERT')),
      `statements in the POST: ${spans.filter((s) => s.parentSpanId === post.spanId).map((s) => s.name).join(', ')}`);
  });
});
