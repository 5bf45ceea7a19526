/**
 * What the OpenAPI document and the MCP tool list say about this folder's operations beyond their
 * schemas (http/operation.ts): each route passes its entry as `config.operation`.
 */
import { readTool, type Operation } from '../http/operation.ts';

/** GET /metrics/summary */
export const getMetricsSummary: Operation = {
  id: 'getMetricsSummary',
  sdk: 'const summary = await client.metrics.summary();\nfor (const r of summary.revenue) console.log(r.currency, r.last30Days.net);',
  mcp: {
    name: 'get_metrics_summary',
    description: "Get the brand's numbers: revenue today, in 7 and 30 days per currency (refunds subtracted), MRR, active and past-due subscriptions, new members, recent sales and failed renewals.",
    ...readTool
  }
};
