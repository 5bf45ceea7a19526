/**
 * What the OpenAPI document and the MCP tool list say about this folder's operations beyond their
 * schemas (http/operation.ts): each route passes its entry as `config.operation`.
 */
import { readTool, type Operation } from '../http/operation.ts';

/** POST /checkout-links */
export const createCheckoutLink: Operation = {
  id: 'createCheckoutLink',
  sdk: "const { url } = await client.checkoutLinks.create({\n  items: [{ id: 'prod_…', plan: 'tier_…' }],\n  name: 'Instagram bio',\n  maxSales: 100,\n});",
  body: { items: [{ id: 'prod_…', plan: 'tier_…' }], name: 'Instagram bio', maxSales: 100 },
  mcp: {
    name: 'create_checkout_link',
    description: 'Create a reusable checkout link for one or more tiers (any number of buyers; the buyer picks a tier), optionally with add-ons ticked in advance, an amount range for pay-what-you-want tiers, a preset coupon, an expiry and a sales cap; returns the URL to share.'
  }
};

/** GET /checkout-links */
export const listCheckoutLinks: Operation = {
  id: 'listCheckoutLinks',
  sdk: "for await (const link of client.checkoutLinks.list({ tier: 'tier_…' })) {\n  console.log(link.url, link.sales);\n}",
  mcp: {
    name: 'list_checkout_links',
    description: 'List checkout links with their sales, newest first (page with cursor; filter by tier).',
    ...readTool
  }
};

/** GET /checkout-links/{id} */
export const getCheckoutLink: Operation = {
  id: 'getCheckoutLink',
  sdk: "const link = await client.checkoutLinks.get('clink_…');",
  mcp: { name: 'get_checkout_link', description: 'Get one checkout link with its sales.', ...readTool }
};

/** PATCH /checkout-links/{id} */
export const updateCheckoutLink: Operation = {
  id: 'updateCheckoutLink',
  sdk: "const link = await client.checkoutLinks.update('clink_…', { status: 'disabled' });",
  body: { status: 'disabled' },
  mcp: {
    name: 'update_checkout_link',
    description: 'Change a checkout link: disable it, move its expiry, change its sales cap, coupon or tiers (items, with their preselected add-ons and amount ranges, is the whole list).',
    destructive: true,
    idempotent: true
  }
};
