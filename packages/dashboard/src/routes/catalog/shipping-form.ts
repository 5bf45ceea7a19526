import type { ShippingSettings } from '@creator-commerce/sdk';

/**
 * A physical product's shipping settings as the editor holds them (docs/shipping.md): countries
 * and prices as typed text ("US, CA" and "5 USD, 4.50 GBP"), turned into the API's shape on save;
 * the API checks every part and names it, and the editor shows the message beside it.
 */

export interface ZoneForm { key: string; id: string; name: string; countries: string; prices: string }
export interface PickupForm {
  key: string; id: string; name: string; openingHours: string;
  line1: string; line2: string; city: string; region: string; postalCode: string; country: string;
}
export interface ShippingForm { zones: ZoneForm[]; pickups: PickupForm[]; had: boolean }

let next = 0;
const key = (p: string) => `${p}-${Date.now().toString(36)}-${next++}`;

export const emptyZone = (): ZoneForm => ({ key: key('zone'), id: '', name: '', countries: '', prices: '' });
export const emptyPickup = (): PickupForm => ({ key: key('pickup'), id: '', name: '', openingHours: '', line1: '', line2: '', city: '', region: '', postalCode: '', country: '' });

export function shippingToForm(s: ShippingSettings | undefined): ShippingForm {
  return {
    had: !!s,
    zones: (s?.deliveryZones ?? []).map((z) => ({
      key: key('zone'), id: z.id, name: z.name, countries: z.countries.join(', '), prices: z.prices.map((p) => `${p.amount} ${p.currency}`).join(', '),
    })),
    pickups: (s?.pickupLocations ?? []).map((p) => ({
      key: key('pickup'), id: p.id, name: p.name, openingHours: p.openingHours,
      line1: p.address.line1, line2: p.address.line2 ?? '', city: p.address.city, region: p.address.region ?? '', postalCode: p.address.postalCode ?? '', country: p.address.country,
    })),
  };
}

const list = (v: string) => v.split(',').map((s) => s.trim()).filter(Boolean);

/** "5 USD, 4.50 GBP" -> [{ amount: 5, currency: 'USD' }, …]; a part that is not "amount CUR" goes as typed, for the API to name. */
function prices(v: string) {
  return list(v).map((part) => {
    const after = /^(\d+(?:[.,]\d+)?)\s*([A-Za-z]{3})$/.exec(part);
    const before = /^([A-Za-z]{3})\s*(\d+(?:[.,]\d+)?)$/.exec(part);
    const [amount, currency] = after ? [after[1]!, after[2]!] : before ? [before[2]!, before[1]!] : [undefined, undefined];
    // Sent as typed when it is not "amount CUR": the API's 400 then names the price.
    if (amount === undefined || currency === undefined) return { amount: part as unknown as number, currency: '' };
    return { amount: Number(amount.replace(',', '.')), currency: currency.toUpperCase() };
  });
}

const optional = (v: string) => (v.trim() ? v.trim() : undefined);

/** `shipping` for the product body: the settings, null to clear what was there, or nothing. */
export function shippingBody(f: ShippingForm, type: string, mode: 'create' | 'edit'): { shipping?: ShippingSettings | null } {
  const empty = !f.zones.length && !f.pickups.length;
  if (type !== 'physical' || empty) return f.had && mode === 'edit' ? { shipping: null } : {};
  return {
    shipping: {
      ...(f.zones.length ? {
        deliveryZones: f.zones.map((z) => ({ id: z.id.trim(), name: z.name.trim(), countries: list(z.countries).map((c) => c.toUpperCase()), prices: prices(z.prices) })),
      } : {}),
      ...(f.pickups.length ? {
        pickupLocations: f.pickups.map((p) => ({
          id: p.id.trim(), name: p.name.trim(), openingHours: p.openingHours.trim(),
          address: {
            line1: p.line1.trim(), ...(optional(p.line2) ? { line2: p.line2.trim() } : {}), city: p.city.trim(),
            ...(optional(p.region) ? { region: p.region.trim() } : {}), ...(optional(p.postalCode) ? { postalCode: p.postalCode.trim() } : {}),
            country: p.country.trim().toUpperCase(),
          },
        })),
      } : {}),
    },
  };
}
