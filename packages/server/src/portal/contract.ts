/**
 * What the OpenAPI document and the MCP tool list say about this folder's operations beyond their
 * schemas (http/operation.ts): each route passes its entry as `config.operation`.
 */
import type { Operation } from '../http/operation.ts';

/** POST /customer-sessions */
export const createCustomerSession: Operation = {
  id: 'createCustomerSession',
  sdk: "const session = await client.customerSessions.create({ email: 'ada@example.com', deepLink: 'mem_…', returnUrl: 'https://inkwell.example.com/account' });\n" +
    '// Send the buyer to session.url (it works once, for 15 minutes).',
  body: { email: 'ada@example.com', returnUrl: 'https://inkwell.example.com/account' },
  errors: [404],
  mcp: {
    name: 'create_customer_session',
    description: 'Make a one-time link (15 minutes) into the buyer portal for a customer, by email, optionally opening on one of their subscriptions, purchases or items; send it to them to manage their purchases.'
  }
};
