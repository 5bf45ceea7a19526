/**
 * What the OpenAPI document and the MCP tool list say about this folder's operations beyond their
 * schemas (http/operation.ts): each route passes its entry as `config.operation`.
 */
import { readTool, type Operation } from '../http/operation.ts';

/** POST /coupons */
export const createCoupon: Operation = {
  id: 'createCoupon',
  sdk: 'const coupon = await client.coupons.create({\n' +
    "  code: 'SPRING20',\n" +
    '  percentOff: 20,\n' +
    "  endsAt: '2026-06-01T00:00:00Z',\n" +
    '  maxRedemptions: 100,\n' +
    '  maxPerCustomer: 1,\n' +
    '});',
  body: { code: 'SPRING20', percentOff: 20, endsAt: '2026-06-01T00:00:00Z', maxRedemptions: 100, maxPerCustomer: 1 },
  mcp: {
    name: 'create_coupon',
    description: 'Create a coupon: a code buyers type at checkout for percentOff or amountsOff (per currency), optionally limited to products, tiers or hubs, a window, caps and a minimum.'
  }
};

/** GET /coupons */
export const listCoupons: Operation = {
  id: 'listCoupons',
  sdk: "for await (const coupon of client.coupons.list({ status: 'active' })) {\n  console.log(coupon.code, coupon.redemptions);\n}",
  mcp: {
    name: 'list_coupons',
    description: 'List coupons (discount codes) with their uses, newest first (page with cursor; filter by status or code).',
    ...readTool
  }
};

/** GET /coupons/{id} */
export const getCoupon: Operation = {
  id: 'getCoupon',
  sdk: "const coupon = await client.coupons.get('cpn_…');\nconsole.log(coupon.revenue, coupon.recentRedemptions);",
  mcp: {
    name: 'get_coupon',
    description: 'Get one coupon with the revenue its uses brought and its newest uses.',
    ...readTool
  }
};

/** PATCH /coupons/{id} */
export const updateCoupon: Operation = {
  id: 'updateCoupon',
  sdk: "const coupon = await client.coupons.update('cpn_…', { maxRedemptions: 200 });",
  body: { maxRedemptions: 200 },
  mcp: {
    name: 'update_coupon',
    description: "Change a coupon's name, scope, window, caps or minimums (the code and the discount never change).",
    idempotent: true
  }
};

/** DELETE /coupons/{id} */
export const archiveCoupon: Operation = {
  id: 'archiveCoupon',
  sdk: "const coupon = await client.coupons.archive('cpn_…');",
  mcp: {
    name: 'archive_coupon',
    description: 'Archive a coupon: no new buyer can use its code (subscriptions keep their discount; nothing is deleted). Confirm with the user first.',
    destructive: true,
    idempotent: true
  }
};
