/**
 * What the OpenAPI document and the MCP tool list say about this folder's operations beyond their
 * schemas (http/operation.ts): each route passes its entry as `config.operation`.
 */
import type { Operation } from '../http/operation.ts';

/** GET /customers */
export const listCustomers: Operation = {
  id: 'listCustomers',
  sdk: "for await (const customer of client.customers.list({ q: 'ada', status: 'active' })) {\n  console.log(customer.id, customer.email, customer.lifetimeValue);\n}",
  mcp: {
    name: 'list_customers',
    description: 'List everyone who bought or joined, one entry per email, newest first (page with cursor), with lifetime value per currency, counts and marketing consent; search by name or email (q), filter by product or hub id, status (active, ended) or consent.',
    readOnly: true,
    idempotent: true,
  },
};

/** GET /customers/{id} */
export const getCustomer: Operation = {
  id: 'getCustomer',
  sdk: "const customer = await client.customers.get('cus_…');\nconsole.log(customer.transactions.map((t) => t.txref));",
  mcp: {
    name: 'get_customer',
    description: 'Get one customer with every membership and subscription, their transactions (txrefs, amounts, statuses), lifetime value per currency and the emails sent to them.',
    readOnly: true,
    idempotent: true,
  },
};
