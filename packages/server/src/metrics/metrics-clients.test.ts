import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@creator-commerce/sdk';
import { createKey, createTransaction } from '../testing/factories.ts';
import { startOAuthServer, type OAuthTestServer } from '../testing/oauth.ts';
import { connectAssistant } from '../testing/mcp-assistant.ts';

/** GET /metrics/summary through the official SDK and through the MCP tool an assistant calls: the same numbers. */
let s: OAuthTestServer;
before(async () => { s = await startOAuthServer(); });
after(async () => { await s.close(); });

describe('the metrics summary in the SDK and MCP', () => {
  it('answers the same numbers to client.metrics.summary() and the get_metrics_summary tool', async () => {
    const { cookie, brandId } = await s.signUp('plus');
    await createTransaction(s.db, { brandId, amount: 4200, currency: 'EUR' });
    await createTransaction(s.db, { brandId, amount: 1000, currency: 'EUR', mode: 'live' });
    const { key } = await createKey(s.db, brandId, { mode: 'test', scopes: ['transactions:read'] });

    const summary = await new Client({ apiKey: key, baseUrl: `${s.url}/api/v1` }).metrics.summary();
    assert.deepEqual(summary.revenue.map((r) => [r.currency, r.today.net, r.today.sales]), [['EUR', 42, 1]], 'test mode only, in its own currency');

    const assistant = await connectAssistant(s, cookie, { name: 'Numbers Assistant', scopes: ['transactions:read'], redirectUrl: 'http://127.0.0.1:33419/callback' });
    const tool = (await assistant.listTools()).tools.find((t) => t.name === 'get_metrics_summary');
    assert.ok(tool, 'offered with transactions:read');
    assert.equal(tool.annotations?.readOnlyHint, true);
    const called = await assistant.callTool({ name: 'get_metrics_summary', arguments: {} });
    assert.equal(called.isError, undefined);
    const viaMcp = called.structuredContent as typeof summary;
    assert.deepEqual(viaMcp.revenue, summary.revenue);
    assert.deepEqual(viaMcp.recentSales.map((t) => t.txref), summary.recentSales.map((t) => t.txref));
    await assistant.close();
  });
});
