import type { Queryable } from '../db/client.ts';
import type { ErrorDetail } from '../errors.ts';
import { checkAvailability } from './availability.ts';
import * as repo from './repository.ts';
import type { Availability } from './schemas.ts';

/**
 * A product's `availability` on POST/PATCH /products (products/writes.ts calls these): required
 * on a product of type `appointment`, refused on any other type, checked field by field.
 */

export const bookableType = 'appointment';

/**
 * `sent` is the body's value (undefined: not sent, null: clear it), `stored` what the product has.
 * Returns what the product will have, or undefined for none.
 */
export function checkProductAvailability(
  type: string, sent: Availability | null | undefined, stored: Availability | undefined, problems: ErrorDetail[],
  /** Where the product is in the input: '' over the API, `products[2].` in a catalog file. */
  at = '',
): Availability | undefined {
  const next = sent === undefined ? stored : sent ?? undefined;
  if (type === bookableType) {
    if (!next) problems.push({ field: `${at}availability`, message: `is required for a product of type ${bookableType}` });
    else if (sent) checkAvailability(sent, `${at}availability.`, problems);
  } else if (next) {
    problems.push({
      field: `${at}availability`,
      message: sent ? `is only for products of type ${bookableType}` : `this product has availability: send availability: null with a type other than ${bookableType}`,
    });
  }
  return next;
}

export async function writeProductAvailability(tx: Queryable, brandId: string, productId: string, sent: Availability | null | undefined) {
  if (sent === undefined) return;
  if (sent === null) await repo.deleteAvailability(tx, brandId, productId);
  else await repo.saveAvailability(tx, brandId, productId, sent);
}

export const productAvailabilityOf = (db: Queryable, brandId: string, productId: string) => repo.findAvailability(db, brandId, productId);
