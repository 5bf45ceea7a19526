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
  await tx.query(
    `INSERT INTO catalog_versions (brand_id, version) VALUES ($1, 1)
     ON CONFLICT (brand_id) DO UPDATE SET version = catalog_versions.version + 1`,
    [brandId],
    'catalog_changed',
  );
  await tx.query('SELECT pg_notify($1, $2)', [catalogChannel, brandId], 'notify_catalog_changed');
}

/** The brand's catalog version: 0 before its first catalog write. */
export async function catalogVersion(db: Queryable, brandId: string): Promise<number> {
  const [row] = await db.query<{ version: number | string }>('SELECT version FROM catalog_versions WHERE brand_id = $1', [brandId]);
  return row ? Number(row.version) : 0;
}
