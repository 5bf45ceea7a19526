/**
 * What the OpenAPI document and the MCP tool list say about this folder's operations beyond their
 * schemas (http/operation.ts): each route passes its entry as `config.operation`.
 */
import { readTool, type Operation } from '../http/operation.ts';

/** GET /webhooks */
export const listWebhookEndpoints: Operation = {
  id: 'listWebhookEndpoints',
  sdk: 'const endpoints = await client.webhooks.list().toArray({ max: 100 });',
  mcp: { name: 'list_webhooks', description: "List the brand's webhook endpoints.", ...readTool }
};

/** POST /webhooks */
export const createWebhookEndpoint: Operation = {
  id: 'createWebhookEndpoint',
  inputShapes: { 'events[]': 'EventType' },
  sdk: 'const endpoint = await client.webhooks.create({\n' +
    "  url: 'https://example.com/hooks',\n" +
    "  events: ['transaction.succeeded'],\n" +
    '});\n' +
    '// Store endpoint.signingSecret now: it is shown only once.',
  body: { url: 'https://example.com/hooks', events: ['transaction.succeeded'] },
  mcp: {
    name: 'create_webhook',
    description: 'Add a webhook endpoint (an https URL) subscribed to event types; returns its signing secret once. Events are then sent to that URL.',
    openWorld: true
  }
};

/** POST /webhooks/test */
export const sendTestEvent: Operation = {
  id: 'sendTestEvent',
  inputShapes: { eventType: 'EventType' },
  sdk: "const { created } = await client.webhooks.test({ eventType: 'transaction.succeeded' });",
  body: { eventType: 'transaction.succeeded' },
  errors: [404],
  mcp: { name: 'send_test_event', description: 'Send a sample event of a type to the webhook endpoints subscribed to it.', openWorld: true }
};

/** GET /webhooks/deliveries */
export const listWebhookDeliveries: Operation = {
  id: 'listWebhookDeliveries',
  inputShapes: { eventType: 'EventType' },
  sdk: "for await (const delivery of client.webhooks.deliveries.list({ status: 'failed', eventType: 'transaction.succeeded' })) {\n" +
    '  console.log(delivery.id, delivery.eventType);\n' +
    '}',
  mcp: { name: 'list_deliveries', description: 'List webhook deliveries, newest first (page with cursor).', ...readTool }
};

/** GET /webhooks/deliveries/{id} */
export const getWebhookDelivery: Operation = {
  id: 'getWebhookDelivery',
  sdk: "const delivery = await client.webhooks.deliveries.get('whd_…');",
  mcp: { name: 'get_delivery', description: 'Get one webhook delivery with its attempts.', ...readTool }
};

/** POST /webhooks/deliveries/{id}/resend */
export const resendWebhookDelivery: Operation = {
  id: 'resendWebhookDelivery',
  sdk: "const delivery = await client.webhooks.deliveries.resend('whd_…');",
  mcp: { name: 'resend_delivery', description: 'Send a webhook delivery again now.', openWorld: true }
};

/** GET /webhooks/{id} */
export const getWebhookEndpoint: Operation = {
  id: 'getWebhookEndpoint',
  sdk: "const endpoint = await client.webhooks.get('we_…');",
  mcp: { name: 'get_webhook', description: 'Get one webhook endpoint.', ...readTool }
};

/** PATCH /webhooks/{id} */
export const updateWebhookEndpoint: Operation = {
  id: 'updateWebhookEndpoint',
  inputShapes: { 'events[]': 'EventType' },
  sdk: "const endpoint = await client.webhooks.update('we_…', { status: 'disabled' });",
  body: { status: 'disabled' },
  mcp: {
    name: 'update_webhook',
    description: "Change a webhook endpoint's URL, events or status.",
    destructive: true,
    idempotent: true,
    openWorld: true
  }
};

/** POST /webhooks/{id}/secret/roll */
export const rollWebhookSigningSecret: Operation = {
  id: 'rollWebhookSigningSecret',
  sdk: "const { signingSecret, previousSecretExpiresAt } = await client.webhooks.rollSecret('we_…', { overlapSeconds: 86400 });\n" +
    '// Store signingSecret now; verify with [signingSecret, oldSecret] until previousSecretExpiresAt.',
  body: { overlapSeconds: 86400 }
};

/** DELETE /webhooks/{id} */
export const deleteWebhookEndpoint: Operation = {
  id: 'deleteWebhookEndpoint',
  sdk: "const { deleted } = await client.webhooks.delete('we_…');",
  mcp: { name: 'delete_webhook', description: 'Delete a webhook endpoint; it receives nothing more.', destructive: true, idempotent: true }
};
