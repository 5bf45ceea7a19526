import { createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';

/**
 * Webhook signatures. Every delivery carries two, over the exact bytes sent:
 * - `X-Service-Signature: sha256=<hex>`: HMAC-SHA256 of the body, keyed with the signing secret
 *   string exactly as the brand saw it (`whsec_…`, prefix included), as the reference says.
 * - Standard Webhooks (standardwebhooks.com): `webhook-signature: v1,<base64>` over
 *   `{webhook-id}.{webhook-timestamp}.{body}`, keyed with the base64-decoded bytes after `whsec_`,
 *   so receivers get replay protection and can use the standard libraries.
 *
 * During a secret roll's overlap (our addition) the previous secret signs too: Standard Webhooks
 * allows several space-separated signatures, so `webhook-signature` carries `v1,<new> v1,<old>`
 * and a receiver still holding the old secret verifies. `X-Service-Signature` is the reference's
 * single `sha256=<hex>` and has no room for two, so it is signed with the new secret only: its
 * receivers switch secrets at roll time (docs/webhooks.md).
 */

export const secretPrefix = 'whsec_';

/** `whsec_` + base64 of 32 random bytes: the Standard Webhooks secret format. */
export function newSigningSecret(): string {
  return `${secretPrefix}${randomBytes(32).toString('base64')}`;
}

/**
 * A signing secret with both HMAC keys made once: a worker signs many deliveries with one
 * endpoint's secret, and turning the secret into a key was a measurable share of each signature.
 */
export interface SigningKey {
  service: KeyObject;
  standard: KeyObject;
}

export function signingKey(secret: string): SigningKey {
  return {
    service: createSecretKey(Buffer.from(secret, 'utf8')),
    standard: createSecretKey(Buffer.from(secret.slice(secretPrefix.length), 'base64')),
  };
}

export function serviceSignature(secret: string | SigningKey, body: string | Buffer): string {
  const key = typeof secret === 'string' ? secret : secret.service;
  return `sha256=${createHmac('sha256', key).update(body).digest('hex')}`;
}

export function standardSignature(secret: string | SigningKey, id: string, timestamp: number, body: string | Buffer): string {
  const key = typeof secret === 'string' ? Buffer.from(secret.slice(secretPrefix.length), 'base64') : secret.standard;
  const mac = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest('base64');
  return `v1,${mac}`;
}

/**
 * The headers of one delivery attempt; `id` is the event id, the same on every retry and resend.
 * `previousSecret`: a rolled secret still in its overlap, which signs webhook-signature too.
 */
export function deliveryHeaders(secret: string | SigningKey, id: string, body: string, now = Date.now(), previousSecret?: string | SigningKey): Record<string, string> {
  const timestamp = Math.floor(now / 1000);
  const standard = [secret, ...(previousSecret ? [previousSecret] : [])].map((s) => standardSignature(s, id, timestamp, body));
  return {
    'content-type': 'application/json',
    'user-agent': 'creator-commerce-webhooks/1',
    'x-service-signature': serviceSignature(secret, body),
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': standard.join(' '),
  };
}
