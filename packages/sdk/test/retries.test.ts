import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  APIError, Client, ConflictError, ConnectionError, NotFoundError, RateLimitError, ServiceError, TimeoutError, ValidationError,
} from '../src/index.ts';
import { retryDelayMs } from '../src/request.ts';

/**
 * Retries against a local HTTP server that fails a chosen number of times and then succeeds.
 * The database plays no part here, so these run the same on both test runs.
 */

interface Script {
  /** What the nth request (1-based) gets. */
  answer(n: number): { status: number; body?: unknown; headers?: Record<string, string>; destroy?: boolean; delayMs?: number };
}

let server: Server;
let baseUrl: string;
let script: Script;
let seen: { method: string; url: string; headers: IncomingHttpHeaders; body: string; at: number }[] = [];

before(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString(), at: Date.now() });
      const a = script.answer(seen.length);
      if (a.destroy) { req.socket.destroy(); return; }
      const send = () => {
        res.writeHead(a.status, { 'content-type': 'application/json', 'x-request-id': `req_${seen.length}`, ...a.headers });
        res.end(JSON.stringify(a.body ?? { status: 'success', message: 'ok', data: { ok: true, n: seen.length } }));
      };
      if (a.delayMs) setTimeout(send, a.delayMs); else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const errorBody = (code: string, message = 'no') => ({ status: 'error', message, data: { code, requestId: 'req_x' } });
const failThenSucceed = (failures: number, status: number, code: string, headers?: Record<string, string>): Script => ({
  answer: (n) => (n <= failures ? { status, body: errorBody(code), headers } : { status: 200 }),
});

function fresh(s: Script, options: Partial<ConstructorParameters<typeof Client>[0]> = {}) {
  seen = [];
  script = s;
  return new Client({ apiKey: 'svc_test_x', baseUrl, ...options });
}

describe('retries', () => {
  for (const [status, code] of [[500, 'internal_error'], [502, 'internal_error'], [503, 'service_unavailable'], [504, 'internal_error'], [429, 'rate_limited'], [409, 'idempotency_in_progress']] as const) {
    it(`retries ${status} ${code} with the same Idempotency-Key, then succeeds`, async () => {
      const client = fresh(failThenSucceed(2, status, code, { 'retry-after': '0' }));
      const link = await client.paymentLinks.create({ items: [], form: { formData: { fullName: 'A', email: 'a@example.com' } } });
      assert.deepEqual(link, { ok: true, n: 3 });
      assert.equal(seen.length, 3);
      const keys = seen.map((r) => r.headers['idempotency-key']);
      assert.match(String(keys[0]), /^[0-9a-f-]{36}$/);
      assert.deepEqual(new Set(keys).size, 1, 'one key per logical call, reused on every try');
      assert.deepEqual(new Set(seen.map((r) => r.body)).size, 1, 'the same body on every try');
    });
  }

  it('gives each logical call its own key', async () => {
    const client = fresh({ answer: () => ({ status: 200 }) });
    await client.webhooks.delete('we_1');
    await client.webhooks.update('we_1', { description: 'x' });
    await client.webhooks.update('we_1', { description: 'x' }, { idempotencyKey: 'mine' });
    assert.deepEqual(seen.map((r) => r.method), ['DELETE', 'PATCH', 'PATCH']);
    assert.equal(new Set(seen.map((r) => r.headers['idempotency-key'])).size, 3);
    assert.equal(seen[2].headers['idempotency-key'], 'mine');
  });

  it('never retries other 4xx, and not a 409 conflict', async () => {
    for (const [status, code, type] of [[400, 'validation_failed', ValidationError], [404, 'not_found', NotFoundError], [409, 'conflict', ConflictError]] as const) {
      const client = fresh(failThenSucceed(5, status, code));
      await assert.rejects(() => client.products.get('prod_1'), type);
      assert.equal(seen.length, 1, `${status} is answered once`);
    }
  });

  it('gives up after maxRetries (default 2), with the last error', async () => {
    const client = fresh(failThenSucceed(10, 503, 'service_unavailable', { 'retry-after': '0' }));
    const err = await client.products.list().catch((e: unknown) => e);
    assert.ok(err instanceof APIError);
    assert.equal(err.status, 503);
    assert.equal(seen.length, 3);
  });

  it('takes maxRetries per client and per call', async () => {
    let client = fresh(failThenSucceed(10, 500, 'internal_error', { 'retry-after': '0' }), { maxRetries: 0 });
    await assert.rejects(() => client.ping(), APIError);
    assert.equal(seen.length, 1);
    client = fresh(failThenSucceed(10, 500, 'internal_error', { 'retry-after': '0' }), { maxRetries: 0 });
    await assert.rejects(() => client.ping({ maxRetries: 4 }), APIError);
    assert.equal(seen.length, 5);
  });

  it('waits as long as Retry-After says', async () => {
    const client = fresh(failThenSucceed(1, 429, 'rate_limited', { 'retry-after': '1' }));
    await client.ping();
    assert.equal(seen.length, 2);
    assert.ok(seen[1].at - seen[0].at >= 950, `waited ${seen[1].at - seen[0].at} ms`);
  });

  it('does not wait out a Retry-After over a minute: the caller gets a RateLimitError with retryAfter', async () => {
    const client = fresh(failThenSucceed(1, 429, 'rate_limited', { 'retry-after': '3600' }));
    const err = await client.ping().catch((e: unknown) => e);
    assert.ok(err instanceof RateLimitError);
    assert.equal(err.retryAfter, 3600);
    assert.equal(err.code, 'rate_limited');
    assert.equal(seen.length, 1);
  });

  it('backs off exponentially with full jitter when there is no Retry-After', () => {
    assert.equal(retryDelayMs(0, undefined, () => 1), 500);
    assert.equal(retryDelayMs(1, undefined, () => 1), 1000);
    assert.equal(retryDelayMs(2, undefined, () => 0.5), 1000);
    assert.equal(retryDelayMs(10, undefined, () => 1), 8000, 'capped');
    assert.equal(retryDelayMs(3, undefined, () => 0), 0, 'anywhere from zero');
    assert.equal(retryDelayMs(3, 2), 2000, 'Retry-After wins');
  });

  it('retries network errors and says ConnectionError when they persist', async () => {
    let client = fresh({ answer: (n) => (n <= 1 ? { status: 0, destroy: true } : { status: 200 }) });
    assert.deepEqual(await client.webhooks.test({ eventType: 'member.joined' }), { ok: true, n: 2 });
    assert.equal(seen[0].headers['idempotency-key'], seen[1].headers['idempotency-key']);

    client = fresh({ answer: () => ({ status: 0, destroy: true }) }, { maxRetries: 1 });
    const err = await client.ping().catch((e: unknown) => e);
    assert.ok(err instanceof ConnectionError);
    assert.ok(err instanceof ServiceError);
    assert.equal(err.code, 'connection_error');
    assert.equal(err.status, undefined);
    assert.equal(seen.length, 2);

    const nowhere = new Client({ apiKey: 'k', baseUrl: 'http://127.0.0.1:1', maxRetries: 0 });
    await assert.rejects(() => nowhere.ping(), ConnectionError);
  });

  it('abandons an attempt after `timeout` ms as a TimeoutError, retried like a network error', async () => {
    let client = fresh({ answer: (n) => ({ status: 200, delayMs: n === 1 ? 500 : 0 }) });
    assert.deepEqual(await client.ping({ timeout: 100 }), { ok: true, n: 2 });

    client = fresh({ answer: () => ({ status: 200, delayMs: 500 }) }, { timeout: 50, maxRetries: 0 });
    const err = await client.ping().catch((e: unknown) => e);
    assert.ok(err instanceof TimeoutError);
    assert.ok(err instanceof ConnectionError);
    assert.equal(err.code, 'timeout');
  });

  it('stops at once when the caller\'s signal aborts, even between retries', async () => {
    let client = fresh({ answer: () => ({ status: 200, delayMs: 1000 }) });
    const started = Date.now();
    await assert.rejects(() => client.ping({ signal: AbortSignal.timeout(50) }), (e: Error) => e.name === 'TimeoutError' || e.name === 'AbortError');
    assert.ok(Date.now() - started < 900);
    assert.equal(seen.length, 1, 'not retried');

    client = fresh(failThenSucceed(10, 503, 'service_unavailable', { 'retry-after': '5' }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('stop')), 100);
    await assert.rejects(() => client.ping({ signal: controller.signal }), /stop/);
    assert.equal(seen.length, 1);
  });

  it('says so when the answer is not the API\'s envelope', async () => {
    const client = fresh({ answer: () => ({ status: 200, body: '<html>' }) });
    await assert.rejects(() => client.ping(), /without the \{ status, message, data \} envelope/);
  });
});

describe('typed errors', () => {
  it('recognises errors from another copy of the package by their brand, not their prototype', async () => {
    const copy = await import(`../src/errors.ts?copy=${Date.now()}`) as typeof import('../src/errors.ts');
    assert.notEqual(copy.NotFoundError, NotFoundError);
    const foreign = new copy.NotFoundError({ status: 404, code: 'not_found', message: 'x' });
    assert.ok(foreign instanceof NotFoundError);
    assert.ok(foreign instanceof ServiceError);
    assert.ok(!(foreign instanceof ValidationError));
    const local = new TimeoutError({ code: 'timeout', message: 't' });
    assert.ok(local instanceof copy.ConnectionError);
    assert.ok(local instanceof copy.ServiceError);
    assert.ok(!(local instanceof copy.APIError));
    assert.ok(local instanceof Error);
    assert.equal(local.name, 'TimeoutError');
  });

  it('maps each status to its class', async () => {
    const { errorFromResponse } = await import('../src/errors.ts');
    const h = new Headers({ 'x-request-id': 'req_h', 'retry-after': '7' });
    const of = (status: number) => errorFromResponse(status, errorBody('x'), h).constructor.name;
    assert.deepEqual([400, 401, 403, 404, 409, 413, 422, 429, 500, 503].map(of),
      ['ValidationError', 'AuthenticationError', 'PermissionError', 'NotFoundError', 'ConflictError', 'ServiceError', 'ValidationError', 'RateLimitError', 'APIError', 'APIError']);
    const e = errorFromResponse(502, 'Bad gateway', h);
    assert.equal(e.code, 'internal_error');
    assert.equal(e.requestId, 'req_h');
  });
});

describe('answers not worth retrying, and network failures in words', () => {
  it('does not retry 503 not_configured (the server is not set up for it)', async () => {
    const client = fresh(failThenSucceed(5, 503, 'not_configured', { 'retry-after': '0' }));
    const err = await client.products.list().catch((e: unknown) => e);
    assert.ok(err instanceof APIError);
    assert.equal(err.code, 'not_configured');
    assert.equal(seen.length, 1, 'asked once');
  });

  it('names the cause of a refused connection (ECONNREFUSED host:port)', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const client = new Client({ apiKey: 'svc_test_x', baseUrl: `http://127.0.0.1:${port}`, maxRetries: 0 });
    const err = await client.products.list().catch((e: unknown) => e);
    assert.ok(err instanceof ConnectionError);
    assert.match(err.message, new RegExp(`ECONNREFUSED 127\\.0\\.0\\.1:${port}`));
  });
});
