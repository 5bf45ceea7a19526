import type { Queryable } from '../db/client.ts';

/** The channel every catalog write NOTIFYs, with the brand id as the payload. */
export const catalogChannel = 'catalog_changed';

/**
 * Every catalog write calls this in its own transaction (the API's product and hub writes, the
 * CLI's `catalog load`, `seed --demo`, the test factories): it bumps the brand's catalog version
 * and NOTIFYs the brand id, both of which take effect only if the write commits. A process that
 * caches catalog reads (issue 14) drops the brand's entries on the notification and, in case one
 * was missed, compares the version. Owns the catalog_versions table.
 * `catalog/version.test.ts` fails when a new write path leaves this out.
 */
export async function catalogChanged(tx: Queryable, brandId: string): Promise<void> {
  // A Db handle (no transaction: each statement commits alone, as some tests write) has no commit
  // to wait for; its NOTIFY reaches this process's cache as it reaches every other.
  if (!('onCommit' in tx)) {
    const brands = changedIn.get(tx) ?? new Set<string>();
    brands.add(brandId);
    changedIn.set(tx, brands);
  }
  await tx.query(
    `INSERT INTO catalog_versions (brand_id, version) VALUES ($1, 1)
     ON CONFLICT (brand_id) DO UPDATE SET version = catalog_versions.version + 1`,
    [brandId],
    'catalog_changed',
  );
  await tx.query('SELECT pg_notify($1, $2)', [catalogChannel, brandId], 'notify_catalog_changed');
}

/**
 * The brands whose catalog each open transaction changed, so this process's cache can drop them
 * the moment the transaction commits (Db.onCommit), before the writer answers: the NOTIFY reaches
 * this process's listener too, but later than the writer's next request may.
 */
const changedIn = new WeakMap<Queryable, Set<string>>();

/** The brands whose catalog the transaction tx changed (call it once tx has committed). */
export function catalogChangesIn(tx: Queryable): Iterable<string> {
  return changedIn.get(tx) ?? [];
}

/** The brand's catalog version: 0 before its first catalog write. */
export async function catalogVersion(db: Queryable, brandId: string): Promise<number> {
  const [row] = await db.query<{ version: number | string }>('SELECT version FROM catalog_versions WHERE brand_id = $1', [brandId], 'catalog_version');
  return row ? Number(row.version) : 0;
}
