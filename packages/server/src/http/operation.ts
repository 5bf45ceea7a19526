/**
 * An operation's contract beyond its TypeBox schemas, declared by the route itself in
 * `config.operation` (usually from its domain's `contract.ts`): the OpenAPI document
 * (docs/openapi.ts, through @fastify/swagger's transform) and the MCP tool list (mcp/catalog.ts)
 * both read it from the registered route, so nothing keys an operation by its path string.
 * docs/architecture.md, "How to add an operation", has the shape.
 */
export interface Operation {
  /** The operationId: the SDK's generated types and the docs' pages are keyed by it. */
  id: string;
  /** The SDK call, as the reference page shows it (after `const client = new Client({ apiKey })`). */
  sdk?: string;
  /** A request body for the curl sample, when the body shape carries no `examples` of its own. */
  body?: unknown;
  /**
   * Statuses no rule can see from the route: 404 on a route without a path id that can still miss
   * (a txref in the body, a brand without a test clock). The rest are derived (docs/openapi.ts,
   * `errorStatuses`): auth gives 401/403, a path id 404, a write 409/422, a body 413/415.
   */
  errors?: number[];
  /**
   * Inputs the document shows as a named component instead of their validation shape: a query,
   * path or body field (`[]`: its items) → `EventType` or `ImportRecord` (docs/openapi.ts). The
   * MCP tool lists the event types for the `EventType` ones.
   */
  inputShapes?: Record<string, 'EventType' | 'ImportRecord'>;
  /** The MCP tool that runs this route, if an assistant should have one (mcp/catalog.ts). */
  mcp?: McpTool;
}

/** An MCP tool: its input and output schemas and its scope come from the route it runs. */
export interface McpTool {
  /** snake_case, named for what it does: `list_products`, `refund_transaction`. */
  name: string;
  description: string;
  readOnly?: boolean;
  /** It may change or delete what exists (not only add): MCP's destructiveHint. */
  destructive?: boolean;
  idempotent?: boolean;
  /** It reaches outside this service (a webhook receiver, the payment provider): MCP's openWorldHint. */
  openWorld?: boolean;
  /** Body fields the route takes that an assistant should not fill in (marketing attribution), left out of the tool's input. */
  hiddenInputs?: string[];
}

/** The hints of a tool that only reads. */
export const readTool = { readOnly: true, idempotent: true } as const;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's contract (http/contract.ts); every /api/v1 route declares one. */
    operation?: Operation;
  }
}
