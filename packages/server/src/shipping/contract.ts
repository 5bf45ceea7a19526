/**
 * What the OpenAPI document and the MCP tool list say about this folder's operations beyond their
 * schemas (http/operation.ts): each route passes its entry as `config.operation`.
 */
import type { Operation } from '../http/operation.ts';

/** POST /transactions/{id}/fulfilment */
export const setTransactionFulfilment: Operation = {
  id: 'setTransactionFulfilment',
  sdk: "const order = await client.transactions.fulfil('tx_…', { status: 'shipped', carrier: 'USPS', trackingNumber: '9400111899223197428490' });\nconsole.log(order.fulfilment?.status);",
  body: { status: 'shipped', carrier: 'USPS', trackingNumber: '9400111899223197428490', trackingUrl: 'https://tools.usps.com/go/TrackConfirmAction?tLabels=9400111899223197428490' },
  mcp: {
    name: 'set_order_fulfilment',
    description: 'Move a paid order of a physical product one step: status shipped with carrier and trackingNumber (a delivery), or ready_for_pickup and then picked_up (a pickup). '
      + 'The buyer is emailed. Confirm the carrier and tracking number with the user first; pass an idempotencyKey so that a retry never sends twice.',
  },
};
