import { Type } from 'typebox';
import type { Deps } from '../deps.ts';
import { PageQuery } from '../db/paging.ts';
import type { App } from '../http/app-type.ts';
import { principalOf } from '../auth/resolve.ts';
import { Envelope, ListOf, ok } from '../http/envelope.ts';
import { write, writeFlow } from '../http/idempotency.ts';
import {
  CreatedWebhookEndpoint, CreateEndpointBody, DeliveryListQuery, RolledSigningSecret, RollSecretBody, TestEventBody, UpdateEndpointBody,
  WebhookDelivery, WebhookDeliveryDetail, WebhookEndpoint,
} from './schemas.ts';
import { resendDelivery } from './flows.ts';
import * as service from './service.ts';
import * as contract from './contract.ts';

const scope = { auth: { scope: 'webhooks:write' as const } };
const Id = Type.Object({ id: Type.String() });

/** The public API's webhook endpoints, their deliveries and test events (docs/webhooks.md). */
export function webhookRoutes(app: App, deps: Pick<Deps, 'db' | 'config' | 'lookup' | 'secrets'>) {
  const { db } = deps;
  const settings = deps.config.webhooks;
  const key = deps.secrets.webhookKey;
  const w = service.webhookDeps({ db, settings, key, log: app.log, lookup: deps.lookup });
  app.addHook('onClose', async () => w.close());

  app.get('/webhooks', {
    schema: {
      summary: 'List webhook endpoints',
      description: 'The endpoints of the key\'s mode, newest first.',
      tags: ['Webhooks'],
      querystring: PageQuery,
      response: { 200: Envelope(ListOf(WebhookEndpoint)) },
    },
    config: { ...scope, operation: contract.listWebhookEndpoints },
  }, async (req) => ok('Webhook endpoints retrieved', await service.listEndpoints(db, principalOf(req), req.query)));

  app.post('/webhooks', {
    schema: {
      summary: 'Register a webhook endpoint',
      description: 'Returns the endpoint with its signing secret, which is shown only here. Live mode needs https:// to a public address.',
      tags: ['Webhooks'],
      body: CreateEndpointBody,
      response: { 200: Envelope(CreatedWebhookEndpoint) },
    },
    config: { ...scope, operation: contract.createWebhookEndpoint },
  }, async (req, reply) => write(db, req, reply, (tx) => service.createEndpoint(tx, principalOf(req), req.body, w), 'Webhook endpoint created'));

  app.post('/webhooks/test', {
    schema: {
      summary: 'Send a test event',
      description: 'Records a sample event of `eventType` (its data shaped like the real one) and delivers it through the real pipeline: to `endpointID` only, or to every active endpoint subscribed to the type. `created` is the number of deliveries queued.',
      tags: ['Webhooks'],
      body: TestEventBody,
      response: { 200: Envelope(Type.Object({ created: Type.Number() })) },
    },
    config: { ...scope, operation: contract.sendTestEvent },
  }, async (req, reply) => write(db, req, reply, (tx) => service.sendTestEvent(tx, principalOf(req), req.body), 'Test event queued'));

  app.get('/webhooks/deliveries', {
    schema: {
      summary: 'List webhook deliveries',
      description: 'Deliveries of the key\'s mode, newest first (by when the event was recorded), filtered by `status`, `endpointID`, `eventType`, `resourceID` and `eventID` when given (all must match).',
      tags: ['Webhooks'],
      querystring: DeliveryListQuery,
      response: { 200: Envelope(ListOf(WebhookDelivery)) },
    },
    config: { ...scope, operation: contract.listWebhookDeliveries },
  }, async (req) => ok('Webhook deliveries retrieved', await service.listDeliveries(db, principalOf(req), req.query)));

  app.get('/webhooks/deliveries/:id', {
    schema: {
      summary: 'Get a webhook delivery',
      description: 'One delivery with every attempt: when, the response code or error, how long it took and the first 1 KB of the answer.',
      tags: ['Webhooks'],
      params: Id,
      response: { 200: Envelope(WebhookDeliveryDetail) },
    },
    config: { ...scope, operation: contract.getWebhookDelivery },
  }, async (req) => ok('Webhook delivery retrieved', await service.getDelivery(db, principalOf(req), req.params.id)));

  app.post('/webhooks/deliveries/:id/resend', {
    schema: {
      summary: 'Resend a webhook delivery',
      description: 'Sends the same event (same id and body, freshly signed) to the same endpoint now, as one more attempt on this delivery record, and returns the record with that attempt.',
      tags: ['Webhooks'],
      params: Id,
      response: { 200: Envelope(WebhookDeliveryDetail) },
    },
    config: { ...scope, operation: contract.resendWebhookDelivery },
  }, async (req, reply) => writeFlow(db, req, reply, () => resendDelivery(db, principalOf(req), req.params.id, w), 'Webhook delivery resent'));

  app.get('/webhooks/:id', {
    schema: {
      summary: 'Get a webhook endpoint',
      tags: ['Webhooks'],
      params: Id,
      response: { 200: Envelope(WebhookEndpoint) },
    },
    config: { ...scope, operation: contract.getWebhookEndpoint },
  }, async (req) => ok('Webhook endpoint retrieved', await service.getEndpoint(db, principalOf(req), req.params.id)));

  app.patch('/webhooks/:id', {
    schema: {
      summary: 'Update a webhook endpoint',
      description: 'Changes url, events, status (`active` or `disabled`) or description. Enabling an endpoint clears `disabledReason`.',
      tags: ['Webhooks'],
      params: Id,
      body: UpdateEndpointBody,
      response: { 200: Envelope(WebhookEndpoint) },
    },
    config: { ...scope, operation: contract.updateWebhookEndpoint },
  }, async (req, reply) => write(db, req, reply, (tx) => service.updateEndpoint(tx, principalOf(req), req.params.id, req.body, w), 'Webhook endpoint updated'));

  app.post('/webhooks/:id/secret/roll', {
    schema: {
      summary: 'Roll a webhook signing secret',
      description: 'Our addition to the reference: a new signing secret, shown only in this answer. For `overlapSeconds` (default 86400, at most 604800, 0 = stop now) '
        + 'the previous secret keeps signing: `webhook-signature` carries two space-separated `v1,` signatures (the new one first), so a Standard Webhooks receiver '
        + 'still holding the old secret verifies. `X-Service-Signature` has room for one signature and uses the new secret at once.',
      tags: ['Webhooks'],
      params: Id,
      body: RollSecretBody,
      response: { 200: Envelope(RolledSigningSecret) },
    },
    config: { ...scope, operation: contract.rollWebhookSigningSecret },
    // Every field is optional, so a POST without a body means the defaults (curl -X POST).
    preValidation: async (req) => { req.body ??= {}; },
  }, async (req, reply) => write(db, req, reply, (tx) => service.rollSigningSecret(tx, principalOf(req), req.params.id, req.body, w), 'Webhook signing secret rolled'));

  app.delete('/webhooks/:id', {
    schema: {
      summary: 'Delete a webhook endpoint',
      description: 'Its deliveries stay in the log; those still pending become `failed` (`endpoint_deleted`).',
      tags: ['Webhooks'],
      params: Id,
      response: { 200: Envelope(Type.Object({ id: Type.String(), deleted: Type.Boolean() })) },
    },
    config: { ...scope, operation: contract.deleteWebhookEndpoint },
  }, async (req, reply) => write(db, req, reply, (tx) => service.deleteEndpoint(tx, principalOf(req), req.params.id), 'Webhook endpoint deleted'));
}
