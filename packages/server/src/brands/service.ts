import type { Queryable } from '../db/client.ts';
import { AppError } from '../errors.ts';
import { newId } from '../ids.ts';
import * as repo from './repository.ts';

export type { Plan } from './repository.ts';
export type Brand = repo.BrandRow;

export async function createBrand(db: Queryable, input: { name: string; plan?: repo.Plan }): Promise<Brand> {
  return repo.insertBrand(db, { id: newId('brand'), name: input.name, plan: input.plan ?? 'free' });
}

/** The brand, or not_found naming the id (admin commands take brand ids from the operator). */
export async function requireBrand(db: Queryable, id: string): Promise<Brand> {
  const brand = await repo.findBrand(db, id);
  if (!brand) throw new AppError('not_found', `No brand with id ${id} exists.`);
  return brand;
}
