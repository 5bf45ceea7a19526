/**
 * What the OpenAPI document and the MCP tool list say about this folder's operations beyond their
 * schemas (http/operation.ts): each route passes its entry as `config.operation`.
 */
import type { Operation } from '../http/operation.ts';

/** POST /transactions/{id}/refund */
export const refundTransaction: Operation = {
  id: 'refundTransaction',
  sdk: '// Partial: 10.00 back, access kept. Leave out amount to refund all that is left (and end the access it bought).\n' +
    "const transaction = await client.transactions.refund('tx_…', { amount: 10, reason: 'Bought twice by mistake' });\n" +
    'console.log(transaction.refundedAmount, transaction.refunds);',
  body: { amount: 10, reason: 'Bought twice by mistake' },
  mcp: {
    name: 'refund_transaction',
    description: 'Give money back to the buyer of a transaction (txref), through the provider that took it. This moves real money in live mode and cannot be undone: before calling, tell the user the exact amount and currency (get_transaction shows what is left) and get their confirmation. Without amount it refunds all that is left and, unless revokeAccess is false, ends the access the payment bought; a partial refund keeps access unless revokeAccess is true. Pass an idempotencyKey so that a retry never refunds twice.',
    destructive: true,
    openWorld: true
  }
};

/** POST /test/transactions/{id}/dispute/close */
export const closeTestDispute: Operation = {
  id: 'closeTestDispute',
  sdk: "// Test mode: a payment made with test card 4000 0000 0000 0259 is disputed as soon as it is paid.\nconst transaction = await client.testHelpers.closeDispute('tx_…', { outcome: 'lost' });\nconsole.log(transaction.dispute?.status, transaction.refundedAmount);",
  body: { outcome: 'lost' },
  mcp: {
    name: 'close_test_dispute',
    description: 'Test mode only: decide the dispute that sandbox card 4000 0000 0000 0259 opened on a transaction (txref), as the buyer\'s bank would: outcome won (nothing else changes) or lost (the disputed amount is refunded and the access it bought ends). Returns the transaction.',
    destructive: true,
  },
};
