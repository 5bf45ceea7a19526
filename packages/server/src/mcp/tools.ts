import type { McpTool } from '../http/operation.ts';

/**
 * An MCP tool with the REST route it runs. Each route that should have a tool declares it in
 * `config.operation.mcp` (http/operation.ts); mcp/catalog.ts collects them as the routes
 * register. Input and output schemas, the scope and the validation all come from that route
 * (its TypeBox schemas and `config.auth`), so a tool can never drift from its route.
 */
export interface ToolSpec extends McpTool {
  /** Input fields that take an event type (the route's `inputShapes`), given the event types as an enum; `events` and `eventType` are found by name. */
  eventTypeInputs?: string[];
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** The route's path under /api/v1, with Fastify's :params. */
  path: string;
}

/**
 * What each kind of id is and where an assistant finds one, by the collection the route names it
 * under (`/products/:id` → products) or by the argument's own name (`hubID`). Every id argument of
 * every tool gets one of these as its description (mcp/tools.test.ts fails, naming the tool and
 * argument, for an id argument none of these covers: add its collection or name here).
 */
export const idDescriptions: Record<string, string> = {
  products: 'The product\'s id (`prod_…`): list_products lists them.',
  hubs: 'The hub\'s id (`hub_…`): list_hubs lists them.',
  members: 'The membership\'s id (`mem_…`): list_hub_members lists a hub\'s members, list_product_customers a product\'s customers.',
  memberships: 'The membership\'s id (`mem_…`): list_hub_members lists a hub\'s members, list_product_customers a product\'s customers.',
  imports: 'The import\'s id (`imp_…`), answered as importID by import_hub_members or import_product_customers.',
  transactions: 'The transaction\'s txref (`txn_…`): list_transactions lists them.',
  webhooks: 'The webhook endpoint\'s id (`we_…`): list_webhooks lists them.',
  deliveries: 'The webhook delivery\'s id (`whd_…`): list_deliveries lists them.',
  events: 'The event\'s id (`evt_…`): list_events lists them.',
  payouts: 'The payout\'s id (`po_…`): list_payouts lists them.',
  emails: 'The email\'s id (`msg_…`): list_emails lists them.',
  'checkout-links': 'The checkout link\'s id (`clink_…`): list_checkout_links lists them, create_checkout_link answers one.',
  'payment-links': 'The payment link\'s id (`plink_…`), answered as id by create_payment_link.',
  coupons: 'The coupon\'s id (`cpn_…`): list_coupons lists them (filter by code to find one).',
  affiliates: 'The affiliate\'s id (`aff_…`): list_affiliates lists them.',
  bookings: 'The booking\'s id (`bkg_…`): list_bookings lists them.',
  customers: 'The customer\'s id (`cus_…`): list_customers lists them (search by name or email with q).',
  hubID: 'The hub\'s id (`hub_…`): list_hubs lists them.',
  endpointID: 'A webhook endpoint\'s id (`we_…`): list_webhooks lists them.',
  eventID: 'An event\'s id (`evt_…`): list_events lists them.',
  resourceID: 'The id of the object the event is about: a transaction\'s txref (`txn_…`, list_transactions), a membership id (`mem_…`, list_hub_members) or a payout id (`po_…`, list_payouts).',
  txref: 'The transaction\'s txref (`txn_…`): list_transactions lists them; create_payment_link\'s buyer pays under one.',
  tier: 'A tier\'s id (`tier_…`): get_product or get_hub shows the tiers of a product or hub.',
  plan: 'A tier\'s id (`tier_…`): get_product or get_hub shows the tiers of a product or hub.',
  productID: 'The product\'s id (`prod_…`): list_products lists them.',
};
