/**
 * What the OpenAPI document and the MCP tool list say about this folder's operations beyond their
 * schemas (http/operation.ts): each route passes its entry as `config.operation`.
 */
import type { Operation } from '../http/operation.ts';

/** GET /transactions/{id}/invoice */
export const getTransactionInvoice: Operation = {
  id: 'getTransactionInvoice',
  sdk: "const pdf = await client.transactions.invoice('tx_…'); // Uint8Array\nawait writeFile('invoice.pdf', pdf);"
};
