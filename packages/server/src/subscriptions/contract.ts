/**
 * What the OpenAPI document and the MCP tool list say about this folder's operations beyond their
 * schemas (http/operation.ts): each route passes its entry as `config.operation`.
 */
import type { Operation } from '../http/operation.ts';

/** POST /memberships/{id}/cancel */
export const cancelMembership: Operation = {
  id: 'cancelMembership',
  sdk: "const member = await client.memberships.cancel('mem_…', { atPeriodEnd: true });",
  body: { atPeriodEnd: true },
  mcp: {
    name: 'cancel_membership',
    description: 'Cancel a membership (at once or at the end of its paid period).',
    destructive: true,
    idempotent: true
  }
};

/** POST /memberships/{id}/resume */
export const resumeMembership: Operation = {
  id: 'resumeMembership',
  sdk: "const membership = await client.memberships.resume('mem_…');",
  mcp: { name: 'resume_membership', description: 'Keep a membership that was cancelled at period end: it renews again.', idempotent: true }
};

/** DELETE /hubs/{hubID}/members/{id} */
export const removeHubMember: Operation = {
  id: 'removeHubMember',
  sdk: "const member = await client.hubs.members.remove('hub_…', 'mem_…');",
  mcp: { name: 'remove_hub_member', description: 'Remove a member from a hub, ending their access now.', destructive: true, idempotent: true }
};

/** GET /subscriptions */
export const listSubscriptions: Operation = {
  id: 'listSubscriptions',
  sdk: "for await (const sub of client.subscriptions.list({ status: 'past_due' })) {\n  console.log(sub.customer.email, sub.nextRenewalAt, sub.mrr, sub.currency);\n}",
  mcp: {
    name: 'list_subscriptions',
    description: 'List subscriptions, newest first (page with cursor), each with its customer, amount and interval, next renewal and monthly recurring revenue; filter by status (active, past_due, cancelling, ended), product, hub, tier or customer id. cancel_membership acts on one\'s membershipID.',
    readOnly: true,
    idempotent: true,
  },
};
