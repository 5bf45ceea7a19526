import { createHash } from 'node:crypto';

/**
 * Examples for the OpenAPI document, so every operation shows a request (when it has a body) and
 * an answer, and every error its envelope, without a hand edit in docs/ per operation.
 *
 * Where a value comes from, first match wins, at every level of a shape:
 * 1. a TypeBox `examples` annotation on the schema (`Type.Object({…}, { examples: [{…}] })`): the
 *    way a route file gives its own example, beside the shape;
 * 2. `const`, `default`, the first `enum` value, or the first of the backticked values a
 *    description lists (`` `draft`, `published` or `archived`. ``);
 * 3. made up from the field's name and format: ids with the prefix of what they name, the same id
 *    wherever the same kind of object is named (so a hub's id and a member's `hubID` agree),
 *    emails, amounts, times, URLs.
 * The values are fixed (no clock, no randomness), so the document is the same on every start.
 */

type Json = Record<string, any>;

/** The prefix of ids of each kind of object (ids.ts), by the name of its shape or of the field naming it. */
const prefixByShape: Record<string, string> = {
  Product: 'prod', ProductSummary: 'prod', Hub: 'hub', HubSummary: 'hub', Tier: 'tier', Item: 'item', CheckoutField: 'field',
  Membership: 'mem', Member: 'mem', Transaction: 'txn', WebhookEndpoint: 'we', CreatedWebhookEndpoint: 'we', WebhookDelivery: 'whd',
  WebhookDeliveryDetail: 'whd', Event: 'evt', Import: 'imp', PaymentLink: 'plink', Payout: 'po', Email: 'msg', EmailDetail: 'msg',
  CheckoutLink: 'clink', Refund: 'rfd', Brand: 'brand', ApiKey: 'key', Subscription: 'sub', Attempt: 'wha',
};
const prefixByField: Record<string, string> = {
  brand: 'brand', product: 'prod', resource: 'prod', hub: 'hub', tier: 'tier', plan: 'tier', item: 'item', membership: 'mem', member: 'mem',
  txref: 'txn', transaction: 'txn', endpoint: 'we', webhook: 'we', delivery: 'whd', event: 'evt', import: 'imp', link: 'plink',
  paymentlink: 'plink', payout: 'po', email: 'msg', message: 'msg', checkoutlink: 'clink', refund: 'rfd', parent: 'item', key: 'key',
  subscription: 'sub', app: 'app', request: 'req', user: 'usr', invoice: 'inv',
};

/** The same made-up id for the same kind of object, everywhere in the document. */
export function exampleId(prefix: string): string {
  return `${prefix}_${createHash('sha256').update(prefix).digest('base64url').slice(0, 20)}`;
}

export const exampleTime = '2026-03-14T09:30:00.000Z';

const stringsByName: Record<string, string> = {
  email: 'ada@example.com', to: 'ada@example.com', replyTo: 'help@studio.example.com', supportEmail: 'help@studio.example.com',
  fullName: 'Ada Lovelace', customerName: 'Ada Lovelace', displayName: 'Ada\'s Ink Studio',
  title: 'Inking basics', description: 'Eight short lessons on brush pens, inks and paper.', subject: 'Your receipt from Ada\'s Ink Studio',
  currency: 'USD', phone: '+14155550123', reason: 'Bought twice by mistake', slug: 'ada-ink-studio', timeZone: 'Europe/London',
  venue: 'Online', label: 'Company name', ref: 'lesson-1', buttonText: 'Join now', card: '4242 4242 4242 4242',
  signingSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  nextCursor: '', cursor: 'eyJ0IjoiMjAyNi0wMy0xNFQwOTozMDowMFoiLCJpZCI6InByb2RfMSJ9', country: 'US', countryCode: 'US',
  accentColor: '#0f766e', color: '#0f766e', brandColour: '#0f766e', fromName: 'Ada\'s Ink Studio', effectiveFromName: 'Ada\'s Ink Studio',
  keywords: 'brush pens', perks: 'Weekly live class', options: 'Small', image: 'https://shop.example.com/images/inking-basics.png',
  utmRef: 'newsletter', adType: 'search', eventType: 'transaction.succeeded', text: 'Thank you for your purchase.', html: '<p>Thank you for your purchase.</p>',
  by: '31d', code: 'SPRING25', failureReason: 'The receiver answered 503', disabledReason: 'Failing for 5 days', error: 'The receiver answered 503',
  statusDetail: '250 2.0.0 OK', response: '250 2.0.0 OK', resourceType: 'transaction', requestId: 'req_4YJf2kq8Z2mWc1tLrV9x', locale: 'en', language: 'en',
};
/**
 * Fields that say what went wrong: left out of examples when optional and null when nullable, as
 * the objects examples show are in good order (a delivery that succeeded, an endpoint that is active).
 */
const wellWithout = new Set(['failureReason', 'disabledReason', 'error', 'statusDetail']);
/** Fields whose value depends on the shape they are in (`Item.type`), before the names above. */
const stringsByShapeField: Record<string, string> = {
  'Item.type': 'lesson', 'CheckoutField.type': 'text', 'Tier.type': 'one_off', 'Tier.status': 'active', 'Product.type': 'course',
  'Product.status': 'published', 'ProductSummary.type': 'course', 'ProductSummary.status': 'published', 'Membership.status': 'active',
  'Transaction.status': 'succeeded', 'Transaction.type': 'purchase', 'WebhookDelivery.status': 'succeeded', 'WebhookDeliveryDetail.status': 'succeeded',
  'Email.kind': 'receipt', 'EmailDetail.kind': 'receipt', 'EmailSummary.kind': 'receipt',
};
const stringsByShapeName: Record<string, string> = { Hub: 'Studio Club', HubSummary: 'Studio Club', Tier: 'Standard', Membership: 'Ada Lovelace', Member: 'Ada Lovelace', CheckoutLink: 'Link in bio' };

const numbersByName: Record<string, number> = {
  amount: 25, price: 25, fee: 1.5, net: 23.5, refundedAmount: 0, total: 25, limit: 20, interval: 1, count: 1, duration: 45,
  slots: 100, noOfTickets: 1, version: 1, responseCode: 200, refunded: 0, refundCount: 0, overlapSeconds: 86400, maxSales: 100, sales: 3, attempts: 1, status: 200, durationMs: 84,
  index: 0, created: 1, pending: 0, failed: 0, accepted: 1,
};

function words(name: string): string[] {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
}

/** `hubID` → `hub`, `itemIDs` → `item`, `txref` → `txn`, `membershipId` → `mem`; undefined when the name is no id. */
function idPrefixOfField(name: string): string | undefined {
  if (name === 'txref') return 'txn';
  const m = name.match(/^(.*?)(ID|Id|IDs|Ids)$/);
  if (!m || !m[1]) return undefined;
  const subject = m[1].toLowerCase().replace(/[^a-z]/g, '');
  return prefixByField[subject] ?? words(m[1]).at(-1)?.slice(0, 4);
}

function stringExample(schema: Json, name: string | undefined, shape: string | undefined): string {
  const fixed = shape && name ? stringsByShapeField[`${shape}.${name}`] : undefined;
  if (fixed) return fixed;
  const listed = typeof schema.description === 'string' ? schema.description.match(/^`([^`\s]+)`(?:,| or)/) : null;
  if (listed) return listed[1]!;
  switch (schema.format) {
    case 'date-time': return exampleTime;
    case 'date': return exampleTime.slice(0, 10);
    case 'email': return name && stringsByName[name]?.includes('@') ? stringsByName[name]! : 'ada@example.com';
    case 'uri': case 'url': return `https://shop.example.com/${name === 'imageUrl' || name === 'logoUrl' ? 'images/inking-basics.png' : 's/ada-ink-studio'}`;
    case 'uuid': return '3f1c2b9e-7d4a-4c8e-9b2f-6a1d0e5c7b3a';
    default:
  }
  // `` `rfd_…` ``: a description that shows the id's prefix.
  const shown = typeof schema.description === 'string' ? schema.description.match(/`([a-z]+)_…`/) : null;
  if (shown) return exampleId(shown[1]!);
  if (name === 'id' && shape?.endsWith('Event')) return exampleId('evt');
  if (name === 'id') return exampleId(shape ? (prefixByShape[shape] ?? words(shape)[0]!.slice(0, 4)) : 'obj');
  if (name === 'plan' || name === 'tier') return exampleId('tier');
  const prefix = name ? idPrefixOfField(name) : undefined;
  if (prefix) return exampleId(prefix);
  if (name && shape && (name === 'name') && stringsByShapeName[shape]) return stringsByShapeName[shape]!;
  if (name && stringsByName[name] !== undefined) return stringsByName[name]!;
  if (name && /url|link$/i.test(name)) return 'https://shop.example.com/s/ada-ink-studio';
  if (name && /At$/.test(name)) return exampleTime;
  if (name === 'name') return 'Ada Lovelace';
  const fallback = name ? words(name).join(' ') : 'text';
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  return fallback.length >= min ? fallback : fallback.padEnd(min, 'x');
}

function numberExample(schema: Json, name: string | undefined): number {
  let n = name && numbersByName[name] !== undefined ? numbersByName[name]! : /amount|price|total/i.test(name ?? '') ? 25 : /count$/i.test(name ?? '') ? 3 : 1;
  if (typeof schema.minimum === 'number' && n < schema.minimum) n = schema.minimum;
  if (typeof schema.maximum === 'number' && n > schema.maximum) n = schema.maximum;
  if (typeof schema.exclusiveMinimum === 'number' && n <= schema.exclusiveMinimum) n = schema.exclusiveMinimum + 1;
  return schema.type === 'integer' ? Math.round(n) : n;
}

export interface ExampleContext {
  /** The document's `components.schemas`, to follow `$ref`s. */
  schemas: Json;
}

/** An example value for a JSON Schema, as the module comment says. */
export function exampleOf(schema: Json | undefined, ctx: ExampleContext, name?: string, shape?: string, depth = 0): unknown {
  if (!schema || typeof schema !== 'object' || depth > 40) return undefined; // a shape that contains itself stops here
  if (typeof schema.$ref === 'string') {
    const ref = schema.$ref.split('/').pop()!;
    return exampleOf(ctx.schemas[ref], ctx, name, ref, depth + 1);
  }
  if (Array.isArray(schema.examples) && schema.examples.length) return structuredClone(schema.examples[0]);
  if (schema.example !== undefined) return structuredClone(schema.example);
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return structuredClone(schema.default);
  if (Array.isArray(schema.enum) && schema.enum.length) {
    // A string from a closed set (http/shapes.ts, OneOf) keeps the value its field and shape name, when the set has it.
    const named = schema.type === 'string' ? stringExample(schema, name, shape) : undefined;
    return schema.enum.includes(named) ? named : schema.enum[0];
  }
  const variants = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  // An example shows things going well: a delivery that succeeded, an endpoint that is active.
  if (name && wellWithout.has(name) && variants?.some((v) => v.type === 'null')) return null;
  if (variants?.length) {
    const chosen = variants.find((v) => v.type !== 'null') ?? variants[0];
    return exampleOf(chosen, ctx, name, shape, depth + 1);
  }
  if (Array.isArray(schema.allOf)) {
    const parts = schema.allOf.map((part: Json) => exampleOf(part, ctx, name, shape, depth + 1));
    return parts.every((p: unknown) => p && typeof p === 'object' && !Array.isArray(p)) ? Object.assign({}, ...parts) : parts.at(-1);
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': case undefined: {
      if (!schema.properties) {
        if (type === undefined) return undefined;
        const extra = schema.additionalProperties;
        if (extra && typeof extra === 'object' && extra.type && extra.type !== 'string') return { [name === 'buyerEmails' ? 'receipt' : 'value']: exampleOf(extra, ctx, undefined, shape, depth + 1) };
        return name === 'metadata' || extra ? { orderId: 'A-1042' } : {};
      }
      const out: Json = {};
      // An unnamed object inside another is named for the field holding it (`items` of a link: `Item`),
      // except that the items of a link or checkout name a product by `id`.
      const nested = name && shape ? (name === 'items' && /Link|Checkout/.test(shape) ? 'Product' : `${name[0]!.toUpperCase()}${name.slice(1).replace(/s$/, '')}`) : shape;
      const own = typeof schema.$id === 'string' ? schema.$id : typeof schema.title === 'string' ? schema.title : nested;
      const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
      for (const [key, sub] of Object.entries(schema.properties as Json)) {
        if (wellWithout.has(key) && !required.includes(key)) continue;
        const value = exampleOf(sub, ctx, key, own, depth + 1);
        if (value !== undefined) out[key] = value;
      }
      return out;
    }
    case 'array': {
      const item = exampleOf(schema.items, ctx, name, shape, depth + 1);
      const n = Math.max(1, typeof schema.minItems === 'number' ? schema.minItems : 1);
      return item === undefined ? [] : Array.from({ length: n }, () => structuredClone(item));
    }
    case 'string': return stringExample(schema, name, shape);
    case 'integer': case 'number': return numberExample(schema, name);
    case 'boolean': return name === 'ok' || name === 'required' || name === 'isDefault';
    case 'null': return null;
    default: return undefined;
  }
}

/** `List products` → `Products retrieved`, `Create a product` → `Product created`: the envelope's message. */
export function exampleMessage(summary: string | undefined, method: string): string {
  const text = summary ?? '';
  const done: Record<string, string> = {
    list: 'retrieved', get: 'retrieved', create: 'created', update: 'updated', delete: 'deleted', remove: 'removed', cancel: 'cancelled',
    register: 'registered', send: 'sent', resend: 'resent', refund: 'refunded', import: 'queued for import', pay: 'paid', advance: 'advanced',
    roll: 'rolled', verify: 'verified', check: 'checked', change: 'changed', read: 'read', close: 'closed',
  };
  const m = text.match(new RegExp(`^(${Object.keys(done).join('|')})\\s+(?:an?\\s+|the\\s+|one\\s+)?(.+)$`, 'i'));
  if (m) {
    const noun = m[2]!;
    return `${noun[0]!.toUpperCase()}${noun.slice(1)} ${done[m[1]!.toLowerCase()]}`;
  }
  return text ? `${text}: done` : method === 'get' ? 'Retrieved' : 'Done';
}
