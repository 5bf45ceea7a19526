import type { WebhookEvent } from './types.ts';

/**
 * Webhook signatures, checked with Web Crypto only (no Buffer, no node:crypto), so this runs on
 * Node, Bun, Deno and edge runtimes alike. Every delivery carries two signatures over the exact
 * bytes sent (see the server's webhooks/signing.ts):
 *
 * - `X-Service-Signature: sha256=<hex>`: HMAC-SHA256 of the body keyed with the secret string as
 *   shown (`whsec_…`, prefix included), as the API reference specifies;
 * - Standard Webhooks: `webhook-signature: v1,<base64>` over `{webhook-id}.{webhook-timestamp}.{body}`,
 *   keyed with the base64-decoded bytes after `whsec_`.
 *
 * Both are checked when present. The Standard Webhooks one also covers the timestamp, which is
 * what makes the tolerance meaningful: `X-Service-Signature` alone cannot tell a replay.
 */

/** The body exactly as received: a string, or its bytes. */
export type RawBody = string | Uint8Array | ArrayBuffer;

/** A Fetch `Headers`, or a plain object such as Node's `req.headers`. */
export type HeadersLike = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** Seconds a `webhook-timestamp` may differ from now; default 300 (5 minutes). */
  tolerance?: number;
  /** The current time in milliseconds, for tests. */
  now?: number;
}

/** Why a delivery did not verify; `message` says what to do about it. */
export class WebhookVerificationError extends Error {
  static [Symbol.hasInstance](value: unknown): boolean {
    return Boolean(value && (value as Record<symbol, unknown>)[VERIFY_BRAND] === true);
  }

  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
    Object.defineProperty(this, VERIFY_BRAND, { value: true, enumerable: false });
  }
}

const VERIFY_BRAND = Symbol.for('@creator-commerce/sdk.webhook-verification-error');
const secretPrefix = 'whsec_';
const encoder = new TextEncoder();

function header(headers: HeadersLike, name: string): string | undefined {
  if (typeof (headers as Headers)?.get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record ?? {}).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value.join(', ') : value;
}

function toBytes(body: RawBody): Uint8Array {
  if (typeof body === 'string') return encoder.encode(body);
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  // Node's Buffer is a Uint8Array; anything else (a parsed object) is a mistake worth naming.
  const what = body === null ? 'null' : typeof body === 'object' ? 'an object' : typeof body;
  throw new WebhookVerificationError(`The body is ${what}: pass the raw request body (a string or bytes, exactly as received), not parsed JSON.`);
}

function base64ToBytes(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function bytesToBase64(bytes: Uint8Array): string {
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}

function bytesToHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function hexToBytes(hex: string): Uint8Array | undefined {
  if (!/^[0-9a-fA-F]*$/.test(hex) || hex.length % 2) return undefined;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** Compares in time independent of where the bytes differ (the length is not secret). */
function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

async function hmac(key: Uint8Array, ...parts: Uint8Array[]): Promise<Uint8Array> {
  const cryptoKey = await globalThis.crypto.subtle.importKey('raw', key as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const data = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) { data.set(p, offset); offset += p.length; }
  return new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', cryptoKey, data as BufferSource));
}

/** The Standard Webhooks key: the bytes after `whsec_`; a secret without the prefix is used as its UTF-8 bytes. */
function standardKey(secret: string): Uint8Array {
  if (!secret.startsWith(secretPrefix)) return encoder.encode(secret);
  try {
    return base64ToBytes(secret.slice(secretPrefix.length));
  } catch {
    throw new WebhookVerificationError('The secret is not a signing secret: expected `whsec_` followed by base64, as POST /webhooks answered.');
  }
}

function minutes(seconds: number): string {
  const m = Math.round(seconds / 60);
  return m === 1 ? '1 minute' : `${m} minutes`;
}

/**
 * Checks a webhook delivery and returns its event, typed by `type`. Throws
 * WebhookVerificationError saying what is wrong. `secret` may be a list while a secret is rolled:
 * a signature made with any of them passes.
 */
export async function verifyWebhook(rawBody: RawBody, headers: HeadersLike, secret: string | readonly string[], options: VerifyOptions = {}): Promise<WebhookEvent> {
  const bytes = toBytes(rawBody);
  const secrets = (typeof secret === 'string' ? [secret] : [...(secret ?? [])]).filter((s) => typeof s === 'string' && s.length > 0);
  if (!secrets.length) throw new WebhookVerificationError('No signing secret given: pass the endpoint\'s `signingSecret` (whsec_…) from POST /webhooks.');
  if (!headers || typeof headers !== 'object') throw new WebhookVerificationError('No headers given: pass the request\'s headers (a Headers object or req.headers).');

  const serviceSig = header(headers, 'x-service-signature');
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const standardSig = header(headers, 'webhook-signature');
  if (!serviceSig && !standardSig) {
    throw new WebhookVerificationError('No signature header: expected X-Service-Signature or webhook-signature. Is this request a delivery from the service, and does your framework pass headers through?');
  }

  if (standardSig) {
    if (!id || !timestamp) throw new WebhookVerificationError('webhook-signature is present but webhook-id or webhook-timestamp is missing: pass every header of the request.');
    const seconds = Number(timestamp);
    if (!/^\d+$/.test(timestamp) || !Number.isSafeInteger(seconds)) throw new WebhookVerificationError(`webhook-timestamp "${timestamp}" is not Unix seconds.`);
    const tolerance = options.tolerance ?? 300;
    const age = (options.now ?? Date.now()) / 1000 - seconds;
    if (age > tolerance) throw new WebhookVerificationError(`Timestamp is ${minutes(age)} old: check your clock or replay (tolerance ${minutes(tolerance)}; an old delivery sent again is refused).`);
    if (-age > tolerance) throw new WebhookVerificationError(`Timestamp is ${minutes(-age)} in the future: check your clock (tolerance ${minutes(tolerance)}).`);
    const expected = standardSig.split(' ').filter((s) => s.startsWith('v1,')).map((s) => {
      try { return base64ToBytes(s.slice(3)); } catch { return new Uint8Array(); }
    });
    let matched = false;
    for (const s of secrets) {
      const mac = await hmac(standardKey(s), encoder.encode(`${id}.${timestamp}.`), bytes);
      if (expected.some((e) => equalBytes(e, mac))) matched = true;
    }
    if (!matched) throw mismatch(secrets.length, 'webhook-signature');
  }

  if (serviceSig) {
    const hex = serviceSig.startsWith('sha256=') ? hexToBytes(serviceSig.slice(7)) : undefined;
    if (!hex) throw new WebhookVerificationError(`X-Service-Signature "${serviceSig.slice(0, 20)}…" is not of the form sha256=<hex>.`);
    let matched = false;
    for (const s of secrets) if (equalBytes(hex, await hmac(encoder.encode(s), bytes))) matched = true;
    if (!matched) throw mismatch(secrets.length, 'X-Service-Signature');
  }

  let event: unknown;
  try {
    event = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new WebhookVerificationError('The signature matches but the body is not JSON.');
  }
  if (!event || typeof event !== 'object' || typeof (event as { type?: unknown }).type !== 'string') {
    throw new WebhookVerificationError('The signature matches but the body is not an event ({ id, type, created, data }).');
  }
  if (id && (event as { id?: unknown }).id !== id) throw new WebhookVerificationError(`webhook-id ${id} is not the body's id.`);
  return event as WebhookEvent;
}

function mismatch(count: number, name: string): WebhookVerificationError {
  return new WebhookVerificationError('Signature does not match: pass the raw request body, not parsed JSON (re-serialising changes the bytes), '
    + `and check that the secret is this endpoint's signingSecret (${name} checked against ${count === 1 ? 'one secret' : `${count} secrets`}).`);
}

export interface SignedTestWebhook {
  /** The body to send: the payload as JSON. */
  body: string;
  /** Headers exactly as the service sends them. */
  headers: Record<string, string>;
}

/**
 * Signs a payload as the service would, so a webhook handler can be tested end to end:
 * `const { body, headers } = await signTestWebhook(event, secret); await fetch(url, { method: 'POST', body, headers })`.
 */
export async function signTestWebhook(payload: WebhookEvent | Record<string, unknown> | string, secret: string, options: { timestamp?: number; id?: string } = {}): Promise<SignedTestWebhook> {
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const parsedId = typeof payload === 'object' && payload && typeof (payload as { id?: unknown }).id === 'string' ? (payload as { id: string }).id : undefined;
  const id = options.id ?? parsedId ?? `evt_test_${globalThis.crypto.randomUUID().replace(/-/g, '')}`;
  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  const bytes = encoder.encode(body);
  const service = bytesToHex(await hmac(encoder.encode(secret), bytes));
  const standard = bytesToBase64(await hmac(standardKey(secret), encoder.encode(`${id}.${timestamp}.`), bytes));
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'x-service-signature': `sha256=${service}`,
      'webhook-id': id,
      'webhook-timestamp': timestamp,
      'webhook-signature': `v1,${standard}`,
    },
  };
}
