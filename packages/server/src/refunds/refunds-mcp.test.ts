import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { loadCatalog } from '../catalog/load.ts';
import { cards, courseBody } from '../testing/checkout-fixtures.ts';
import { exampleCatalogPath } from '../cli/commands.ts';
import { startOAuthServer, type OAuthTestServer } from '../testing/oauth.ts';
import { connectAssistant } from '../testing/mcp-assistant.ts';

/**
 * The refund_transaction MCP tool (docs/refunds.md): offered only with transactions:write,
 * annotated as destructive, running the real route (so its refusals are the route's), and
 * attributed to the app. Through the full OAuth flow, as an assistant connects.
 */
let s: OAuthTestServer;
before(async () => { s = await startOAuthServer(); });
after(async () => { await s.close(); });

describe('the refund_transaction MCP tool', () => {
  it('is offered with transactions:write only, marked destructive, and refunds through the route', async () => {
    const { cookie, brandId } = await s.signUp('plus');
    const ids = await s.db.transaction((tx) => loadCatalog(tx, brandId, JSON.parse(readFileSync(exampleCatalogPath, 'utf8'))));

    const reader = await connectAssistant(s, cookie, { name: 'Refund Assistant', scopes: ['transactions:read'] });
    assert.ok(!(await reader.listTools()).tools.some((t) => t.name === 'refund_transaction'));
    await reader.close();

    const client = await connectAssistant(s, cookie, { name: 'Refund Assistant', scopes: ['transactions:read', 'transactions:write', 'checkout:write'] });
    const tool = (await client.listTools()).tools.find((t) => t.name === 'refund_transaction')!;
    assert.ok(tool, 'offered with transactions:write');
    assert.equal(tool.annotations?.destructiveHint, true);
    assert.equal(tool.annotations?.readOnlyHint, false);
    assert.match(tool.description ?? '', /confirmation/);
    assert.deepEqual(Object.keys((tool.inputSchema as { properties: object }).properties).sort(), ['amount', 'id', 'idempotencyKey', 'reason', 'revokeAccess']);

    const link = await client.callTool({ name: 'create_payment_link', arguments: courseBody(ids) });
    const { link: url } = link.structuredContent as { link: string };
    const paid = await s.app.inject({ method: 'POST', url: `${new URL(url).pathname}/pay`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ card: cards.ok }).toString() });
    assert.ok(paid.statusCode < 400, paid.body);
    const [{ txref }] = await s.db.query<{ txref: string }>('SELECT txref FROM transactions WHERE brand_id = $1 AND status = \'succeeded\'', [brandId]);

    const over = await client.callTool({ name: 'refund_transaction', arguments: { id: txref, amount: 100 } });
    assert.equal(over.isError, true);
    assert.match((over.content as { text: string }[])[0].text, /amount: is more than the 39\.50 USD left/);

    const once = { id: txref, amount: 5, reason: 'Goodwill', idempotencyKey: 'mcp-refund-1' };
    const first = await client.callTool({ name: 'refund_transaction', arguments: once });
    const again = await client.callTool({ name: 'refund_transaction', arguments: once });
    assert.equal(first.isError, undefined);
    assert.deepEqual(again.structuredContent, first.structuredContent, 'a retry with the same key refunds once');
    assert.equal((first.structuredContent as { refundedAmount: number }).refundedAmount, 5);
    const [refunds] = await s.db.query<{ n: number; app: string | null }>(
      `SELECT count(*)::int AS n, max(e.app_id) AS app FROM refunds r
       JOIN events e ON e.brand_id = r.brand_id AND e.type = 'transaction.refunded' WHERE r.brand_id = $1`, [brandId]);
    assert.equal(refunds.n, 1);
    assert.ok(refunds.app, 'transaction.refunded names the app that asked');
    await client.close();
  });

  it('asks a client that supports elicitation to confirm, naming the amount, and refunds only what was confirmed', async () => {
    const { cookie, brandId } = await s.signUp('plus');
    const ids = await s.db.transaction((tx) => loadCatalog(tx, brandId, JSON.parse(readFileSync(exampleCatalogPath, 'utf8'))));
    const asked: string[] = [];
    let reply: 'accept' | 'decline' = 'decline';
    const client = await connectAssistant(s, cookie, { name: 'Refund Assistant', scopes: ['transactions:read', 'transactions:write', 'checkout:write'], answer: (message) => {
      asked.push(message);
      return reply === 'accept' ? { action: 'accept', content: { confirm: true } } : { action: 'decline' };
    } });
    const link = await client.callTool({ name: 'create_payment_link', arguments: courseBody(ids) });
    const { link: url } = link.structuredContent as { link: string };
    const paid = await s.app.inject({ method: 'POST', url: `${new URL(url).pathname}/pay`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ card: cards.ok }).toString() });
    assert.ok(paid.statusCode < 400, paid.body);
    const [{ txref }] = await s.db.query<{ txref: string }>('SELECT txref FROM transactions WHERE brand_id = $1 AND status = \'succeeded\'', [brandId]);

    const declined = await client.callTool({ name: 'refund_transaction', arguments: { id: txref } });
    assert.equal(asked.length, 1);
    assert.match(asked[0], new RegExp(`^Refund 39\\.50 USD to Ada Lovelace \\(ada@example\\.com\\) on ${txref}\\?`));
    assert.match(asked[0], /cannot be undone; the access the payment bought ends/);
    assert.equal(declined.isError, true);
    assert.match((declined.content as { text: string }[])[0].text, /Not refunded: the user did not confirm the refund of 39\.50 USD/);
    const [none] = await s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM refunds WHERE brand_id = $1', [brandId]);
    assert.equal(none.n, 0, 'declined: nothing was asked of the provider');

    reply = 'accept';
    const partial = await client.callTool({ name: 'refund_transaction', arguments: { id: txref, amount: 12.25, reason: 'Goodwill' } });
    assert.equal(partial.isError, undefined, JSON.stringify(partial.content));
    assert.match(asked[1], /^Refund 12\.25 USD to Ada Lovelace/);
    assert.doesNotMatch(asked[1], /access/, 'a partial refund keeps access by default, and the question says nothing of it');
    assert.equal((partial.structuredContent as { refundedAmount: number }).refundedAmount, 12.25);

    const rest = await client.callTool({ name: 'refund_transaction', arguments: { id: txref } });
    assert.match(asked[2], /^Refund 27\.25 USD/, 'without an amount, the question names what is left');
    assert.equal((rest.structuredContent as { status: string; refundedAmount: number }).refundedAmount, 39.5);
    assert.equal((rest.structuredContent as { status: string }).status, 'refunded');
    await client.close();
  });
});
