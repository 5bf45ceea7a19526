import type { Queryable } from '../db/client.ts';
import type { ErrorDetail } from '../errors.ts';
import { toMinor } from '../money.ts';
import { checkAddress, isCountry } from './address.ts';
import * as repo from './repository.ts';
import type { ShippingSettings } from './schemas.ts';

/**
 * A product's `shipping` on POST/PATCH /products (products/writes.ts calls these): only on a
 * product of type `physical`, checked field by field. A physical product without it sells as
 * before (nothing to choose at checkout), so products made before shipping existed keep working.
 */

export const physicalType = 'physical';

/**
 * `sent` is the body's value (undefined: not sent, null: clear it), `stored` what the product has.
 * Returns what the product will have, or undefined for none.
 */
export function checkProductShipping(
  type: string, sent: ShippingSettings | null | undefined, stored: ShippingSettings | undefined, problems: ErrorDetail[],
  /** Where the product is in the input: '' over the API, `products[2].` in a catalog file. */
  at = '',
): ShippingSettings | undefined {
  const next = sent === undefined ? stored : sent ?? undefined;
  if (type !== physicalType) {
    if (next) {
      problems.push({
        field: `${at}shipping`,
        message: sent ? `is only for products of type ${physicalType}` : `this product has shipping settings: send shipping: null with a type other than ${physicalType}`,
      });
    }
    return next;
  }
  if (sent) checkSettings(sent, `${at}shipping.`, problems);
  return next;
}

function checkSettings(s: ShippingSettings, at: string, problems: ErrorDetail[]): void {
  const zones = s.deliveryZones ?? [];
  const pickups = s.pickupLocations ?? [];
  if (!zones.length && !pickups.length) {
    problems.push({ field: `${at}deliveryZones`, message: 'give at least one delivery zone or pickup location (or send shipping: null for none)' });
  }
  zones.forEach((zone, i) => {
    const here = `${at}deliveryZones[${i}].`;
    if (zones.findIndex((z) => z.id === zone.id) !== i) problems.push({ field: `${here}id`, index: i, message: `"${zone.id}" is used by another zone` });
    zone.countries.forEach((c, j) => {
      if (!isCountry(c)) problems.push({ field: `${here}countries[${j}]`, index: j, message: `"${c}" is not an ISO 3166-1 alpha-2 country code` });
      else if (zone.countries.indexOf(c) !== j) problems.push({ field: `${here}countries[${j}]`, index: j, message: `"${c}" is listed twice` });
    });
    zone.prices.forEach((p, j) => {
      if (zone.prices.findIndex((q) => q.currency === p.currency) !== j) {
        problems.push({ field: `${here}prices[${j}].currency`, index: j, message: `the zone has another price in ${p.currency}; one price per currency` });
      } else if (toMinor(p.amount, p.currency) === null) {
        problems.push({ field: `${here}prices[${j}].amount`, index: j, message: `has more decimals than ${p.currency} allows` });
      }
    });
  });
  pickups.forEach((pickup, i) => {
    const here = `${at}pickupLocations[${i}].`;
    if (pickups.findIndex((p) => p.id === pickup.id) !== i) problems.push({ field: `${here}id`, index: i, message: `"${pickup.id}" is used by another pickup location` });
    checkAddress(pickup.address, `${here}address.`, problems);
  });
}

export async function writeProductShipping(tx: Queryable, brandId: string, productId: string, sent: ShippingSettings | null | undefined) {
  if (sent === undefined) return;
  if (sent === null) await repo.deleteShipping(tx, brandId, productId);
  else await repo.saveShipping(tx, brandId, productId, sent);
}

export const productShippingOf = (db: Queryable, brandId: string, productId: string) => repo.findShipping(db, brandId, productId);
