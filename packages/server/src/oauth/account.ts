import type { Mode } from '../auth/principal.ts';

/**
 * What a grant is for, kept in oidc-provider's `accountId` (the one free field every grant and
 * token carries): the brand, the mode the creator chose on the consent screen, and the person
 * who consented. Ids are base64url, so a dot cannot occur inside one.
 */
export interface GrantAccount {
  brandId: string;
  mode: Mode;
  userId: string;
}

export const accountIdOf = (a: GrantAccount) => `${a.brandId}.${a.mode}.${a.userId}`;

export function parseAccountId(accountId: unknown): GrantAccount | undefined {
  if (typeof accountId !== 'string') return undefined;
  const [brandId, mode, userId, ...rest] = accountId.split('.');
  if (rest.length || !brandId || !userId || (mode !== 'test' && mode !== 'live')) return undefined;
  return { brandId, mode, userId };
}
