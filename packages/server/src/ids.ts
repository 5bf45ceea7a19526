import { randomBytes } from 'node:crypto';

/** Opaque, random, URL-safe identifiers with a type prefix (DESIGN.md, Data). */
export type IdPrefix =
  | 'brand' | 'key' | 'hub' | 'prod' | 'tier' | 'item' | 'mem' | 'txn' | 'evt' | 'we' | 'whd' | 'imp' | 'plink' | 'sub' | 'po'
  | 'usr' | 'ses' | 'inv' | 'pwr';

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBytes(15).toString('base64url')}`;
}
