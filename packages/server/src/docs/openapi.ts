import type { FastifySchema, RouteOptions } from 'fastify';
import { errorStatus } from '../errors.ts';
import { eventPayloads } from '../webhooks/payloads.ts';
import { eventTypes } from '../events/types.ts';
import { sampleEventData } from '../webhooks/samples.ts';
import { exampleId, exampleMessage, exampleOf, exampleTime } from './examples.ts';
import type { Operation } from '../http/operation.ts';
import { guides } from './page.ts';

/**
 * The OpenAPI document as served: @fastify/swagger's output from the route schemas, finished here
 * so that clients can be generated from it. Everything below only describes; validation and
 * serialisation still come from the route schemas alone (a request schema turned into an enum
 * would answer with Ajv's words instead of ours, so the enums live in the document only).
 *
 * - every operation gets an operationId, tags declared at the top, both security schemes, curl
 *   and SDK samples (`x-codeSamples`), and every error status it can answer as a named response;
 * - the success envelope, the error body, the error codes and the event types are components;
 * - import records are typed objects;
 * - `webhooks` has one POST per event type, its body the delivery of that type, built from
 *   webhooks/payloads.ts; `WebhookEvent` is their union, discriminated on `type`.
 */

type Json = Record<string, any>;

export const tags = [
  { name: 'Account', description: 'The key itself: which brand, mode and scopes it resolves to.' },
  { name: 'Products', description: 'The catalog (shared by test and live mode) and each product\'s customers. Writing it is our addition (scope `products:write`). Guide: [Catalog](/docs/guides/catalog).' },
  { name: 'Hubs', description: 'Our addition: membership hubs and their tiers (plans), part of the catalog that test and live mode share. Guide: [Catalog](/docs/guides/catalog).' },
  { name: 'Hub members', description: 'Members of a membership hub, whatever their status.' },
  { name: 'Checkout', description: 'Payment links to the hosted checkout, and re-checking a payment. Guide: [Checkout](/docs/guides/checkout).' },
  { name: 'Affiliates', description: 'Our addition: people who earn a commission on the sales they bring, and what they earned. Guide: [Affiliates](/docs/guides/affiliates).' },
  { name: 'Customers', description: 'Our addition: everyone who bought or joined, one entry per email, with lifetime value per currency and everything they hold. Guide: [Customers](/docs/guides/customers).' },
  { name: 'Subscriptions', description: 'Our addition: the recurring side of memberships, with next renewal and monthly recurring revenue. Guide: [Subscriptions](/docs/guides/subscriptions).' },
  { name: 'Transactions', description: 'Payment attempts of the key\'s mode.' },
  { name: 'Coupons', description: 'Our addition: discount codes buyers type at checkout, with their caps, scope and the revenue they brought. Guide: [Coupons](/docs/guides/coupons).' },
  { name: 'Imports', description: 'Bulk imports of hub members and product customers, and their progress. Guide: [Imports](/docs/guides/imports).' },
  { name: 'Webhooks', description: 'Endpoints that receive signed event deliveries, the delivery log and resends. Guide: [Webhooks](/docs/guides/webhooks).' },
  { name: 'Events', description: 'Every event of the key\'s mode, in the webhook body\'s shape, for reconciling after downtime.' },
  { name: 'Payouts', description: 'Settled earnings, net of platform fees, one per currency per run.' },
  { name: 'Metrics', description: 'Our addition: the numbers of the dashboard\'s home (revenue per currency, MRR, new members, failed renewals), from the service\'s own records.' },
  { name: 'Emails', description: 'Our addition: the mail the service sends for the brand (receipts, notices), its outbox and its settings.' },
  { name: 'Test clock', description: 'Moving a brand\'s test-mode time forward to run renewals, retries and payouts now.' },
  { name: 'Test helpers', description: 'Test mode only: doing from code what a buyer does on the hosted pages (paying a payment link with a sandbox card).' },
];

export const errorCodes = Object.keys(errorStatus);

const errorResponses: Record<number, { name: string; description: string }> = {
  400: { name: 'BadRequest', description: '`validation_failed` or `invalid_json`: a parameter or body field is invalid; `message` names it and `data.details` lists every problem.' },
  401: { name: 'Unauthorized', description: '`authentication_required`: the key or token is missing, unknown or revoked.' },
  403: { name: 'Forbidden', description: '`scope_missing`: the key lacks the scope this operation needs; `message` names it.' },
  404: { name: 'NotFound', description: '`not_found`: no such resource in this brand and mode (another brand\'s or mode\'s resource answers the same).' },
  409: { name: 'Conflict', description: '`conflict`: the resource is not in a state that allows this; or `idempotency_in_progress`: a request with the same `Idempotency-Key` is still running (retry).' },
  422: { name: 'IdempotencyKeyReused', description: '`idempotency_key_reused`: this `Idempotency-Key` was used with a different request in the last 24 hours.' },
  413: { name: 'PayloadTooLarge', description: '`payload_too_large`: the body is larger than the server accepts.' },
  415: { name: 'UnsupportedMediaType', description: '`unsupported_media_type`: send the body as JSON with `Content-Type: application/json`.' },
  429: { name: 'RateLimited', description: '`rate_limited`: too many requests; retry after the `Retry-After` header\'s seconds.' },
  503: { name: 'ServiceUnavailable', description: '`service_unavailable`: the operation cannot run right now (the database is unreachable; retry after `Retry-After`); or `not_configured`: this server is not set up for it (e.g. live payments without Stripe\'s settings), so retrying will not help.' },
};

const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x));

/** `transaction.succeeded` → `TransactionSucceededEvent`. */
export const eventSchemaName = (type: string) => `${type.split(/[._]/).map((w) => w[0].toUpperCase() + w.slice(1)).join('')}Event`;

/**
 * A TypeBox shape as plain JSON Schema for `components`: nested shapes with an `$id` become
 * components of their own (or reuse the one @fastify/swagger already made) and are referenced.
 */
function hoist(schema: Json, schemas: Json): Json {
  const visit = (node: any, top: boolean): any => {
    if (Array.isArray(node)) return node.map((n) => visit(n, false));
    if (!node || typeof node !== 'object') return node;
    if (typeof node.$id === 'string' && !top) {
      const name = node.$id;
      if (!schemas[name]) schemas[name] = visit(node, true);
      return schemaRef(name);
    }
    const out: Json = {};
    for (const [k, v] of Object.entries(node)) if (k !== '$id') out[k] = visit(v, false);
    return out;
  };
  return visit(clone(schema), true);
}

function successSchema(schema: Json): Json {
  // @fastify/swagger writes the envelope out in every response; name it once.
  if (schema?.properties?.status?.enum?.[0] === 'success' && schema.properties.data) {
    return { allOf: [schemaRef('Envelope'), { type: 'object', required: ['data'], properties: { data: schema.properties.data } }] };
  }
  return schema;
}

/**
 * The curl sample: every variable it uses is set first (the key, each path parameter with an
 * example id), and the server's own address is written out, so it runs as pasted.
 */
function curlSample(baseUrl: string, method: string, path: string, params: Record<string, unknown>, body: unknown): string {
  const shellName = (p: string) => p.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase().replace(/_?ID$/, '_ID').replace(/^_/, '');
  const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const setup = [
    'API_KEY=svc_test_…   # a key from the dashboard: Developers → API keys',
    ...names.map((p) => `${shellName(p)}=${String(params[p] ?? '…')}`),
  ];
  const url = `${baseUrl}${path.replace(/\{(\w+)\}/g, (_m, p: string) => `$${shellName(p)}`)}`;
  const lines = [`curl ${method === 'get' ? '' : `-X ${method.toUpperCase()} `}"${url}"`, '  -H "x-service-api: $API_KEY"'];
  if (body !== undefined) {
    lines.push('  -H "content-type: application/json"', `  -d '${JSON.stringify(body).replace(/'/g, "'\\''")}'`);
  }
  return `${setup.join('\n')}\n${lines.join(' \\\n')}`;
}

/** The error envelope as each named error response shows it. */
const errorExamples: Record<string, { message: string; code: string; details?: { field: string; message: string }[] }> = {
  BadRequest: { message: 'Invalid request: title must not be empty.', code: 'validation_failed', details: [{ field: 'title', message: 'must not be empty' }] },
  Unauthorized: { message: 'The API key is missing, unknown or revoked. Send it in the x-service-api header.', code: 'authentication_required' },
  Forbidden: { message: 'This key lacks the products:write scope.', code: 'scope_missing' },
  NotFound: { message: 'No product prod_… in this brand and mode.', code: 'not_found' },
  Conflict: { message: 'A request with this Idempotency-Key is still running; retry in a moment.', code: 'idempotency_in_progress' },
  IdempotencyKeyReused: { message: 'This Idempotency-Key was used with a different request in the last 24 hours.', code: 'idempotency_key_reused' },
  PayloadTooLarge: { message: 'The body is larger than the 1 MB this server accepts.', code: 'payload_too_large' },
  UnsupportedMediaType: { message: 'Send the body as JSON with Content-Type: application/json.', code: 'unsupported_media_type' },
  RateLimited: { message: 'Too many requests for this key; retry after 1 second.', code: 'rate_limited' },
  ServiceUnavailable: { message: 'The database is unreachable; retry after 5 seconds.', code: 'service_unavailable' },
};

const sdkSample = (call: string) => `import { Client } from '@creator-commerce/sdk';\n\nconst client = new Client({ apiKey: process.env.API_KEY });\n\n${call}`;

/** `/products/{id}` → `Product`: the shape a path's id names, so its example id has the right prefix. */
function idShapeOf(path: string, param: string): string | undefined {
  const segments = path.split('/');
  const at = segments.indexOf(`{${param}}`);
  const owner = segments[at - 1] ?? '';
  const byCollection: Record<string, string> = {
    products: 'Product', hubs: 'Hub', members: 'Membership', memberships: 'Membership', transactions: 'Transaction', webhooks: 'WebhookEndpoint',
    deliveries: 'WebhookDelivery', events: 'Event', imports: 'Import', 'payment-links': 'PaymentLink', payouts: 'Payout', emails: 'Email',
    'checkout-links': 'CheckoutLink', keys: 'ApiKey', refunds: 'Refund',
  };
  return byCollection[owner] ?? (owner ? owner.replace(/s$/, '').replace(/(^|-)(\w)/g, (_m, _d, c: string) => c.toUpperCase()) : undefined);
}

export function finishDocument(raw: Json): Json {
  const doc = clone(raw);
  const schemas: Json = (doc.components ??= {}).schemas ??= {};

  doc.info.description = `${doc.info.description}\n\nAuthenticate with a brand API key in \`x-service-api\`, or an OAuth access token as \`Authorization: Bearer\`. `
    + 'Lists take `limit` (1 to 100, default 20) and `cursor` (the previous page\'s `nextCursor`). '
    + `Guides: ${Object.entries(guides).map(([name, title]) => `[${title}](/docs/guides/${name})`).join(', ')}. `
    + 'For coding agents: [/llms.txt](/llms.txt), [/llms-full.txt](/llms-full.txt) and a Markdown page per operation (`/docs/operations/{operationId}.md`). '
    + 'Official SDK: `@creator-commerce/sdk`; until it is published, install it from the repository: `npm install <repo>/packages/sdk`, or `npm run sdk:pack` and install the tarball (packages/sdk/README.md).';
  doc.tags = tags;
  doc.components.securitySchemes = {
    ApiKey: { type: 'apiKey', in: 'header', name: 'x-service-api', description: 'A brand API key: `svc_test_…` (test mode) or `svc_live_…` (live mode).' },
    BearerAuth: { type: 'http', scheme: 'bearer', description: 'An OAuth access token; it acts like a key limited to the scopes the creator approved.' },
  };

  schemas.EventType = { type: 'string', enum: [...eventTypes], description: 'The kinds of event a webhook endpoint can subscribe to.' };
  schemas.ErrorCode = { type: 'string', enum: errorCodes, description: 'Stable machine code of an error. `idempotency_key_reused` and `idempotency_in_progress` are reserved for idempotency keys.' };
  schemas.Envelope = {
    type: 'object',
    required: ['status', 'message'],
    properties: { status: { type: 'string', const: 'success' }, message: { type: 'string', description: 'What happened, in words.' } },
    description: 'Every success response: `{ status: "success", message, data }`; `data` is described per operation.',
  };
  schemas.ErrorBody = {
    type: 'object',
    required: ['status', 'message', 'data'],
    properties: {
      status: { type: 'string', const: 'error' },
      message: { type: 'string', description: 'What went wrong, in words a person can act on.' },
      data: {
        type: 'object',
        required: ['code', 'requestId'],
        properties: {
          code: schemaRef('ErrorCode'),
          requestId: { type: 'string', description: 'Equal to the `x-request-id` header; quote it when asking for help.' },
          details: {
            type: 'array',
            description: 'Every problem, for validation errors: `{ field, message }`, or `{ index, field, message }` for import records.',
            items: {
              type: 'object',
              required: ['message'],
              properties: { field: { type: 'string' }, index: { type: 'integer' }, message: { type: 'string' } },
            },
          },
        },
      },
    },
    description: 'Every error response.',
  };
  schemas.ImportRecord = {
    type: 'object',
    required: ['fullName', 'email'],
    properties: {
      fullName: { type: 'string', minLength: 1 },
      email: { type: 'string', format: 'email' },
      phone: { type: 'string', description: 'Product records only.' },
    },
    additionalProperties: { type: ['string', 'number', 'boolean'], description: 'A product checkout field\'s value, keyed by its id.' },
    description: 'One person, keyed by checkout-field id. Hub records take only `fullName` and `email`; product records may add `phone` and '
      + 'any id in the product\'s `checkoutFields` (text, email, phone and select: string; number: number; checkbox: boolean; date: YYYY-MM-DD).',
  };
  for (const name of ['WebhookEndpoint', 'CreatedWebhookEndpoint']) {
    if (schemas[name]?.properties?.events) schemas[name].properties.events.items = schemaRef('EventType');
  }
  for (const name of ['WebhookDelivery', 'WebhookDeliveryDetail']) {
    if (schemas[name]?.properties?.eventType) schemas[name].properties.eventType = schemaRef('EventType');
  }

  doc.components.responses = Object.fromEntries(Object.values(errorResponses).map(({ name, description }) => [
    name,
    {
      description,
      headers: { 'x-request-id': { $ref: '#/components/headers/RequestId' }, ...(name === 'RateLimited' || name === 'ServiceUnavailable' ? { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } : {}) },
      content: { 'application/json': {
        schema: schemaRef('ErrorBody'),
        examples: { [name]: { summary: errorExamples[name]!.code, value: {
          status: 'error',
          message: errorExamples[name]!.message,
          data: { code: errorExamples[name]!.code, requestId: exampleId('req'), ...(errorExamples[name]!.details ? { details: errorExamples[name]!.details } : {}) },
        } } },
      } },
    },
  ]));
  doc.components.headers = {
    RequestId: { description: 'The request\'s id, also `data.requestId` on errors.', schema: { type: 'string' } },
    RetryAfter: { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } },
  };
  doc.components.parameters = {
    IdempotencyKey: {
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: 'A unique value per logical request (the SDK sends one on every POST, PATCH and DELETE and reuses it across retries). '
        + 'A retry with the same key and the same request gets the first answer again (`Idempotent-Replayed: true`) and changes nothing; '
        + 'the same key with another request is 422 `idempotency_key_reused`; while the first runs, 409 `idempotency_in_progress`. '
        + 'Keys are kept 24 hours per brand and mode (docs/idempotency.md).',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    },
  };

  // The delivery of each event type, and their union.
  for (const type of eventTypes) {
    const payload = hoist(eventPayloads[type] as unknown as Json, schemas);
    const dataName = (eventPayloads[type] as { $id?: string }).$id;
    if (dataName && !schemas[dataName]) schemas[dataName] = payload;
    schemas[eventSchemaName(type)] = {
      type: 'object',
      required: ['id', 'type', 'created', 'data'],
      properties: {
        id: { type: 'string', description: 'The event id (`evt_…`): the same on every retry and resend; dedupe on it.' },
        type: { type: 'string', const: type },
        created: { type: 'string', format: 'date-time' },
        data: dataName ? schemaRef(dataName) : payload,
      },
      description: `The body of a \`${type}\` delivery.`,
    };
  }
  schemas.WebhookEvent = {
    oneOf: eventTypes.map((t) => schemaRef(eventSchemaName(t))),
    discriminator: { propertyName: 'type', mapping: Object.fromEntries(eventTypes.map((t) => [t, `#/components/schemas/${eventSchemaName(t)}`])) },
    description: 'Any webhook delivery body, discriminated on `type`.',
  };
  // GET /events answers the delivery bodies themselves, so its items are the same union.
  schemas.Event = { ...schemaRef('WebhookEvent'), description: 'An event, exactly as its webhook deliveries carry it.' };
  doc.webhooks = Object.fromEntries(eventTypes.map((type) => [type, {
    post: {
      operationId: `on${eventSchemaName(type)}`,
      summary: type,
      tags: ['Webhooks'],
      description: `Sent to endpoints subscribed to \`${type}\`. Verify the signature over the raw body before trusting it (the SDK's \`verifyWebhook\` does), `
        + 'answer 2xx quickly, and dedupe on the event id: delivery is at least once.',
      parameters: [
        { name: 'X-Service-Signature', in: 'header', required: true, schema: { type: 'string' }, description: '`sha256=<hex HMAC-SHA256 of the raw body>`, keyed with the signing secret string (`whsec_…`).' },
        { name: 'webhook-id', in: 'header', required: true, schema: { type: 'string' }, description: 'Standard Webhooks: the event id.' },
        { name: 'webhook-timestamp', in: 'header', required: true, schema: { type: 'string' }, description: 'Standard Webhooks: Unix seconds when this attempt was signed.' },
        { name: 'webhook-signature', in: 'header', required: true, schema: { type: 'string' }, description: 'Standard Webhooks: `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`, keyed with the base64-decoded secret after `whsec_`.' },
      ],
      requestBody: { required: true, content: { 'application/json': {
        schema: schemaRef(eventSchemaName(type)),
        examples: { [type]: { summary: `A ${type} delivery`, value: { id: exampleId('evt'), type, created: exampleTime, data: sampleEventData(type, new Date(exampleTime), 'a1b2c3d4e5f6') } } },
      } } },
      responses: { '200': { description: 'Any 2xx acknowledges the delivery; anything else (or no answer in time) is retried.' } },
      security: [],
    },
  }]));

  const contracts = new Map<Json, Operation>();
  for (const [path, methods] of Object.entries(doc.paths as Json)) {
    for (const [method, op] of Object.entries(methods as Json)) {
      // The route's own contract (its `config.operation`), carried here by operationTransform.
      const known: Operation | undefined = op[contractKey];
      delete op[contractKey];
      if (known) contracts.set(op, known);
      // Set after swagger's keys, where the document has always had it.
      delete op.operationId;
      op.operationId = known?.id ?? derivedOperationId(method, path);
      op.tags = (op.tags ?? []).filter(Boolean);
      if (!op.tags.length) op.tags = ['Account'];
      for (const t of op.tags) if (!doc.tags.some((d: { name: string }) => d.name === t)) doc.tags.push({ name: t, description: t });

      const hasBody = Boolean(op.requestBody);
      if (hasBody) op.requestBody.required = true;
      showInputsAs(op, known?.inputShapes ?? {}, `${method.toUpperCase()} ${path}`);
      if (method !== 'get') {
        // The route declares the header (http/idempotency.ts); the document names it once, as a component.
        op.parameters = (op.parameters ?? []).filter((p: Json) => !(p.in === 'header' && String(p.name).toLowerCase() === 'idempotency-key'));
        op.parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
      }

      const secured = Array.isArray(op.security) && op.security.length > 0;
      if (secured) op.security = [{ ApiKey: [] }, { BearerAuth: [] }];

      const responses: Json = {};
      for (const [status, response] of Object.entries(op.responses as Json)) {
        if (!status.startsWith('2')) continue;
        const schema = response.content?.['application/json']?.schema;
        responses[status] = {
          description: op.summary ?? 'Success',
          headers: { 'x-request-id': { $ref: '#/components/headers/RequestId' } },
          ...(schema ? { content: { 'application/json': { schema: successSchema(schema) } } } : {}),
          // A document rather than the envelope (GET /transactions/{id}/invoice: PDF or HTML).
          ...(!schema && response.content ? { content: response.content } : {}),
        };
      }
      const statuses = errorStatuses({ method, path, secured, hasBody, extra: known?.errors ?? [] });
      for (const status of statuses) responses[status] = { $ref: `#/components/responses/${errorResponses[status].name}` };
      op.responses = responses;

    }
  }
  addExamples(doc, contracts);
  return doc;
}

/**
 * The error statuses an operation can answer, by rule from what the route is (errors.ts has the
 * codes behind each): 400 for any bad parameter; 401 and 403 behind auth; 404 when a path id can
 * miss; 409 and 422 on a write (`idempotency_in_progress`, `idempotency_key_reused`, and the
 * state conflicts writes have); 413 and 415 with a body; 429 from the rate limits; 503 when the
 * database is unreachable, a request outlives its deadline, or the server is draining
 * (http/error-handler.ts, http/edges.ts), which any operation can meet. `extra` is what the route
 * declares that no rule sees (`config.operation.errors`).
 */
export function errorStatuses(route: { method: string; path: string; secured: boolean; hasBody: boolean; extra: number[] }): number[] {
  const statuses = new Set<number>([400, 429, 503, ...route.extra]);
  if (route.secured) for (const s of [401, 403]) statuses.add(s);
  if (route.path.includes('{')) statuses.add(404);
  if (route.method.toLowerCase() !== 'get') for (const s of [409, 422]) statuses.add(s);
  if (route.hasBody) for (const s of [413, 415]) statuses.add(s);
  return [...statuses].sort((a, b) => a - b);
}

/**
 * `get /products/{id}/customers` → `getProductsIdCustomers`: the id of a route that declares none,
 * so that the document still builds; docs/contract.test.ts fails naming such a route.
 */
function derivedOperationId(method: string, path: string): string {
  const words = path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return method.toLowerCase() + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}

/**
 * The inputs a route's contract shows as a named component (`inputShapes`: `{ type: 'EventType' }`,
 * `{ 'records[]': 'ImportRecord' }`): a query or path parameter, or a body field (`[]`: its
 * items). Validation keeps the route's own shape; a name the route has no input for is a mistake
 * in its contract, so it stops the document.
 */
function showInputsAs(op: Json, inputShapes: Record<string, string>, name: string) {
  const body = op.requestBody?.content?.['application/json']?.schema;
  for (const [input, component] of Object.entries(inputShapes)) {
    const items = input.endsWith('[]');
    const field = items ? input.slice(0, -2) : input;
    const param = (op.parameters ?? []).find((p: Json) => p.name === field && (p.in === 'query' || p.in === 'path'));
    const owner = param ?? body?.properties;
    const key = param ? 'schema' : field;
    if (!owner?.[key]) throw new Error(`${name} shows ${input} as ${component}, but has no input ${field}`);
    if (items) owner[key] = { ...owner[key], items: schemaRef(component) };
    else owner[key] = schemaRef(component);
  }
}

/** Where operationTransform puts a route's contract for finishDocument, which takes it out again. */
const contractKey = 'x-operation';

/**
 * @fastify/swagger's transform: an operation's id and contract come from its route's
 * `config.operation` (http/operation.ts). The contract rides in the operation under an `x-` key
 * (the only extra key swagger copies) until finishDocument reads it and removes it.
 */
export function operationTransform({ schema, url, route }: { schema: FastifySchema; url: string; route: RouteOptions }) {
  const operation = route.config?.operation;
  if (!operation || !schema) return { schema, url };
  const { mcp: _tool, ...contract } = operation;
  return { schema: { ...schema, operationId: operation.id, [contractKey]: contract }, url };
}

/**
 * Every operation's request (when it has a body) and success examples, and its curl sample built
 * from them, once the document is complete (the shapes they follow are all components by then).
 * A route's own example (a TypeBox `examples` annotation on its shapes) wins, then the table's
 * curl body, then one made up from the schema (docs/examples.ts).
 */
function addExamples(doc: Json, contracts: Map<Json, Operation>) {
  const ctx = { schemas: doc.components.schemas };
  for (const [path, methods] of Object.entries(doc.paths as Json)) {
    for (const [method, op] of Object.entries(methods as Json)) {
      const known = contracts.get(op);
      const params = Object.fromEntries((op.parameters ?? []).filter((p: Json) => p.in === 'path')
        .map((p: Json) => [p.name, exampleOf(p.schema, ctx, p.name, idShapeOf(path, p.name))]));
      let requestExample: unknown;
      const requestMedia = op.requestBody?.content?.['application/json'];
      if (requestMedia) {
        // @fastify/swagger has already moved a body shape's own `examples` into the media type
        // (`example` for one, `examples` for several); the document names them one way.
        const own = requestMedia.example ?? (Object.values(requestMedia.examples ?? {})[0] as Json | undefined)?.value
          ?? (Array.isArray(requestMedia.schema?.examples) ? requestMedia.schema.examples[0] : undefined);
        delete requestMedia.example;
        requestExample = own ?? known?.body ?? exampleOf(requestMedia.schema, ctx);
        requestMedia.examples = { request: { summary: op.summary ?? 'Request', value: requestExample } };
      }
      for (const [status, response] of Object.entries(op.responses as Json)) {
        const media = status.startsWith('2') ? response.content?.['application/json'] : undefined;
        const data = media?.schema?.allOf?.[1]?.properties?.data;
        if (!data) continue;
        delete media.example;
        media.examples = { success: { summary: op.summary ?? 'Success', value: { status: 'success', message: exampleMessage(op.summary, method), data: exampleOf(data, ctx) } } };
      }
      op['x-codeSamples'] = [
        ...(known?.sdk ? [{ lang: 'TypeScript', label: 'SDK', source: sdkSample(known.sdk) }] : []),
        { lang: 'Shell', label: 'curl', source: curlSample(String(doc.servers?.[0]?.url ?? 'http://localhost:3000/api/v1'), method, path, params, requestExample) },
      ];
    }
  }
}
