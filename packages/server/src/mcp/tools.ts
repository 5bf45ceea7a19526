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
  destructive?: boolean;
  idempotent?: boolean;
}

const read = { readOnly: true, idempotent: true } as const;

export const toolSpecs: ToolSpec[] = [
  { name: 'list_products', method: 'GET', path: '/products', description: 'List the brand\'s products, newest first (page with cursor).', ...read },
  { name: 'get_product', method: 'GET', path: '/products/:id', description: 'Get one product with its tiers, items and checkout fields.', ...read },
  { name: 'list_hub_members', method: 'GET', path: '/hubs/:hubID/members', description: 'List the members of a hub, newest first (page with cursor).', ...read },
  { name: 'get_hub_member', method: 'GET', path: '/hubs/:hubID/members/:id', description: 'Get one member of a hub by membership id.', ...read },
  { name: 'list_product_customers', method: 'GET', path: '/products/:id/customers', description: 'List a product\'s customers, newest first (page with cursor).', ...read },
  { name: 'import_hub_members', method: 'POST', path: '/hubs/:hubID/members/import', description: 'Import members into a hub (queued; returns the import to check with get_import).' },
  { name: 'import_product_customers', method: 'POST', path: '/products/:id/customers/import', description: 'Import customers of a product (queued; returns the import to check with get_import).' },
  { name: 'get_import', method: 'GET', path: '/imports/:id', description: 'Get an import\'s progress and the records it refused.', ...read },
  { name: 'cancel_membership', method: 'POST', path: '/memberships/:id/cancel', description: 'Cancel a membership (at once or at the end of its paid period).', destructive: true, idempotent: true },
  { name: 'remove_hub_member', method: 'DELETE', path: '/hubs/:hubID/members/:id', description: 'Remove a member from a hub, ending their access now.', destructive: true, idempotent: true },
  { name: 'create_payment_link', method: 'POST', path: '/payment-links', description: 'Create a payment link for one buyer and one tier; returns the checkout URL to send them.' },
  { name: 'pay_test_payment_link', method: 'POST', path: '/test/payment-links/:id/pay', description: 'Test mode only: pay a test payment link with a sandbox card (4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined), as a buyer on the hosted page would; returns the transaction.' },
  { name: 'create_checkout_link', method: 'POST', path: '/checkout-links', description: 'Create a reusable checkout link for one or more tiers (any number of buyers); returns the URL to share.' },
  { name: 'list_checkout_links', method: 'GET', path: '/checkout-links', description: 'List checkout links with their sales, newest first (page with cursor; filter by tier).', ...read },
  { name: 'get_checkout_link', method: 'GET', path: '/checkout-links/:id', description: 'Get one checkout link with its sales.', ...read },
  { name: 'update_checkout_link', method: 'PATCH', path: '/checkout-links/:id', description: 'Change a checkout link: disable it, move its expiry, change its sales cap or tiers.', idempotent: true },
  { name: 'get_brand', method: 'GET', path: '/brand', description: 'Get the brand profile: display name, storefront address, logo, accent colour, support email, time zone.', ...read },
  { name: 'update_brand', method: 'PATCH', path: '/brand', description: 'Change the brand profile the public storefront shows (slug, display name, logo, colour, support email, time zone).', idempotent: true },
  { name: 'verify_payment', method: 'POST', path: '/payments/verify', description: 'Ask the payment provider again whether a transaction (txref) was paid, and record the answer.', idempotent: true },
  { name: 'list_transactions', method: 'GET', path: '/transactions', description: 'List transactions, newest first (page with cursor; filter by status, product or hub id, created dates, or search by txref or email).', ...read },
  { name: 'get_transaction', method: 'GET', path: '/transactions/:id', description: 'Get one transaction by its txref.', ...read },
  { name: 'get_transaction_totals', method: 'GET', path: '/transactions/totals', description: 'Add up transactions per currency (how many, paid, refunded), filtered like list_transactions by status, product or hub, dates and search.', ...read },
  {
    name: 'refund_transaction', method: 'POST', path: '/transactions/:id/refund',
    description: 'Give money back to the buyer of a transaction (txref), through the provider that took it. This moves real money in live mode and cannot be undone: '
      + 'before calling, tell the user the exact amount and currency (get_transaction shows what is left) and get their confirmation. '
      + 'Without amount it refunds all that is left and, unless revokeAccess is false, ends the access the payment bought; a partial refund keeps access unless revokeAccess is true. '
      + 'Pass an idempotencyKey so that a retry never refunds twice.',
    destructive: true,
  },
  { name: 'list_webhooks', method: 'GET', path: '/webhooks', description: 'List the brand\'s webhook endpoints.', ...read },
  { name: 'get_webhook', method: 'GET', path: '/webhooks/:id', description: 'Get one webhook endpoint.', ...read },
  { name: 'create_webhook', method: 'POST', path: '/webhooks', description: 'Add a webhook endpoint (an https URL) subscribed to event types; returns its signing secret once.' },
  { name: 'update_webhook', method: 'PATCH', path: '/webhooks/:id', description: 'Change a webhook endpoint\'s URL, events or status.', idempotent: true },
  { name: 'delete_webhook', method: 'DELETE', path: '/webhooks/:id', description: 'Delete a webhook endpoint; it receives nothing more.', destructive: true, idempotent: true },
  { name: 'send_test_event', method: 'POST', path: '/webhooks/test', description: 'Send a sample event of a type to the webhook endpoints subscribed to it.' },
  { name: 'list_deliveries', method: 'GET', path: '/webhooks/deliveries', description: 'List webhook deliveries, newest first (page with cursor).', ...read },
  { name: 'get_delivery', method: 'GET', path: '/webhooks/deliveries/:id', description: 'Get one webhook delivery with its attempts.', ...read },
  { name: 'resend_delivery', method: 'POST', path: '/webhooks/deliveries/:id/resend', description: 'Send a webhook delivery again now.' },
  { name: 'list_events', method: 'GET', path: '/events', description: 'List events (what happened), newest first (page with cursor).', ...read },
  { name: 'get_event', method: 'GET', path: '/events/:id', description: 'Get one event.', ...read },
  { name: 'list_payouts', method: 'GET', path: '/payouts', description: 'List payouts of settled earnings, newest first (page with cursor).', ...read },
  { name: 'get_payout', method: 'GET', path: '/payouts/:id', description: 'Get one payout.', ...read },
  { name: 'get_metrics_summary', method: 'GET', path: '/metrics/summary', description: 'Get the brand\'s numbers: revenue today, in 7 and 30 days per currency (refunds subtracted), MRR, active and past-due subscriptions, new members, recent sales and failed renewals.', ...read },
  { name: 'list_emails', method: 'GET', path: '/emails', description: 'List the mail sent or queued for the brand (receipts, notices), newest first, with each one\'s delivery status.', ...read },
  { name: 'get_email', method: 'GET', path: '/emails/:id', description: 'Get one email: its text and HTML parts, headers and the log of its sending tries.', ...read },
];
