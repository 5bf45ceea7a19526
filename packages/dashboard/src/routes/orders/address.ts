import type { Transaction } from '@creator-commerce/sdk';

type Address = NonNullable<NonNullable<Transaction['shipping']>['address']>;

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });
const countryName = (code: string) => {
  try {
    return regionNames.of(code) ?? code;
  } catch {
    return code;
  }
};

/** An address as it goes on a parcel, one line per part (the server's shipping/address.ts addressLines). */
export function addressLines(a: Address): string[] {
  const town = [a.city, a.region, a.postalCode].filter(Boolean).join(' ');
  return [a.line1, ...(a.line2 ? [a.line2] : []), town, countryName(a.country)];
}

/** Where an order goes: the delivery address, or the pickup point's name and address. */
export function destination(t: Transaction): { heading: string; lines: string[] } {
  const s = t.shipping;
  if (!s) return { heading: '', lines: [] };
  if (s.method === 'pickup' && s.pickupLocation) {
    return { heading: `Pickup at ${s.pickupLocation.name}`, lines: addressLines(s.pickupLocation.address) };
  }
  return { heading: `Delivery${s.deliveryLocation ? `: ${s.deliveryLocation.name}` : ''}`, lines: s.address ? addressLines(s.address) : [] };
}
