/**
 * What the OpenAPI document and the MCP tool list say about this folder's operations beyond their
 * schemas (http/operation.ts): each route passes its entry as `config.operation`.
 */
import { readTool, type Operation } from '../http/operation.ts';

/** GET /hubs */
export const listHubs: Operation = {
  id: 'listHubs',
  sdk: 'for await (const hub of client.hubs.list()) {\n  console.log(hub.id, hub.name);\n}',
  mcp: {
    name: 'list_hubs',
    description: "List the brand's membership hubs, newest first, without their tiers (page with cursor; get_hub has the tiers).",
    ...readTool
  }
};

/** GET /hubs/{id} */
export const getHub: Operation = {
  id: 'getHub',
  sdk: "const hub = await client.hubs.get('hub_…');\nconsole.log(hub.tiers.map((tier) => tier.name));",
  mcp: {
    name: 'get_hub',
    description: 'Get one membership hub with its tiers (its plans), archived ones included.',
    ...readTool
  }
};

/** POST /hubs */
export const createHub: Operation = {
  id: 'createHub',
  sdk: 'const hub = await client.hubs.create({\n' +
    "  name: 'Studio Club',\n" +
    '  tiers: [\n' +
    "    { name: 'Free member', price: { amount: 0, currency: 'USD' } },\n" +
    "    { name: 'Pro member', price: { amount: 12, currency: 'USD' }, recurrence: { periodic: 'monthly' } },\n" +
    '  ],\n' +
    '});',
  body: {
    name: 'Studio Club',
    tiers: [
      { name: 'Free member', price: { amount: 0, currency: 'USD' } },
      { name: 'Pro member', price: { amount: 12, currency: 'USD' }, recurrence: { periodic: 'monthly' } }
    ]
  },
  mcp: {
    name: 'create_hub',
    description: 'Create a membership hub with its tiers (free, one-off or recurring plans); answers the hub as get_hub does. The catalog is shared by test and live mode: this changes what live buyers see.'
  }
};

/** PATCH /hubs/{id} */
export const updateHub: Operation = {
  id: 'updateHub',
  sdk: "const hub = await client.hubs.update('hub_…', { description: 'Painting together, weekly.' });",
  body: { description: 'Painting together, weekly.' },
  mcp: {
    name: 'update_hub',
    description: 'Change a membership hub: only the fields given change; tiers, when given, is the whole list (left-out tiers are deleted, or archived if ever sold); get the hub first. The catalog is shared by test and live mode: this changes what live buyers see.',
    destructive: true,
    idempotent: true
  }
};
