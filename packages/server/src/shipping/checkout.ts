import type { Queryable } from '../db/client.ts';
import type { ErrorDetail } from '../errors.ts';
import { toMinor } from '../money.ts';
import type { LineItem } from '../checkout/pricing.ts';
import { checkAddress, countryName } from './address.ts';
import { physicalType, productShippingOf } from './settings.ts';
import type { Address, PickupLocation } from './schemas.ts';

/**
 * What POST /payment-links (and the web checkout) checks about `address`, `deliveryLocation` and
 * `pickupLocation`, and the shipping line it adds. The fields belong to a physical product with
 * shipping settings: sent for anything else they are refused like unknown fields.
 */

/** What a physical order chose, as the link and then its transaction keep it (amount in minor units). */
export interface ShippingChoice {
  method: 'delivery' | 'pickup';
  amount: number;
  productId: string;
  deliveryLocation?: { id: string; name: string };
  address?: Address;
  pickupLocation?: PickupLocation;
}

export interface ShippingRequest {
  address?: Address;
  deliveryLocation?: string;
  pickupLocation?: string;
}

export async function checkShipping(
  db: Queryable, brandId: string, sent: ShippingRequest,
  items: { index: number; productId: string; productType: string; title: string }[],
  currency: string, problems: ErrorDetail[],
): Promise<ShippingChoice | undefined> {
  const physical = [];
  for (const item of items) {
    if (item.productType !== physicalType) continue;
    const settings = await productShippingOf(db, brandId, item.productId);
    if (settings) physical.push({ ...item, settings });
  }
  const named = (['address', 'deliveryLocation', 'pickupLocation'] as const).filter((k) => sent[k] !== undefined);
  if (!physical.length) {
    for (const field of named) problems.push({ field, message: 'is only for a physical product with shipping settings, and no item is one' });
    return undefined;
  }
  if (physical.length > 1) {
    problems.push({ field: `items[${physical[1].index}]`, index: physical[1].index, message: 'a payment link ships one physical product with shipping settings: buy the others in a link of their own' });
    return undefined;
  }
  const [item] = physical;
  const zones = item.settings.deliveryZones ?? [];
  const pickups = item.settings.pickupLocations ?? [];
  const choices = [
    ...(zones.length ? [`deliveryLocation (one of ${zones.map((z) => `"${z.id}"`).join(', ')}) with an address`] : []),
    ...(pickups.length ? [`pickupLocation (one of ${pickups.map((p) => `"${p.id}"`).join(', ')})`] : []),
  ].join(' or ');

  if (sent.deliveryLocation !== undefined && sent.pickupLocation !== undefined) {
    problems.push({ field: 'pickupLocation', message: 'choose one: deliveryLocation (delivery to an address) or pickupLocation, not both' });
    return undefined;
  }
  if (sent.pickupLocation !== undefined) {
    const pickup = pickups.find((p) => p.id === sent.pickupLocation);
    if (!pickup) problems.push({ field: 'pickupLocation', message: `"${sent.pickupLocation}" is not a pickup location of "${item.title}"; choose ${choices}` });
    if (sent.address !== undefined) problems.push({ field: 'address', message: 'is only for delivery; a pickup order needs no address' });
    return pickup && { method: 'pickup', amount: 0, productId: item.productId, pickupLocation: pickup };
  }
  if (sent.deliveryLocation === undefined) {
    problems.push({ field: 'deliveryLocation', message: `is required: "${item.title}" is shipped or collected; choose ${choices}` });
    return undefined;
  }
  const zone = zones.find((z) => z.id === sent.deliveryLocation);
  if (!zone) {
    problems.push({ field: 'deliveryLocation', message: `"${sent.deliveryLocation}" is not a delivery zone of "${item.title}"; choose ${choices}` });
    return undefined;
  }
  const price = zone.prices.find((p) => p.currency === currency);
  if (!price) {
    problems.push({ field: 'deliveryLocation', message: `delivery zone "${zone.name}" has no price in ${currency}, the currency of this link` });
  }
  if (sent.address === undefined) {
    problems.push({ field: 'address', message: 'is required for delivery: give line1, city, postalCode and country' });
    return undefined;
  }
  const before = problems.length;
  checkAddress(sent.address, 'address.', problems);
  if (problems.length === before && !zone.countries.includes(sent.address.country)) {
    problems.push({
      field: 'address.country',
      message: `delivery zone "${zone.name}" does not deliver to ${countryName(sent.address.country)}; it delivers to ${zone.countries.join(', ')}`,
    });
  }
  if (!price || problems.length > before) return undefined;
  return {
    method: 'delivery', amount: toMinor(price.amount, currency) ?? 0, productId: item.productId,
    deliveryLocation: { id: zone.id, name: zone.name }, address: tidy(sent.address),
  };
}

/** The address as kept: trimmed, empty optional parts left out. */
function tidy(a: Address): Address {
  const line2 = a.line2?.trim();
  const region = a.region?.trim();
  const postalCode = a.postalCode?.trim();
  return {
    line1: a.line1.trim(), ...(line2 ? { line2 } : {}), city: a.city.trim(), ...(region ? { region } : {}),
    ...(postalCode ? { postalCode: postalCode.toUpperCase() } : {}), country: a.country,
  };
}

/** The order with its delivery price as a line of its own (after any coupon: a coupon never discounts delivery). */
export function withShipping<P extends { amount: number; lineItems: LineItem[] }>(priced: P, choice: ShippingChoice | undefined): P {
  if (!choice || choice.method !== 'delivery') return priced;
  const line = { description: `Delivery: ${choice.deliveryLocation!.name}`, unitAmount: choice.amount, quantity: 1, amount: choice.amount };
  return { ...priced, amount: priced.amount + choice.amount, lineItems: [...priced.lineItems, line] };
}
