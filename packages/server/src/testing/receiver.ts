/**
 * A real webhook receiver for tests: an HTTP server on an ephemeral port that records every
 * delivery's raw bytes and headers and checks both signatures over those raw bytes.
 *
 *   const t = await startTestApp({ worker: true });          // the app plus a running worker
 *   const rx = await startReceiver();                          // http://127.0.0.1:<port>/hook
 *   const ep = await registerEndpoint(t, testKey, rx.url, ['transaction.succeeded']);
 *   rx.secret = ep.signingSecret;                              // verify against this secret
 *   ... do the thing that records the event ...
 *   const [d] = await rx.waitFor(1);                           // resolves after 1 delivery
 *   assert.ok(d.verified);                                     // X-Service-Signature and webhook-signature match
 *   assert.equal(d.json.type, 'transaction.succeeded');
 *   await rx.close();
 *
 * `respond` decides each answer (status, body, headers, delay, or `hang` to never answer), e.g.
 * `startReceiver({ respond: (n) => ({ status: n <= 2 ? 500 : 200 }) })` fails twice then succeeds.
 * Test-mode endpoints may use http://127.0.0.1; deliveries go through the same pipeline as live.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serviceSignature, standardSignature } from '../webhooks/signing.ts';
import type { TestApp } from './app.ts';

export interface ReceivedDelivery {
  /** 1-based arrival number. */
  n: number;
  at: number;
  raw: Buffer;
  headers: IncomingHttpHeaders;
  /** The body parsed: { id, type, created, data }. */
  json: any;
  /** Both signatures match the raw bytes under `secret` (false when no secret was set). */
  verified: boolean;
}

export interface ReceiverAnswer {
  status?: number;
  body?: string;
  headers?: Record<string, string>;
  delayMs?: number;
  /** Never answer (until the receiver closes): the sender's timeout is what ends the attempt. */
  hang?: boolean;
}

export interface Receiver {
  url: string;
  port: number;
  /** The signing secret deliveries are verified against; set it after registering the endpoint. */
  secret?: string;
  received: ReceivedDelivery[];
  /** Resolves with the first n deliveries once they have arrived; rejects after timeoutMs. */
  waitFor(n: number, timeoutMs?: number): Promise<ReceivedDelivery[]>;
  close(): Promise<void>;
}

export function verifySignatures(secret: string, raw: Buffer, headers: IncomingHttpHeaders): boolean {
  const id = String(headers['webhook-id'] ?? '');
  const ts = Number(headers['webhook-timestamp']);
  const v1 = String(headers['webhook-signature'] ?? '').split(' ');
  return headers['x-service-signature'] === serviceSignature(secret, raw)
    && v1.includes(standardSignature(secret, id, ts, raw));
}

export async function startReceiver(options: { secret?: string; respond?: (n: number, d: ReceivedDelivery) => ReceiverAnswer } = {}): Promise<Receiver> {
  const received: ReceivedDelivery[] = [];
  const waiters = new Set<() => void>();
  const hanging = new Set<() => void>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      let json: unknown;
      try { json = JSON.parse(raw.toString('utf8')); } catch { json = undefined; }
      const d: ReceivedDelivery = {
        n: received.length + 1,
        at: Date.now(),
        raw,
        headers: req.headers,
        json,
        verified: rx.secret ? verifySignatures(rx.secret, raw, req.headers) : false,
      };
      received.push(d);
      for (const w of [...waiters]) w();
      const answer = options.respond?.(d.n, d) ?? {};
      if (answer.hang) {
        hanging.add(() => res.destroy());
        return;
      }
      const send = () => {
        res.writeHead(answer.status ?? 200, { 'content-type': 'text/plain', ...answer.headers });
        res.end(answer.body ?? 'ok');
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const rx: Receiver = {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    secret: options.secret,
    received,
    waitFor(n, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (received.length < n) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(received.slice(0, n));
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`receiver got ${received.length} of ${n} deliveries within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async close() {
      for (const h of hanging) h();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return rx;
}

/** POST /webhooks through the app: returns the endpoint with its signing secret (shown only here). */
export async function registerEndpoint(t: TestApp, key: string, url: string, events: string[] = ['transaction.succeeded']) {
  const res = await t.request({ method: 'POST', url: '/api/v1/webhooks', key, payload: { url, events } });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().data as { id: string; url: string; events: string[]; status: string; signingSecret: string };
}
