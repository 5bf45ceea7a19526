import { scopes, type Scope } from '../auth/principal.ts';

/**
 * What each scope lets an app do, in the words the consent screen and the docs use; the
 * dashboard's key form says the same of keys (packages/dashboard/.../developers/scopes.ts), and
 * scopes.test.ts keeps both lists to the API's scopes. A scope counts as a write scope when its
 * name ends in `:write`.
 */
const words: Partial<Record<string, string>> = {
  'products:read': 'See your products and hubs',
  'products:write': 'Create and change products and hubs',
  'customers:read': 'See your members and customers',
  'customers:write': 'Add, import and remove members and customers',
  'checkout:write': 'Create payment links and verify payments',
  'transactions:read': 'See your transactions and payouts',
  'transactions:write': 'Refund payments (money goes back to buyers, and a full refund ends the access it bought)',
  // Events and the delivery log hold members' names and emails: the words say so.
  'webhooks:write': 'Manage webhooks, see events and deliveries (with members\' names and emails), resend and send test events',
};

export const scopeWords = (scope: string) => words[scope] ?? scope;
export const isWriteScope = (scope: string) => scope.endsWith(':write');

/** Scopes an app may be granted: every API scope. offline_access (a refresh token) is asked beside them. */
export const grantableScopes = [...scopes] as Scope[];
export const requestableScopes = [...grantableScopes, 'offline_access'];

/** What a client that asks for no scope gets: the read scopes (docs/oauth-mcp.md). */
export const readScopes = grantableScopes.filter((s) => !isWriteScope(s));
export const defaultScopes = readScopes;
