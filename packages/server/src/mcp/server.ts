import { createMcpHandler, fromJsonSchema, McpServer, type AuthInfo } from '@modelcontextprotocol/server';
import type { Principal } from '../auth/principal.ts';
import type { App } from '../http/app-type.ts';
import { leanInputSchema, leanOutputSchema, missingScope, type ToolRoute } from './catalog.ts';
import { confirmRefund } from './confirm.ts';

/**
 * The MCP endpoint's handler: stateless (a fresh server per request, so any process answers any
 * client), speaking the 2026-07-28 revision and, through the SDK's stateless legacy leg, the
 * 2025-era revisions. Each request's server lists only the tools the token's scopes allow; a
 * tool runs its REST route with the caller's own token (app.inject), so the route opens the
 * transaction, checks the scope and validates exactly as it does for REST.
 */
export function mcpHandler(app: App, tools: () => ToolRoute[]) {
  return createMcpHandler(({ authInfo }) => {
    const principal = authInfo?.extra?.principal as Principal | undefined;
    // The lean profile (docs/oauth-mcp.md): smaller schemas, the same tools and results.
    const lean = authInfo?.extra?.profile === 'lean';
    const server = new McpServer({ name: 'creator-commerce', version: '0.1.0' }, {
      instructions: 'Acts on one creator\'s store (products, members, customers, payments, webhooks) within the permissions the creator granted. Money amounts are decimal numbers in the currency given.',
    });
    for (const tool of tools()) {
      if (!principal || missingScope(tool, principal)) continue;
      const { spec } = tool;
      server.registerTool(spec.name, {
        description: spec.description,
        inputSchema: fromJsonSchema(lean ? leanInputSchema(tool.input) : tool.input),
        ...(tool.output ? { outputSchema: fromJsonSchema(lean ? leanOutputSchema(tool.output) : tool.output) } : {}),
        // destructiveHint and idempotentHint mean something only for a tool that writes (MCP's spec).
        annotations: spec.readOnly
          ? { readOnlyHint: true, openWorldHint: !!spec.openWorld }
          : { readOnlyHint: false, destructiveHint: !!spec.destructive, idempotentHint: !!spec.idempotent, openWorldHint: !!spec.openWorld },
      }, async (args: unknown, ctx) => {
        const input = (args ?? {}) as Record<string, unknown>;
        if (spec.name !== 'refund_transaction') return runTool(app, tool, input, authInfo!);
        // Money leaves: a client that can ask its user does so first, naming the amount (confirm.ts).
        const confirmation = await confirmRefund(app, authInfo!, ctx, input);
        if (confirmation.kind === 'answer') return confirmation.result as Awaited<ReturnType<typeof runTool>>;
        return runTool(app, tool, confirmation.kind === 'proceed' ? { ...input, amount: confirmation.amount } : input, authInfo!);
      });
    }
    return server;
  }, { legacy: 'stateless' });
}

async function runTool(app: App, tool: ToolRoute, args: Record<string, unknown>, authInfo: AuthInfo) {
  const { spec } = tool;
  const { idempotencyKey, ...rest } = args;
  const path = spec.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = rest[name];
    delete rest[name];
    return encodeURIComponent(String(value ?? ''));
  });
  const isRead = spec.method === 'GET';
  const query = isRead ? new URLSearchParams(Object.entries(rest).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)])).toString() : '';
  const res = await app.inject({
    method: spec.method,
    url: `/api/v1${path}${query ? `?${query}` : ''}`,
    headers: {
      authorization: `Bearer ${authInfo.token}`,
      ...(isRead || spec.method === 'DELETE' ? {} : { 'content-type': 'application/json' }),
      ...(!isRead && typeof idempotencyKey === 'string' ? { 'idempotency-key': idempotencyKey } : {}),
    },
    ...(isRead || spec.method === 'DELETE' ? {} : { payload: JSON.stringify(rest) }),
  });
  const envelope = JSON.parse(res.body) as { status: string; message: string; data: unknown };
  if (res.statusCode >= 400) {
    const details = (envelope.data as { details?: { field?: string; message: string }[] } | null)?.details;
    const why = details?.length ? ` ${details.map((d) => (d.field ? `${d.field}: ${d.message}` : d.message)).join('; ')}` : '';
    return { isError: true, content: [{ type: 'text' as const, text: `${envelope.message}${why}` }] };
  }
  const data = envelope.data as Record<string, unknown>;
  return {
    content: [{ type: 'text' as const, text: JSON.stringify(data) }],
    ...(tool.output ? { structuredContent: data } : {}),
  };
}
