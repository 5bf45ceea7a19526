/**
 * What the OpenAPI document and the MCP tool list say about this folder's operations beyond their
 * schemas (http/operation.ts): each route passes its entry as `config.operation`.
 */
import { readTool, type Operation } from '../http/operation.ts';

/** GET /events */
export const listEvents: Operation = {
  id: 'listEvents',
  inputShapes: { type: 'EventType' },
  sdk: "for await (const event of client.events.list({ type: 'transaction.succeeded' })) {\n  console.log(event.id, event.created);\n}",
  mcp: {
    name: 'list_events',
    description: 'List events (what happened), newest first (page with cursor).',
    ...readTool
  }
};

/** GET /events/{id} */
export const getEvent: Operation = {
  id: 'getEvent',
  sdk: "const event = await client.events.get('evt_…');",
  mcp: { name: 'get_event', description: 'Get one event.', ...readTool }
};
