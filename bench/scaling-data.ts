/**
 * Rows for the scaling benchmark, made in the database with set-based SQL (generate_series), so a
 * million products or members take seconds. They respect the schema's constraints and look like
 * the app's own: ids are a type prefix and 20 URL-safe characters (hex, a subset of newId's
 * alphabet), created_at is whole milliseconds, one second apart, newest first by number.
 */
import type { Db, Queryable } from '../packages/server/src/db/client.ts';
import { catalogChanged } from '../packages/server/src/catalog-cache/version.ts';

/** Row n of a list was created n seconds before this; later batches extend the list into the past. */
export const newestAt = new Date(Math.floor(Date.now() / 1000) * 1000);

const id = (prefix: string, seed: string) => `'${prefix}_' || substr(md5(${seed}), 1, 20)`;

/** Products numbered from..to of one brand; drops the brand's cached catalog like any catalog write. */
export async function addProducts(db: Db, brandId: string, from: number, to: number): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO products (brand_id, id, type, status, title, description, visibility, is_free, keywords, created_at, updated_at)
       SELECT $1, ${id('prod', '$1 || i')}, 'digital', 'published', 'Product ' || i, 'A product made for the benchmark.', 'public', false,
              ARRAY['bench'], t.at, t.at
       FROM generate_series($2::int, $3::int) AS i, LATERAL (SELECT $4::timestamptz - i * interval '1 second' AS at) AS t`,
      [brandId, from, to, newestAt],
    );
    await catalogChanged(tx, brandId);
  });
}

/** `count` more brands with `perBrand` products each; returns their ids. */
export async function addBrandsWithProducts(db: Queryable, count: number, perBrand: number): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `INSERT INTO brands (id, name, plan)
     SELECT ${id('brand', "'filler' || b")}, 'Brand ' || b, 'free' FROM generate_series(1, $1::int) AS b
     RETURNING id`,
    [count],
  );
  await db.query(
    `INSERT INTO products (brand_id, id, type, status, title, description, visibility, is_free, keywords, created_at, updated_at)
     SELECT b.id, ${id('prod', 'b.id || i')}, 'digital', 'published', 'Product ' || i, 'A product made for the benchmark.', 'public', false,
            ARRAY['bench'], t.at, t.at
     FROM unnest($1::text[]) AS b(id), generate_series(1, $2::int) AS i,
          LATERAL (SELECT $3::timestamptz - i * interval '1 second' AS at) AS t`,
    [rows.map((r) => r.id), perBrand, newestAt],
  );
  return rows.map((r) => r.id);
}

/** Active test-mode members numbered from..to of a hub, on one plan (tier). */
export async function addMembers(db: Queryable, brandId: string, hubId: string, plan: string, from: number, to: number): Promise<void> {
  await db.query(
    `INSERT INTO memberships (brand_id, id, mode, hub_id, name, email, status, plan, joined_at, created_at, updated_at)
     SELECT $1, ${id('mem', '$2 || i')}, 'test', $2, 'Member ' || i, 'member' || i || '@example.com', 'active', $3, t.at, t.at, t.at
     FROM generate_series($4::int, $5::int) AS i, LATERAL (SELECT $6::timestamptz - i * interval '1 second' AS at) AS t`,
    [brandId, hubId, plan, from, to, newestAt],
  );
}

/** Paid test-mode payment links for a tier (what the "was this tier sold" check also reads). */
export async function addPaymentLinks(db: Queryable, brandId: string, hubId: string, tierId: string, count: number): Promise<void> {
  await db.query(
    `INSERT INTO payment_links (brand_id, id, mode, status, resource_id, purchases, line_items, amount, currency, buyer_name, buyer_email, created_at, updated_at)
     SELECT $1, ${id('plink', '$3 || i')}, 'test', 'completed', $2,
            jsonb_build_array(jsonb_build_object('productId', null, 'hubId', $2::text, 'tierId', $3::text, 'count', 1)),
            '[]'::jsonb, 500, 'USD', 'Buyer ' || i, 'buyer' || i || '@example.com', t.at, t.at
     FROM generate_series(1, $4::int) AS i, LATERAL (SELECT $5::timestamptz - i * interval '1 second' AS at) AS t`,
    [brandId, hubId, tierId, count, newestAt],
  );
}

/** The cursor the API would hand out after the row at `position` (1 = newest) of a list. */
export async function cursorAt(db: Queryable, list: string, sql: string, params: unknown[], position: number): Promise<string> {
  const [row] = await db.query<{ created_at: Date; id: string }>(`${sql} ORDER BY created_at DESC, id DESC OFFSET $${params.length + 1} LIMIT 1`, [...params, position - 1]);
  if (!row) throw new Error(`no row at position ${position} of ${list}`);
  return Buffer.from(JSON.stringify(['v1', list, row.created_at.getTime(), row.id])).toString('base64url');
}
