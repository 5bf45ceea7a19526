/**
 * What the OpenAPI document and the MCP tool list say about this folder's operations beyond their
 * schemas (http/operation.ts): each route passes its entry as `config.operation`.
 */
import { readTool, type Operation } from '../http/operation.ts';

/** POST /affiliates */
export const createAffiliate: Operation = {
  id: 'createAffiliate',
  sdk: 'const affiliate = await client.affiliates.create({\n' +
    "  name: 'Rita Inks',\n" +
    "  email: 'rita@example.com',\n" +
    "  code: 'RITA10',\n" +
    '  commissionPercent: 20,\n' +
    '  recurring: true,\n' +
    '});',
  body: { name: 'Rita Inks', email: 'rita@example.com', code: 'RITA10', commissionPercent: 20, recurring: true },
  mcp: {
    name: 'create_affiliate',
    description: 'Add an affiliate (name, email, code, commission percent, optionally per product; recurring or not) who earns on the sales their code brings.'
  }
};

/** GET /affiliates */
export const listAffiliates: Operation = {
  id: 'listAffiliates',
  sdk: "for await (const affiliate of client.affiliates.list({ status: 'active' })) {\n  console.log(affiliate.code, affiliate.stats);\n}",
  mcp: {
    name: 'list_affiliates',
    description: 'List affiliates with their sales and commission pending and earned, newest first (page with cursor).',
    ...readTool
  }
};

/** GET /affiliates/{id} */
export const getAffiliate: Operation = {
  id: 'getAffiliate',
  sdk: "const { stats } = await client.affiliates.get('aff_…');",
  mcp: {
    name: 'get_affiliate',
    description: 'Get one affiliate with its attributed sales and commission pending, earned and paid out.',
    ...readTool
  }
};

/** PATCH /affiliates/{id} */
export const updateAffiliate: Operation = {
  id: 'updateAffiliate',
  sdk: "const affiliate = await client.affiliates.update('aff_…', { commissionPercent: 25 });",
  body: { commissionPercent: 25 },
  mcp: {
    name: 'update_affiliate',
    description: 'Change an affiliate: percent, code, recurring, or archive it (its code stops attributing sales).',
    idempotent: true
  }
};
