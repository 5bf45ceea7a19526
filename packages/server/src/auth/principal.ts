/** Every scope a key or token can hold. The reference names these; it does not promise the list is complete. */
export const scopes = [
  'products:read',
  'customers:read',
  'customers:write',
  'checkout:write',
  'transactions:read',
  'webhooks:write',
] as const;

export type Scope = (typeof scopes)[number];

export const isScope = (s: string): s is Scope => (scopes as readonly string[]).includes(s);

export type Mode = 'test' | 'live';

/** Who is calling: resolved from an API key (or, later, an OAuth token) once per request. */
export interface Principal {
  brandId: string;
  mode: Mode;
  scopes: Scope[];
  via: 'api_key';
  keyId: string;
}
