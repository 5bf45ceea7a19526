/**
 * What the OpenAPI document and the MCP tool list say about this folder's operations beyond their
 * schemas (http/operation.ts): each route passes its entry as `config.operation`.
 */
import { readTool, type Operation } from '../http/operation.ts';

/** POST /hubs/{hubID}/members/import */
export const importHubMembers: Operation = {
  id: 'importHubMembers',
  inputShapes: { 'records[]': 'ImportRecord' },
  sdk: "const { importID } = await client.hubs.members.import('hub_…', {\n  records: [{ fullName: 'Ada Lovelace', email: 'ada@example.com' }],\n});",
  body: { records: [{ fullName: 'Ada Lovelace', email: 'ada@example.com' }] },
  mcp: { name: 'import_hub_members', description: 'Import members into a hub (queued; returns the import to check with get_import).' }
};

/** POST /products/{id}/customers/import */
export const importProductCustomers: Operation = {
  id: 'importProductCustomers',
  inputShapes: { 'records[]': 'ImportRecord' },
  sdk: "const { importID } = await client.products.customers.import('prod_…', {\n  records: [{ fullName: 'Ada Lovelace', email: 'ada@example.com' }],\n});",
  body: { records: [{ fullName: 'Ada Lovelace', email: 'ada@example.com' }] },
  mcp: { name: 'import_product_customers', description: 'Import customers of a product (queued; returns the import to check with get_import).' }
};

/** GET /imports/{id} */
export const getImport: Operation = {
  id: 'getImport',
  sdk: "const job = await client.imports.get('imp_…');\nconsole.log(job.status, job.created, job.pending);",
  mcp: {
    name: 'get_import',
    description: "Get an import's progress: people created, reactivated, unchanged and refused (records=true: what happened to each record).",
    ...readTool
  }
};
