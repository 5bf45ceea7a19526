import type { Queryable } from '../db/client.ts';

export type Plan = 'free' | 'plus';

export interface BrandRow {
  id: string;
  name: string;
  plan: Plan;
}

export async function insertBrand(db: Queryable, b: BrandRow): Promise<BrandRow> {
  const [row] = await db.query<BrandRow>('INSERT INTO brands (id, name, plan) VALUES ($1, $2, $3) RETURNING id, name, plan', [b.id, b.name, b.plan]);
  return row;
}

export async function findBrand(db: Queryable, id: string): Promise<BrandRow | undefined> {
  const [row] = await db.query<BrandRow>('SELECT id, name, plan FROM brands WHERE id = $1', [id]);
  return row;
}

/** Every brand's id, for work that goes brand by brand (retention). */
export async function allBrandIds(db: Queryable): Promise<string[]> {
  return (await db.query<{ id: string }>('SELECT id FROM brands ORDER BY id')).map((r) => r.id);
}
