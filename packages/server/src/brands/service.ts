import type { Queryable } from '../db/client.ts';
import { newId } from '../ids.ts';

export type Plan = 'free' | 'plus';

export interface Brand {
  id: string;
  name: string;
  plan: Plan;
}

export async function createBrand(db: Queryable, input: { name: string; plan?: Plan }): Promise<Brand> {
  const [row] = await db.query<Brand>(
    'INSERT INTO brands (id, name, plan) VALUES ($1, $2, $3) RETURNING id, name, plan',
    [newId('brand'), input.name, input.plan ?? 'free'],
  );
  return row;
}
