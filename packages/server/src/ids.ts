import { randomBytes } from 'node:crypto';

/** Opaque, random, URL-safe identifiers with a type prefix (DESIGN.md, Data). */
export type IdPrefix =
  | 'brand' | 'key' | 'hub' | 'prod' | 'tier' | 'item' | 'mem' | 'txn' | 'evt' | 'we' | 'whd' | 'imp' | 'plink' | 'sub' | 'po'
  | 'usr' | 'ses' | 'inv' | 'pwr';

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBytes(15).toString('base64url')}`;
}

/**
 * `n` ids as newId makes them, from one call for random bytes: bulk writes (imports) make
 * thousands at once, and a call per id cost them more than their SQL did.
 */
export function newIds(prefix: IdPrefix, n: number): string[] {
  const bytes = randomBytes(15 * n);
  const ids = new Array<string>(n);
  for (let i = 0; i < n; i++) ids[i] = `${prefix}_${bytes.toString('base64url', 15 * i, 15 * i + 15)}`;
  return ids;
}

/**
 * What a filter by id (`?endpointID=`, `?resourceID=`, …) accepts: visible ASCII without spaces,
 * up to 200 characters. Ours and txrefs all fit; anything else can match nothing and is a mistake
 * worth a 400 that names it.
 */
export const idFilterShape = /^[\x21-\x7e]{1,200}$/;
