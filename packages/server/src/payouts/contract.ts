/**
 * What the OpenAPI document and the MCP tool list say about this folder's operations beyond their
 * schemas (http/operation.ts): each route passes its entry as `config.operation`.
 */
import { readTool, type Operation } from '../http/operation.ts';

/** GET /payouts */
export const listPayouts: Operation = {
  id: 'listPayouts',
  sdk: 'for await (const payout of client.payouts.list()) {\n  console.log(payout.id, payout.amount, payout.currency);\n}',
  mcp: {
    name: 'list_payouts',
    description: 'List payouts of settled earnings, newest first (page with cursor).',
    ...readTool
  }
};

/** GET /payouts/{id} */
export const getPayout: Operation = {
  id: 'getPayout',
  sdk: "const payout = await client.payouts.get('po_…');",
  mcp: { name: 'get_payout', description: 'Get one payout.', ...readTool }
};
