/**
 * What the OpenAPI document and the MCP tool list say about this folder's operations beyond their
 * schemas (http/operation.ts): each route passes its entry as `config.operation`.
 */
import { readTool, type Operation } from '../http/operation.ts';

/** GET /hubs/{hubID}/members */
export const listHubMembers: Operation = {
  id: 'listHubMembers',
  sdk: "const [member] = (await client.hubs.members.list('hub_…', { email: 'ada@example.com' })).items;\nconsole.log(member?.status);",
  mcp: { name: 'list_hub_members', description: 'List the members of a hub, newest first (page with cursor).', ...readTool }
};

/** GET /hubs/{hubID}/members/{id} */
export const getHubMember: Operation = {
  id: 'getHubMember',
  sdk: "const member = await client.hubs.members.get('hub_…', 'mem_…');",
  mcp: { name: 'get_hub_member', description: 'Get one member of a hub by membership id.', ...readTool }
};

/** GET /products/{id}/customers */
export const listProductCustomers: Operation = {
  id: 'listProductCustomers',
  sdk: "for await (const customer of client.products.customers.list('prod_…', { status: 'cancelled' })) {\n  console.log(customer.email);\n}",
  mcp: {
    name: 'list_product_customers',
    description: "List a product's customers, newest first (page with cursor).",
    ...readTool
  }
};
