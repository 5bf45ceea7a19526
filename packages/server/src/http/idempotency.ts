import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { principalOf } from '../auth/resolve.ts';
import type { Db, Queryable } from '../db/client.ts';
import { AppError, invalid } from '../errors.ts';
import { ok } from './envelope.ts';
import { errorEnvelope, toAppError } from './error-handler.ts';
import * as store from '../idempotency/store.ts';
import { openSecret, sealSecret } from '../security/secret-box.ts';

/**
 * Idempotency-Key on every POST, PATCH and DELETE of /api/v1, as Stripe has it
 * (docs/idempotency.md):
 *  - the first request's status and body are stored for 24 hours per key, brand and mode, in the
 *    same database transaction as the change it made;
 *  - a retry with the same key and the same request gets that status and body again, with
 *    `Idempotent-Replayed: true`, and changes nothing;
 *  - the same key with a different request is 422 `idempotency_key_reused`;
 *  - while the first is still running, a twin gets 409 `idempotency_in_progress` (retryable);
 *  - a request refused by validation (400), by a twin (409), or that failed on our side (5xx) is
 *    not stored, so it may be retried; any other answer is.
 *
 * Write routes answer through `write` (one transaction) or `writeFlow` (a flows.ts function
 * that commits more than once; its answer is stored right after it, in a transaction of its own).
 *
 * Stored answers are sealed (AES-256-GCM under the server key, as webhook signing secrets are):
 * some hold a secret shown once (a new endpoint's signing secret, a rolled one), which must not
 * sit in the database in clear for a day.
 */

declare module 'fastify' {
  interface FastifyRequest {
    /** Set once a write route answered through write()/writeFlow(). */
    idempotencyHandled?: boolean;
  }
  interface FastifyInstance {
    /** The key stored answers are sealed under (installIdempotencyGuard). */
    idempotencySealingKey: Buffer;
  }
}

export const idempotencyHeader = 'idempotency-key';
/** How long a claim holds the key while its request runs; a process that died mid-request lets go after this. */
const leaseMs = 60_000;

const isWrite = (method: string) => method === 'POST' || method === 'PATCH' || method === 'DELETE';

/** Documents the header on every write of /api/v1 (onRoute, before the OpenAPI document is built). */
export function documentIdempotencyHeader(route: { method: string | string[]; url: string; schema?: Record<string, unknown> }) {
  if (!route.url.startsWith('/api/v1/') || !route.schema || (route.schema as { hide?: boolean }).hide) return;
  if (![route.method].flat().some(isWrite)) return;
  const headers = (route.schema.headers as ReturnType<typeof Type.Object> | undefined)?.properties ?? {};
  route.schema.headers = Type.Object({
    ...headers,
    'idempotency-key': Type.Optional(Type.String({
      minLength: 1,
      maxLength: 255,
      description: 'Any unique string of up to 255 characters (a UUID, say). A retry with the same key and the same request '
        + 'gets the first answer again (`Idempotent-Replayed: true`) and changes nothing; keys are kept 24 hours per brand and mode. '
        + 'See docs/idempotency.md.',
    })),
  });
}

/**
 * Catches a write route that forgot to go through write() (a key would be silently ignored), and
 * holds the key stored answers are sealed under.
 */
export function installIdempotencyGuard(app: FastifyInstance, sealingKey: Buffer) {
  app.decorate('idempotencySealingKey', sealingKey);
  app.addHook('onSend', (req, reply, payload, done) => {
    if (req.headers[idempotencyHeader] !== undefined && isWrite(req.method) && req.routeOptions.config.auth
      && !req.idempotencyHandled && reply.statusCode < 300) {
      req.log.error({ route: req.routeOptions.url }, 'a write route answered without write(): its Idempotency-Key was ignored');
    }
    done(null, payload);
  });
}

interface Claimed {
  brandId: string;
  mode: 'test' | 'live';
  key: string;
  token: string;
}

/** The brand, mode and key are the sealed answer's additional data: copied onto another key, it does not open. */
const sealContext = (k: { brandId: string; mode: string; key: string }) => `idempotency/${k.brandId}/${k.mode}/${k.key}`;

/** Stores the answer on the claimed key, sealed. */
const completeSealed = (tx: Queryable, req: FastifyRequest, claim: Claimed, response: { status: number; body: string }) =>
  store.complete(tx, claim, { status: response.status, body: sealSecret(req.server.idempotencySealingKey, response.body, sealContext(claim)) });

/**
 * A stored answer's bytes; answers stored before they were sealed (JSON, so never `v1.…`) are as
 * stored. One that does not open (the server key changed since, or the row was tampered with) is
 * refused rather than replayed.
 */
function openAnswer(req: FastifyRequest, row: store.IdempotencyRow): string {
  const stored = row.response_body!;
  if (!stored.startsWith('v1.')) return stored;
  try {
    return openSecret(req.server.idempotencySealingKey, stored, sealContext({ brandId: row.brand_id, mode: row.mode, key: row.key }));
  } catch {
    throw new AppError('idempotency_key_reused', 'The first request with this Idempotency-Key ran, but its answer can no longer be read '
      + '(the server key it was sealed under has changed). Look the object up instead, or use a new key for a new request.');
  }
}

/** The key of this request, checked, or undefined when it sent none. */
function keyOf(req: FastifyRequest): string | undefined {
  const raw = req.headers[idempotencyHeader];
  if (raw === undefined) return undefined;
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (key.length < 1 || key.length > 255 || !/^[\x20-\x7e]+$/.test(key)) {
    throw invalid('Idempotency-Key', 'must be 1 to 255 printable ASCII characters', 'header');
  }
  return key;
}

function fingerprint(req: FastifyRequest): string {
  return createHash('sha256').update(JSON.stringify([req.method, req.routeOptions.url, req.params ?? null, req.body ?? null])).digest('hex');
}

/**
 * Claims the key, or answers from it: the stored response (replayed), 422 for another request
 * under the same key, 409 while the first one runs. Returns the claim when this request is to run.
 */
async function begin(db: Db, req: FastifyRequest, reply: FastifyReply): Promise<Claimed | undefined | 'answered'> {
  const key = keyOf(req);
  if (key === undefined) return undefined;
  const principal = principalOf(req);
  const claim: Claimed = { brandId: principal.brandId, mode: principal.mode, key, token: randomBytes(12).toString('base64url') };
  const print = fingerprint(req);
  const result = await store.claim(db, { ...claim, fingerprint: print, leaseMs });
  if (result.claimed) return claim;
  const { row } = result;
  if (row.fingerprint !== print) {
    throw new AppError('idempotency_key_reused', 'This Idempotency-Key was used with a different request in the last 24 hours. '
      + 'Use a new key for a new request; retry with exactly the same method, path and body to get the first answer again.');
  }
  if (row.status === 'in_progress') {
    throw new AppError('idempotency_in_progress', 'A request with this Idempotency-Key is still being processed. Retry in a moment to get its answer.');
  }
  reply.code(row.response_status!).header('idempotent-replayed', 'true').type('application/json; charset=utf-8').send(openAnswer(req, row));
  return 'answered';
}

/**
 * After the request ran and threw: remember the answer unless it is one that may be retried
 * (400, 409, 5xx), so a retry gets the same refusal rather than a second try.
 */
async function settleFailure(db: Db, req: FastifyRequest, claim: Claimed, err: unknown): Promise<void> {
  const known = toAppError(err as Error);
  const status = known?.statusCode ?? 500;
  if (!known || status === 400 || status === 409 || status >= 500) {
    await store.release(db, claim).catch(() => undefined);
    return;
  }
  await db.transaction((tx) => completeSealed(tx, req, claim, { status, body: JSON.stringify(errorEnvelope(req.id, known)) }));
}

/**
 * Answers a write that changes the database in one transaction: runs `change` in it and, when the
 * request carries an Idempotency-Key, stores the exact response bytes on the key in that same
 * transaction.
 */
export async function write<T>(
  db: Db,
  req: FastifyRequest,
  reply: FastifyReply,
  change: (tx: Queryable) => Promise<T>,
  message: string,
  status = 200,
) {
  req.idempotencyHandled = true;
  const claim = await begin(db, req, reply);
  if (claim === 'answered') return reply;
  reply.code(status);
  if (!claim) return ok(message, await db.transaction(change));
  let body: string;
  try {
    body = await db.transaction(async (tx) => {
      const serialized = reply.serialize(ok(message, await change(tx))) as string;
      if (!(await completeSealed(tx, req, claim, { status, body: serialized }))) {
        throw new AppError('idempotency_in_progress', 'This request took so long that another request took its Idempotency-Key over; nothing was changed. Retry with the same key.');
      }
      return serialized;
    });
  } catch (err) {
    await settleFailure(db, req, claim, err);
    throw err;
  }
  return reply.type('application/json; charset=utf-8').send(body);
}

/**
 * Answers a write made by a flow that commits between steps (checkout/flows.ts,
 * webhooks/flows.ts). Such flows are safe to repeat by design; the key makes a retry return the
 * first answer. The answer is stored right after the flow, in a transaction of its own.
 */
export async function writeFlow<T>(db: Db, req: FastifyRequest, reply: FastifyReply, flow: () => Promise<T>, message: string) {
  req.idempotencyHandled = true;
  const claim = await begin(db, req, reply);
  if (claim === 'answered') return reply;
  if (!claim) return ok(message, await flow());
  let data: T;
  try {
    data = await flow();
  } catch (err) {
    await settleFailure(db, req, claim, err);
    throw err;
  }
  const body = reply.serialize(ok(message, data)) as string;
  await db.transaction((tx) => completeSealed(tx, req, claim, { status: reply.statusCode, body }));
  return reply.type('application/json; charset=utf-8').send(body);
}
