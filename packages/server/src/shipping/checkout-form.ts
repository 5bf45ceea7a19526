import { formatMoney } from '../money.ts';
import { esc } from '../pages/html.ts';
import { toMinor } from '../money.ts';
import { addressLines, countryName } from './address.ts';
import type { Address, ShippingSettings } from './schemas.ts';

/**
 * The web checkout's "Delivery or pickup" part (checkout-links/form-page.ts shows it for a
 * physical product with shipping settings): one radio per delivery zone priced in the tier's
 * currency and per pickup point, and the address form. It works without scripts: the address is
 * asked beside the choice and used only for delivery. Inputs are named `shipping` and
 * `address_<part>`; the service's problems (`deliveryLocation`, `address.postalCode`, …) come
 * back beside them through shippingInputOf.
 */

const parts = [
  { key: 'line1', label: 'Address line 1', autocomplete: 'address-line1', optional: false },
  { key: 'line2', label: 'Address line 2', autocomplete: 'address-line2', optional: true },
  { key: 'city', label: 'Town or city', autocomplete: 'address-level2', optional: false },
  { key: 'region', label: 'State, county or province', autocomplete: 'address-level1', optional: true },
  { key: 'postalCode', label: 'Postal code', autocomplete: 'postal-code', optional: false },
] as const;

/** The form inputs in the order they appear (for the error summary). */
export const shippingInputs = ['shipping', ...parts.map((p) => `address_${p.key}`), 'address_country'];

type View = { values: Record<string, string>; errors: Record<string, string> };

const errorOf = (name: string, view: View) => view.errors[name]
  ? { attrs: ` aria-invalid="true" aria-describedby="${esc(name)}-error"`, text: `<p class="error-text" id="${esc(name)}-error">${esc(view.errors[name])}</p>` }
  : { attrs: '', text: '' };

export function shippingFieldset(settings: ShippingSettings, currency: string, view: View): string {
  const zones = (settings.deliveryZones ?? []).flatMap((z) => {
    const price = z.prices.find((p) => p.currency === currency);
    return price ? [{ zone: z, minor: toMinor(price.amount, currency) ?? 0 }] : [];
  });
  const pickups = settings.pickupLocations ?? [];
  const chosen = view.values.shipping ?? (zones.length ? `zone:${zones[0].zone.id}` : `pickup:${pickups[0]?.id ?? ''}`);
  const choice = errorOf('shipping', view);
  const radio = (value: string, label: string, detail: string) => `<div class="option"><input type="radio" id="shipping-${esc(value.replace(':', '-'))}" name="shipping" value="${esc(value)}"${value === chosen ? ' checked' : ''}${choice.attrs}>
<label for="shipping-${esc(value.replace(':', '-'))}">${label}<br><span class="muted">${esc(detail)}</span></label></div>`;
  const countries = [...new Set(zones.flatMap((z) => z.zone.countries))]
    .map((code) => ({ code, name: countryName(code) }))
    .sort((a, b) => a.name.localeCompare(b.name, 'en'));
  const country = errorOf('address_country', view);
  const selectedCountry = view.values.address_country ?? (countries.length === 1 ? countries[0].code : '');
  const address = zones.length ? `<fieldset id="address"><legend>Delivery address <span class="optional">(for delivery)</span></legend>
${parts.map((p) => {
    const name = `address_${p.key}`;
    const e = errorOf(name, view);
    return `<div class="field"><label for="${name}">${esc(p.label)}${p.optional ? ' <span class="optional">(optional)</span>' : ''}</label>
<input id="${name}" name="${name}" type="text" autocomplete="shipping ${p.autocomplete}" maxlength="${p.key === 'postalCode' ? 20 : 200}" value="${esc(view.values[name] ?? '')}"${e.attrs}>${e.text}</div>`;
  }).join('\n')}
<div class="field"><label for="address_country">Country</label>
<select id="address_country" name="address_country" autocomplete="shipping country"${country.attrs}><option value="">Choose…</option>${countries.map((c) => `<option value="${esc(c.code)}"${c.code === selectedCountry ? ' selected' : ''}>${esc(c.name)}</option>`).join('')}</select>${country.text}</div>
</fieldset>` : '';
  return `<fieldset id="shipping"><legend>Delivery or pickup</legend>
${zones.map(({ zone, minor }) => radio(`zone:${zone.id}`, `<strong>Delivery: ${esc(zone.name)}</strong> (+${esc(formatMoney(minor, currency))})`, `To ${zone.countries.map(countryName).join(', ')}`)).join('\n')}
${pickups.map((p) => radio(`pickup:${p.id}`, `<strong>Pick up at ${esc(p.name)}</strong> (free)`, `${addressLines(p.address).join(', ')}. ${p.openingHours}`)).join('\n')}
${choice.text}
</fieldset>
${address}`;
}

/** The form's choice and address as the API's `deliveryLocation`/`pickupLocation`/`address`. */
export function shippingFromForm(values: Record<string, string>): { deliveryLocation?: string; pickupLocation?: string; address?: Address } {
  const chosen = values.shipping ?? '';
  if (chosen.startsWith('pickup:')) return { pickupLocation: chosen.slice(7) };
  if (!chosen.startsWith('zone:')) return {};
  const part = (key: string) => (values[`address_${key}`] ?? '').trim();
  return {
    deliveryLocation: chosen.slice(5),
    address: {
      line1: part('line1'), ...(part('line2') ? { line2: part('line2') } : {}), city: part('city'),
      ...(part('region') ? { region: part('region') } : {}), ...(part('postalCode') ? { postalCode: part('postalCode') } : {}), country: part('country'),
    },
  };
}

/** The input a problem of the service belongs to, with its label; undefined for problems that are not about shipping. */
export function shippingInputOf(field: string | undefined): { input: string; label: string } | undefined {
  if (field === 'deliveryLocation' || field === 'pickupLocation') return { input: 'shipping', label: '' };
  if (field === 'address') return { input: 'address_line1', label: 'Delivery address' };
  const part = /^address\.(line1|line2|city|region|postalCode|country)$/.exec(field ?? '')?.[1];
  if (!part) return undefined;
  return { input: `address_${part}`, label: part === 'country' ? 'Country' : parts.find((p) => p.key === part)!.label };
}
