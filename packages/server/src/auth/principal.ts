import type { Mode } from '../http/shapes.ts';
/** Every scope a key or token can hold. The reference names these; it does not promise the list is complete. */
export const scopes = [
  'products:read',
  'products:write',
  'customers:read',
  'customers:write',
  'checkout:write',
  'transactions:read',
  'transactions:write',
  'webhooks:write',
] as const;

export type Scope = (typeof scopes)[number];

export const isScope = (s: string): s is Scope => (scopes as readonly string[]).includes(s);

export type { Mode };

/**
 * Who is calling, resolved once per request by one of auth/'s resolvers: an API key today; an
 * OAuth access token (third-party apps, MCP) and a dashboard session plug in beside it. Services
 * see only this, never how it was proven.
 */
export interface Principal {
  brandId: string;
  mode: Mode;
  scopes: Scope[];
  via: 'api_key' | 'oauth' | 'session';
  /** The API key, when via is api_key. */
  keyId?: string;
  /** The OAuth app, when via is oauth. */
  appId?: string;
  /** The person: the dashboard user (session), or the user who granted the app (oauth). */
  userId?: string;
  /** The brand's own request budget for this mode (requests per second), when it has one. */
  rateLimit?: number;
}

/** The OAuth app a request came through, for attribution (docs/oauth-mcp.md), or null. */
export const appOf = (p: Principal): string | null => (p.via === 'oauth' ? p.appId ?? null : null);
