import { randomBytes } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { WebhookSettings } from '../config.ts';
import { isConnectionError, type Queryable } from '../db/client.ts';
import type { Mode } from '../auth/principal.ts';
import * as claims from './claim.ts';
import type { DeliveryStatus } from './repository.ts';
import { openSecret, secretContext } from '../security/secret-box.ts';
import { deliveryHeaders, signingKey, type SigningKey } from './signing.ts';
import { forbiddenAddress, guardedLookup, isDevLoopback, systemLookup, type Lookup } from '../security/url-guard.ts';
import { recordDeliveryOutcome } from '../observability/metrics.ts';
import { deliverySpan, tracing } from '../observability/tracing.ts';

/** What one POST to a receiver came to. */
export interface AttemptResult {
  attemptedAt: Date;
  durationMs: number;
  responseCode: number | null;
  /** Network error, timeout or refusal, in words; null when the receiver answered. */
  error: string | null;
  /** The first 1 KB of the receiver's answer. */
  responseBody: string | null;
  retryAfterMs: number | null;
}

const keptBodyBytes = 1024;
/** Read at most this much of an answer (to keep the connection reusable), then hang up. */
const drainBytes = 64 * 1024;

/** The exact bytes sent: the same for every attempt and resend of one event. */
export function deliveryBody(event: { id: string; type: string; created: Date; data: Record<string, unknown> }): string {
  return JSON.stringify({ id: event.id, type: event.type, created: event.created.toISOString(), data: event.data });
}

function parseRetryAfter(value: string | undefined, now: number): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** PostgreSQL text cannot hold NUL, and a receiver may answer with anything. */
const printable = (bytes: Buffer) => bytes.toString('utf8').replaceAll('\u0000', '\uFFFD');

export interface Poster {
  post(target: { url: string; mode: Mode }, body: string, headers: Record<string, string>): Promise<AttemptResult>;
  close(): void;
}

/**
 * POSTs over node:http(s) with keep-alive, no redirects (a 3xx is a failed attempt) and one
 * deadline for the whole exchange. Every name is resolved through `guardedLookup`, so the address
 * connected to is the one checked; IP literals are checked here. Test mode's loopback exception
 * (localhost, 127.0.0.1, [::1]) is the only way to reach a private address.
 *
 * Connections are kept and reused per origin (the agent's pool, up to 256 per origin); the lookup
 * guard runs whenever the agent opens a new one. Deliveries under the loopback exception get
 * their own agents, so a kept connection opened under it is never reused by a delivery that
 * must not reach loopback (the agent pools by host and port, not by who may connect).
 */
export function createPoster(timeoutMs: number, lookup: Lookup = systemLookup, allowLoopback = false): Poster {
  const newAgents = () => ({
    http: new http.Agent({ keepAlive: true, maxSockets: 256 }),
    https: new https.Agent({ keepAlive: true, maxSockets: 256 }),
  });
  const guarded = newAgents();
  const loopback = newAgents();
  const post: Poster['post'] = (target, body, headers) => new Promise((resolve) => {
    const started = Date.now();
    const attemptedAt = new Date(started);
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (r: Partial<AttemptResult>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ attemptedAt, durationMs: Date.now() - started, responseCode: null, error: null, responseBody: null, retryAfterMs: null, ...r });
    };
    let url: URL;
    try {
      url = new URL(target.url);
    } catch {
      return finish({ error: 'refused: the endpoint URL is not valid' });
    }
    const loopbackOk = isDevLoopback(url, target.mode, allowLoopback);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (url.protocol !== 'https:' && !(loopbackOk && url.protocol === 'http:')) {
      return finish({ error: `refused: ${url.protocol}// is not allowed for this endpoint` });
    }
    if (isIP(host) && !loopbackOk) {
      const why = forbiddenAddress(host);
      if (why) return finish({ error: `refused: ${why}` });
    }
    timer = setTimeout(() => {
      req.destroy();
      finish({ error: `timeout: no answer within ${timeoutMs} ms` });
    }, timeoutMs);
    const mod = url.protocol === 'https:' ? https : http;
    const agents = loopbackOk ? loopback : guarded;
    const req = mod.request(url, {
      method: 'POST',
      agent: url.protocol === 'https:' ? agents.https : agents.http,
      headers: { ...headers, 'content-length': Buffer.byteLength(body) },
      lookup: guardedLookup(lookup, loopbackOk) as never,
    }, (res) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      let seen = 0;
      const done = () => {
        const code = res.statusCode ?? 0;
        const retryAfterMs = code === 429 || code === 503 ? parseRetryAfter(res.headers['retry-after'], Date.now()) : null;
        finish({ responseCode: code, responseBody: printable(Buffer.concat(chunks)), retryAfterMs });
      };
      res.on('data', (chunk: Buffer) => {
        seen += chunk.length;
        if (kept < keptBodyBytes) {
          const part = chunk.subarray(0, keptBodyBytes - kept);
          chunks.push(part);
          kept += part.length;
        }
        if (seen > drainBytes) { res.destroy(); done(); }
      });
      res.on('end', done);
      res.on('error', done);
      res.on('aborted', done);
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      const message = err.message.startsWith('refused:') ? err.message : `network error: ${err.code ?? ''} ${err.message}`.replace(/\s+/g, ' ').trim();
      finish({ error: message.replaceAll('\u0000', '') });
    });
    req.end(body);
  });
  return {
    post,
    close() {
      for (const agents of [guarded, loopback]) { agents.http.destroy(); agents.https.destroy(); }
    },
  };
}

/** When to try again after attempt number `attempt` (1-based) failed, or null when that was the last. */
export function nextAttemptDelay(settings: WebhookSettings, attempt: number, retryAfterMs: number | null): number | null {
  const base = settings.retryScheduleMs[attempt - 1];
  if (base === undefined) return null;
  const jittered = base * (1 + settings.retryJitter * (Math.random() * 2 - 1));
  return Math.round(retryAfterMs === null ? jittered : Math.max(jittered, Math.min(retryAfterMs, settings.retryAfterMaxMs)));
}

export interface DelivererDeps {
  db: Queryable;
  settings: WebhookSettings;
  key: Buffer;
  log: FastifyBaseLogger;
  lookup?: Lookup;
}

export interface Deliverer {
  /** Sends one claimed delivery and records the attempt; never throws for a receiver's failure. */
  deliver(d: claims.ClaimedDelivery): Promise<void>;
  /**
   * The same in two steps, for the worker: resolves once the receiver has answered (or the
   * attempt ended otherwise), with `recorded` settling when the attempt is written. The worker
   * frees the delivery's sending slot at the first and keeps its claim until the second, so
   * sending never waits for the database.
   */
  send(d: claims.ClaimedDelivery): Promise<{ recorded: Promise<void> }>;
  /** A claim token unique to this process and call. */
  claimToken(): string;
  close(): void;
}

/**
 * Writes finished attempts in batches: a write starts as soon as one is waiting, and whatever
 * finishes meanwhile goes into the next write. Idle, that is one statement per attempt with no
 * added delay; under load, one statement for many (autocommit is the expensive part).
 *
 * A batch whose statement fails for another reason than a lost connection (the statement
 * timeout, a deadlock, a row locked elsewhere) is written again one attempt per statement, a few
 * at a time, with one log line saying how many: a failed statement wrote nothing, and giving up
 * the whole batch let every claim in it lapse and the deliveries go out a second time (issue 20).
 * One at a time, whatever held the batch up holds up only the attempts it concerns, and the rest
 * are recorded before their claims run out.
 */
function attemptRecorder(db: Queryable, log: FastifyBaseLogger) {
  type Waiting = { item: claims.RecordedAttempt; done: (ok: boolean) => void; fail: (err: unknown) => void };
  let queue: Waiting[] = [];
  let writing = false;
  // setImmediate lets finished HTTP exchanges (I/O callbacks) join the queue before each write;
  // PGlite runs on this thread, so without it every write would carry one attempt.
  const yieldToIo = () => new Promise<void>((resolve) => setImmediate(resolve));
  /** Writes a batch; gives back the error when it failed and is worth writing again one by one. */
  const write = async (batch: Waiting[]): Promise<unknown> => {
    try {
      const recorded = await claims.recordAttempts(db, batch.map((b) => b.item));
      for (const b of batch) b.done(recorded.has(b.item.delivery.id));
      return undefined;
    } catch (err) {
      if (batch.length === 1 || isConnectionError(err)) {
        for (const b of batch) b.fail(err);
        return undefined;
      }
      return err;
    }
  };
  const writeOneByOne = async (batch: Waiting[], err: unknown) => {
    log.warn({ attempts: batch.length, reason: (err as Error).message }, 'webhook attempts: the batch\'s statement failed; writing them again in smaller pieces, one each');
    let next = 0;
    await Promise.all(Array.from({ length: Math.min(8, batch.length) }, async () => {
      while (next < batch.length) await write([batch[next++]]);
    }));
  };
  const flush = async () => {
    writing = true;
    await yieldToIo();
    while (queue.length) {
      const batch = queue.slice(0, 500);
      queue = queue.slice(batch.length);
      const failed = await write(batch);
      if (failed) await writeOneByOne(batch, failed);
      await yieldToIo();
    }
    writing = false;
  };
  return {
    record(item: claims.RecordedAttempt): Promise<boolean> {
      return new Promise((done, fail) => {
        queue.push({ item, done, fail });
        if (!writing) void flush();
      });
    },
  };
}

/**
 * Opened signing secrets, by sealed value and endpoint: opening (AES-GCM) and deriving the HMAC
 * keys once per endpoint rather than per delivery. A rolled secret is a new sealed value; the map
 * is emptied when it grows past `max`, so secrets of deleted endpoints do not pile up.
 */
function signingKeys(key: Buffer, max = 1000) {
  const opened = new Map<string, SigningKey>();
  return (sealed: string, context: string): SigningKey => {
    const id = `${context} ${sealed}`;
    let k = opened.get(id);
    if (!k) {
      if (opened.size >= max) opened.clear();
      k = signingKey(openSecret(key, sealed, context));
      opened.set(id, k);
    }
    return k;
  };
}

const hostOf = (url: string) => { try { return new URL(url).host; } catch { return ''; } };

/** The one path every delivery takes (worker and resend alike): sign, POST, record. */
export function createDeliverer(deps: DelivererDeps): Deliverer {
  const poster = createPoster(deps.settings.timeoutMs, deps.lookup, deps.settings.allowLoopback);
  const processId = randomBytes(6).toString('base64url');
  const recorder = attemptRecorder(deps.db, deps.log);
  const keyFor = signingKeys(deps.key);
  // The attempt line's fields are fixed above and hold no secret (ids, event type, status code,
  // our own error words), so it skips the logger's redaction, whose wildcard paths walk every
  // field of every line: about two thirds of the line's cost, paid once per delivery.
  const attemptLog = deps.log.child({}, { redact: [] });
  let seq = 0;
  const send: Deliverer['send'] = async (d) => {
    if (!d.url || !d.secret_sealed || d.endpoint_status !== 'active') {
      const recorded = claims.abandonDelivery(deps.db, d, d.url ? 'endpoint_disabled' : 'endpoint_deleted');
      return { recorded: recorded.then(() => recordDeliveryOutcome('abandoned')) };
    }
    const context = secretContext(d.brand_id, d.endpoint_id);
    const secret = keyFor(d.secret_sealed, context);
    // A rolled secret signs too until its overlap ends, judged when the attempt is signed.
    const now = Date.now();
    const previous = d.previous_secret_sealed && d.previous_secret_expires_at && d.previous_secret_expires_at.getTime() > now
      ? keyFor(d.previous_secret_sealed, context)
      : undefined;
    const body = deliveryBody({ id: d.event_id, type: d.event_type, created: d.event_created_at, data: d.event_data });
    const headers = deliveryHeaders(secret, d.event_id, body, now, previous);
    const attempt = d.attempts + 1;
    // With tracing on (OTEL_EXPORTER_OTLP_ENDPOINT), the attempt is a span and carries its traceparent.
    const span = tracing && deliverySpan(tracing, {
      deliveryId: d.id, eventId: d.event_id, eventType: d.event_type, endpointId: d.endpoint_id, attempt, host: hostOf(d.url),
    }, headers);
    const result = await poster.post({ url: d.url, mode: d.mode }, body, headers);
    const ok = result.responseCode !== null && result.responseCode >= 200 && result.responseCode < 300;
    const gone = result.responseCode === 410;
    const delay = ok || gone ? null : nextAttemptDelay(deps.settings, attempt, result.retryAfterMs);
    const status: DeliveryStatus = ok ? 'succeeded' : delay === null ? 'failed' : 'pending';
    const outcome = status === 'pending' ? 'retrying' : status;
    span?.end({ responseCode: result.responseCode, error: result.error, outcome });
    attemptLog.info({ delivery: d.id, endpoint: d.endpoint_id, eventType: d.event_type, attempt, responseCode: result.responseCode, error: result.error, durationMs: result.durationMs, outcome: status, nextRetryInSeconds: delay === null ? null : Math.round(delay / 1000) }, 'webhook delivery attempt');
    const recorded = recorder.record({ delivery: d, attempt: result, outcome: {
      status,
      nextAttemptAt: delay === null ? null : new Date(Date.now() + delay),
      failureReason: status !== 'failed' ? null : gone ? 'endpoint_gone' : 'attempts_exhausted',
      disableReason: gone ? 'gone: the endpoint answered 410 Gone' : null,
      failingCutoff: new Date(result.attemptedAt.getTime() - deps.settings.disableAfterMs),
    } }).then((mine) => {
      // Counted once recorded: an attempt whose claim expired is another worker's to make again.
      if (mine) recordDeliveryOutcome(outcome, result.durationMs);
      else deps.log.warn({ delivery: d.id }, 'webhook delivery claim expired before its attempt was recorded');
    });
    return { recorded };
  };
  return {
    claimToken: () => `${processId}:${++seq}`,
    close: () => poster.close(),
    send,
    async deliver(d) {
      await (await send(d)).recorded;
    },
  };
}
