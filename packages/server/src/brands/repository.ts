import type { Queryable } from '../db/client.ts';

export type Plan = 'free' | 'plus';

export interface BrandRow {
  id: string;
  name: string;
  plan: Plan;
}

/** A brand's own request budgets (requests per second per key); null means the server default. */
export interface BrandRateLimits {
  rate_limit_live: number | null;
  rate_limit_test: number | null;
}

export async function insertBrand(db: Queryable, b: BrandRow): Promise<BrandRow> {
  const [row] = await db.query<BrandRow>('INSERT INTO brands (id, name, plan) VALUES ($1, $2, $3) RETURNING id, name, plan', [b.id, b.name, b.plan]);
  return row;
}

export async function findBrand(db: Queryable, id: string): Promise<BrandRow | undefined> {
  const [row] = await db.query<BrandRow>('SELECT id, name, plan FROM brands WHERE id = $1', [id]);
  return row;
}

export async function findRateLimits(db: Queryable, id: string): Promise<BrandRateLimits | undefined> {
  const [row] = await db.query<BrandRateLimits>('SELECT rate_limit_live, rate_limit_test FROM brands WHERE id = $1', [id], 'brand_rate_limits');
  return row;
}

export async function setPlan(db: Queryable, id: string, plan: Plan): Promise<BrandRow | undefined> {
  const [row] = await db.query<BrandRow>('UPDATE brands SET plan = $2 WHERE id = $1 RETURNING id, name, plan', [id, plan]);
  return row;
}

/** Sets the brand's budgets; undefined leaves one as it is, null returns it to the server default. */
export async function setRateLimits(db: Queryable, id: string, limits: { live?: number | null; test?: number | null }): Promise<(BrandRow & BrandRateLimits) | undefined> {
  const [row] = await db.query<BrandRow & BrandRateLimits>(
    `UPDATE brands SET rate_limit_live = CASE WHEN $2 THEN $3::integer ELSE rate_limit_live END,
                       rate_limit_test = CASE WHEN $4 THEN $5::integer ELSE rate_limit_test END
     WHERE id = $1 RETURNING id, name, plan, rate_limit_live, rate_limit_test`,
    [id, limits.live !== undefined, limits.live ?? null, limits.test !== undefined, limits.test ?? null],
  );
  return row;
}

/** Every brand's id, for work that goes brand by brand (retention). */
export async function allBrandIds(db: Queryable): Promise<string[]> {
  return (await db.query<{ id: string }>('SELECT id FROM brands ORDER BY id')).map((r) => r.id);
}
