import { randomFillSync } from 'node:crypto';

/** Opaque, random, URL-safe identifiers with a type prefix (DESIGN.md, Data). */
export type IdPrefix =
  | 'brand' | 'key' | 'hub' | 'prod' | 'tier' | 'item' | 'mem' | 'txn' | 'evt' | 'we' | 'whd' | 'imp' | 'plink' | 'sub' | 'po'
  | 'usr' | 'ses' | 'inv' | 'pwr' | 'rfd' | 'msg' | 'clink'
  | 'evf'
  | 'cpn'
  | 'aff' | 'com'
  | 'bkg';

// Random bytes are drawn from the system 4 KB at a time: one call per id cost a system call each,
// which showed in every request's id.
const pool = Buffer.alloc(4096);
let used = pool.length;

/** `bytes` fresh random bytes (at most 4096) as base64url. */
export function randomToken(bytes: number): string {
  if (used + bytes > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  const token = pool.toString('base64url', used, used + bytes);
  used += bytes;
  return token;
}

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomToken(15)}`;
}

/** `n` ids as newId makes them: bulk writes (imports) make thousands at once. */
export function newIds(prefix: IdPrefix, n: number): string[] {
  return Array.from({ length: n }, () => newId(prefix));
}

/**
 * What a filter by id (`?endpointID=`, `?resourceID=`, …) accepts: visible ASCII without spaces,
 * up to 200 characters. Ours and txrefs all fit; anything else can match nothing and is a mistake
 * worth a 400 that names it.
 */
export const idFilterShape = /^[\x21-\x7e]{1,200}$/;

/**
 * A customer's id, as SQL: `cus_` and the md5 of brand, mode and the email in lower case. It is
 * a digest rather than a row's id so that no customers table has to be written on the checkout
 * path; md5 because it takes text, is immutable and is the same in PGlite and PostgreSQL (it
 * names, it does not protect: only the brand that knows the email ever sees the id).
 */
export function customerIdSql(brand: string, mode: string, email: string): string {
  return `'cus_' || md5(${brand} || '/' || ${mode} || '/' || lower(${email}))`;
}
