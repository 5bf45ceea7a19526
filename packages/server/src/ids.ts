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

/**
 * Ids of the delivery log's rows (events, deliveries: migration 037) carry the UTC day of the row's
 * created_at, which is its partition: the first 8 of their 20 characters are YYYYMMDD, the other
 * 12 random (9 bytes, 72 bits: an id is unique per brand and day, and the primary key refuses the
 * one-in-2^36 collision among billions). GET by id and every update by id then name the day and
 * touch one partition. The day must be the database's (the clock created_at comes from), so an
 * event's id is finished in its INSERT (events/repository.ts) from `datedIdTail`; a delivery's is
 * made from its event's created_at, which the database returned.
 */
export function datedId(prefix: 'evt' | 'whd', day: Date): string {
  return `${prefix}_${dayStamp(day)}${datedIdTail()}`;
}

/** The random part of a dated id. */
export const datedIdTail = () => randomToken(9);

/** A day as dated ids and partition names spell it: YYYYMMDD, in UTC. */
export const dayStamp = (at: Date) => at.toISOString().slice(0, 10).replaceAll('-', '');

/**
 * The UTC day a dated id names, as [start, end), or undefined for an id that names none: ids made
 * before migration 037 are 20 random characters. One of those whose first 8 happen to spell a
 * date from 2020 on (about one in ten billion) is looked for on that day only, and not found.
 */
export function dayOfId(id: string): { from: Date; to: Date } | undefined {
  const m = /^[a-z]+_(20[2-9]\d)(\d\d)(\d\d)[A-Za-z0-9_-]{12}$/.exec(id);
  if (!m) return undefined;
  const from = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  if (Number.isNaN(from.getTime()) || dayStamp(from) !== `${m[1]}${m[2]}${m[3]}`) return undefined;
  return { from, to: new Date(from.getTime() + 86_400_000) };
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
