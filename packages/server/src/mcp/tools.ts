/**
 * The MCP tools: one per operation of the REST API, each named for what it does, with the REST
 * route it runs. Input and output schemas, the scope and the validation all come from that
 * route (its TypeBox schemas and `config.auth`), so a tool can never drift from its route.
 */
export interface ToolSpec {
  name: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** The route's path under /api/v1, with Fastify's :params. */
  path: string;
  description: string;
  readOnly?: boolean;
  /** It may change or delete what exists (not only add): MCP's destructiveHint. */
  destructive?: boolean;
  idempotent?: boolean;
  /** It reaches outside this service (a webhook receiver, the payment provider): MCP's openWorldHint. */
  openWorld?: boolean;
  /** Body fields the route takes that an assistant should not fill in (marketing attribution), left out of the tool's input. */
  hiddenInputs?: string[];
  /** Input fields that take an event type, given the event types as an enum (`events` and `eventType` are found by name). */
  eventTypeInputs?: string[];
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
  hubID: 'The hub\'s id (`hub_…`): list_hubs lists them.',
  endpointID: 'A webhook endpoint\'s id (`we_…`): list_webhooks lists them.',
  eventID: 'An event\'s id (`evt_…`): list_events lists them.',
  resourceID: 'The id of the object the event is about: a transaction\'s txref (`txn_…`, list_transactions), a membership id (`mem_…`, list_hub_members) or a payout id (`po_…`, list_payouts).',
  txref: 'The transaction\'s txref (`txn_…`): list_transactions lists them; create_payment_link\'s buyer pays under one.',
  tier: 'A tier\'s id (`tier_…`): get_product or get_hub shows the tiers of a product or hub.',
  plan: 'A tier\'s id (`tier_…`): get_product or get_hub shows the tiers of a product or hub.',
  productID: 'The product\'s id (`prod_…`): list_products lists them.',
};

/** Attribution fields of a payment link, for the brand's own storefront code, not for an assistant. */
const marketing = ['utmRef', 'adClickID', 'adType', 'checkoutOtpVerificationSkipped', 'receive_emails'];
/** Catalog writes reach the live catalog whatever the key's mode (docs/catalog.md). */
const catalogNote = 'The catalog is shared by test and live mode: this changes what live buyers see.';
/** PATCH's whole-list rule (docs/catalog.md), which makes an update able to delete. */
const wholeLists = 'tiers, items and checkoutFields, when given, are the whole list: entries with an id are kept and updated, entries without one added, and ones left out deleted (or archived if ever sold); get the current lists first.';

const read = { readOnly: true, idempotent: true } as const;

export const toolSpecs: ToolSpec[] = [
  { name: 'list_products', method: 'GET', path: '/products', description: 'List the brand\'s products, newest first (page with cursor).', ...read },
  { name: 'get_product', method: 'GET', path: '/products/:id', description: 'Get one product with its tiers, items and checkout fields.', ...read },
  { name: 'create_product', method: 'POST', path: '/products', description: `Create a product with its tiers (prices), items and checkout fields; answers the product as get_product does. ${catalogNote}` },
  { name: 'update_product', method: 'PATCH', path: '/products/:id', description: `Change a product: only the fields given change. ${wholeLists} ${catalogNote}`, destructive: true, idempotent: true },
  { name: 'list_hubs', method: 'GET', path: '/hubs', description: 'List the brand\'s membership hubs, newest first, without their tiers (page with cursor; get_hub has the tiers).', ...read },
  { name: 'get_hub', method: 'GET', path: '/hubs/:id', description: 'Get one membership hub with its tiers (its plans), archived ones included.', ...read },
  { name: 'create_hub', method: 'POST', path: '/hubs', description: `Create a membership hub with its tiers (free, one-off or recurring plans); answers the hub as get_hub does. ${catalogNote}` },
  { name: 'update_hub', method: 'PATCH', path: '/hubs/:id', description: `Change a membership hub: only the fields given change; tiers, when given, is the whole list (left-out tiers are deleted, or archived if ever sold); get the hub first. ${catalogNote}`, destructive: true, idempotent: true },
  { name: 'list_hub_members', method: 'GET', path: '/hubs/:hubID/members', description: 'List the members of a hub, newest first (page with cursor).', ...read },
  { name: 'get_hub_member', method: 'GET', path: '/hubs/:hubID/members/:id', description: 'Get one member of a hub by membership id.', ...read },
  { name: 'list_product_customers', method: 'GET', path: '/products/:id/customers', description: 'List a product\'s customers, newest first (page with cursor).', ...read },
  { name: 'import_hub_members', method: 'POST', path: '/hubs/:hubID/members/import', description: 'Import members into a hub (queued; returns the import to check with get_import).' },
  { name: 'import_product_customers', method: 'POST', path: '/products/:id/customers/import', description: 'Import customers of a product (queued; returns the import to check with get_import).' },
  { name: 'get_import', method: 'GET', path: '/imports/:id', description: 'Get an import\'s progress: people created, reactivated, unchanged and refused (records=true: what happened to each record).', ...read },
  { name: 'cancel_membership', method: 'POST', path: '/memberships/:id/cancel', description: 'Cancel a membership (at once or at the end of its paid period).', destructive: true, idempotent: true },
  { name: 'resume_membership', method: 'POST', path: '/memberships/:id/resume', description: 'Keep a membership that was cancelled at period end: it renews again.', idempotent: true },
  { name: 'create_customer_session', method: 'POST', path: '/customer-sessions', description: 'Make a one-time link (15 minutes) into the buyer portal for a customer, by email, optionally opening on one of their subscriptions, purchases or items; send it to them to manage their purchases.' },
  { name: 'remove_hub_member', method: 'DELETE', path: '/hubs/:hubID/members/:id', description: 'Remove a member from a hub, ending their access now.', destructive: true, idempotent: true },
  { name: 'create_payment_link', method: 'POST', path: '/payment-links', description: 'Create a payment link for one buyer: 1 to 20 items, each a tier (plan) of a product or hub of the brand, and the buyer\'s form (fullName, email, the product\'s checkout fields); returns the checkout URL to send them. It can be paid once.', hiddenInputs: marketing },
  { name: 'pay_test_payment_link', method: 'POST', path: '/test/payment-links/:id/pay', description: 'Test mode only: pay a test payment link with a sandbox card (4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined), as a buyer on the hosted page would; returns the transaction.' },
  { name: 'create_checkout_link', method: 'POST', path: '/checkout-links', description: 'Create a reusable checkout link for one or more tiers (any number of buyers); returns the URL to share.' },
  { name: 'list_checkout_links', method: 'GET', path: '/checkout-links', description: 'List checkout links with their sales, newest first (page with cursor; filter by tier).', ...read },
  { name: 'get_checkout_link', method: 'GET', path: '/checkout-links/:id', description: 'Get one checkout link with its sales.', ...read },
  { name: 'update_checkout_link', method: 'PATCH', path: '/checkout-links/:id', description: 'Change a checkout link: disable it, move its expiry, change its sales cap or tiers.', destructive: true, idempotent: true },
  { name: 'list_coupons', method: 'GET', path: '/coupons', description: 'List coupons (discount codes) with their uses, newest first (page with cursor; filter by status or code).', ...read },
  { name: 'get_coupon', method: 'GET', path: '/coupons/:id', description: 'Get one coupon with the revenue its uses brought and its newest uses.', ...read },
  { name: 'create_coupon', method: 'POST', path: '/coupons', description: 'Create a coupon: a code buyers type at checkout for percentOff or amountsOff (per currency), optionally limited to products, tiers or hubs, a window, caps and a minimum.' },
  { name: 'update_coupon', method: 'PATCH', path: '/coupons/:id', description: 'Change a coupon\'s name, scope, window, caps or minimums (the code and the discount never change).', idempotent: true },
  {
    name: 'archive_coupon', method: 'DELETE', path: '/coupons/:id',
    description: 'Archive a coupon: no new buyer can use its code (subscriptions keep their discount; nothing is deleted). Confirm with the user first.',
    destructive: true, idempotent: true,
  },
  { name: 'create_affiliate', method: 'POST', path: '/affiliates', description: 'Add an affiliate (name, email, code, commission percent, optionally per product; recurring or not) who earns on the sales their code brings.' },
  { name: 'list_affiliates', method: 'GET', path: '/affiliates', description: 'List affiliates with their sales and commission pending and earned, newest first (page with cursor).', ...read },
  { name: 'get_affiliate', method: 'GET', path: '/affiliates/:id', description: 'Get one affiliate with its attributed sales and commission pending, earned and paid out.', ...read },
  { name: 'update_affiliate', method: 'PATCH', path: '/affiliates/:id', description: 'Change an affiliate: percent, code, recurring, or archive it (its code stops attributing sales).', idempotent: true },
  { name: 'get_brand', method: 'GET', path: '/brand', description: 'Get the brand profile: display name, storefront address, logo, accent colour, support email, time zone.', ...read },
  { name: 'update_brand', method: 'PATCH', path: '/brand', description: 'Change the brand profile the public storefront shows (slug, display name, logo, colour, support email, time zone), and the sites that may embed its checkout (embedOrigins).', destructive: true, idempotent: true },
  { name: 'verify_payment', method: 'POST', path: '/payments/verify', description: 'Ask the payment provider again whether a transaction (txref) was paid, and record the answer.', idempotent: true, openWorld: true },
  { name: 'list_transactions', method: 'GET', path: '/transactions', description: 'List transactions, newest first (page with cursor; filter by status, product or hub id, created dates, or search by txref or email). For the orders still to ship or hand over, oldest first: status=succeeded, fulfilment=unfulfilled, order=oldest.', ...read },
  { name: 'get_transaction', method: 'GET', path: '/transactions/:id', description: 'Get one transaction by its txref.', ...read },
  {
    name: 'set_order_fulfilment', method: 'POST', path: '/transactions/:id/fulfilment',
    description: 'Move a paid order of a physical product one step: status shipped with carrier and trackingNumber (a delivery), or ready_for_pickup and then picked_up (a pickup). '
      + 'The buyer is emailed. Confirm the carrier and tracking number with the user first; pass an idempotencyKey so that a retry never sends twice.',
  },
  { name: 'get_transaction_totals', method: 'GET', path: '/transactions/totals', description: 'Add up transactions per currency (how many, paid, refunded), filtered like list_transactions by status, product or hub, dates and search.', ...read },
  {
    name: 'refund_transaction', method: 'POST', path: '/transactions/:id/refund',
    description: 'Give money back to the buyer of a transaction (txref), through the provider that took it. This moves real money in live mode and cannot be undone: '
      + 'before calling, tell the user the exact amount and currency (get_transaction shows what is left) and get their confirmation. '
      + 'Without amount it refunds all that is left and, unless revokeAccess is false, ends the access the payment bought; a partial refund keeps access unless revokeAccess is true. '
      + 'Pass an idempotencyKey so that a retry never refunds twice.',
    destructive: true, openWorld: true,
  },
  { name: 'get_product_availability', method: 'GET', path: '/products/:id/availability', description: 'List the open slots of a bookable (appointment) product between from and to, each start also shown in the buyer\'s timezone.', ...read },
  { name: 'list_bookings', method: 'GET', path: '/bookings', description: 'List paid bookings, newest first (page with cursor), or upcoming=true for those not ended yet, soonest first.', ...read },
  { name: 'get_booking', method: 'GET', path: '/bookings/:id', description: 'Get one booking: product, buyer, start, end and status.', ...read },
  {
    name: 'cancel_booking', method: 'POST', path: '/bookings/:id/cancel',
    description: 'Cancel a booking and free its place (the buyer is told by the booking.cancelled event). Confirm with the user first. It does not refund: use refund_transaction with the booking\'s txref for that.',
    destructive: true,
  },
  { name: 'reschedule_booking', method: 'POST', path: '/bookings/:id/reschedule', description: 'Move a booking to another open slot of its product (see get_product_availability).' },
  { name: 'list_webhooks', method: 'GET', path: '/webhooks', description: 'List the brand\'s webhook endpoints.', ...read },
  { name: 'get_webhook', method: 'GET', path: '/webhooks/:id', description: 'Get one webhook endpoint.', ...read },
  { name: 'create_webhook', method: 'POST', path: '/webhooks', description: 'Add a webhook endpoint (an https URL) subscribed to event types; returns its signing secret once. Events are then sent to that URL.', openWorld: true },
  { name: 'update_webhook', method: 'PATCH', path: '/webhooks/:id', description: 'Change a webhook endpoint\'s URL, events or status.', destructive: true, idempotent: true, openWorld: true },
  { name: 'delete_webhook', method: 'DELETE', path: '/webhooks/:id', description: 'Delete a webhook endpoint; it receives nothing more.', destructive: true, idempotent: true },
  { name: 'send_test_event', method: 'POST', path: '/webhooks/test', description: 'Send a sample event of a type to the webhook endpoints subscribed to it.', openWorld: true },
  { name: 'list_deliveries', method: 'GET', path: '/webhooks/deliveries', description: 'List webhook deliveries, newest first (page with cursor).', ...read },
  { name: 'get_delivery', method: 'GET', path: '/webhooks/deliveries/:id', description: 'Get one webhook delivery with its attempts.', ...read },
  { name: 'resend_delivery', method: 'POST', path: '/webhooks/deliveries/:id/resend', description: 'Send a webhook delivery again now.', openWorld: true },
  { name: 'list_events', method: 'GET', path: '/events', description: 'List events (what happened), newest first (page with cursor).', ...read, eventTypeInputs: ['type'] },
  { name: 'get_event', method: 'GET', path: '/events/:id', description: 'Get one event.', ...read },
  { name: 'list_payouts', method: 'GET', path: '/payouts', description: 'List payouts of settled earnings, newest first (page with cursor).', ...read },
  { name: 'get_payout', method: 'GET', path: '/payouts/:id', description: 'Get one payout.', ...read },
  { name: 'get_metrics_summary', method: 'GET', path: '/metrics/summary', description: 'Get the brand\'s numbers: revenue today, in 7 and 30 days per currency (refunds subtracted), MRR, active and past-due subscriptions, new members, recent sales and failed renewals.', ...read },
  { name: 'list_emails', method: 'GET', path: '/emails', description: 'List the mail sent or queued for the brand (receipts, notices), newest first, with each one\'s delivery status.', ...read },
  { name: 'get_email', method: 'GET', path: '/emails/:id', description: 'Get one email: its text and HTML parts, headers and the log of its sending tries.', ...read },
];
