import { Button } from '@/components/ui/button';
import { TextField } from './fields.tsx';
import type { FieldErrors } from './form-errors.ts';
import { emptyPickup, emptyZone, type PickupForm, type ShippingForm, type ZoneForm } from './shipping-form.ts';

/** The first message at `path` or under it (`…countries[1]` shows under the countries input). */
const under = (errors: FieldErrors, path: string) => [...errors.byPath].find(([p]) => p === path || p.startsWith(`${path}.`) || p.startsWith(`${path}[`))?.[1];

/**
 * A physical product's delivery zones and pickup points (docs/shipping.md). Buyers choose one at
 * checkout; a zone's price in the checkout's currency is added to the order.
 */
export function ShippingEditor({ value, onChange, errors }: { value: ShippingForm; onChange: (v: ShippingForm) => void; errors: FieldErrors }) {
  const setZone = (i: number, patch: Partial<ZoneForm>) => onChange({ ...value, zones: value.zones.map((z, j) => (j === i ? { ...z, ...patch } : z)) });
  const setPickup = (i: number, patch: Partial<PickupForm>) => onChange({ ...value, pickups: value.pickups.map((p, j) => (j === i ? { ...p, ...patch } : p)) });
  const top = errors.get('shipping') ?? errors.get('shipping.deliveryZones');
  return (
    <div className="space-y-6">
      {top && <p className="text-sm text-destructive" data-field-error>{top}</p>}
      <section aria-label="Delivery zones" className="space-y-3">
        <h3 className="text-sm font-semibold">Delivery zones</h3>
        {value.zones.map((z, i) => {
          const at = `shipping.deliveryZones[${i}]`;
          return (
            <fieldset key={z.key} className="grid gap-3 rounded-md border p-3 sm:grid-cols-2">
              <legend className="px-1 text-xs text-muted-foreground">Zone {i + 1}</legend>
              <TextField id={`zone-${i}-name`} label="Name buyers see" value={z.name} onChange={(v) => setZone(i, { name: v })} error={under(errors, `${at}.name`)} placeholder="United States" />
              <TextField id={`zone-${i}-id`} label="Id" value={z.id} onChange={(v) => setZone(i, { id: v })} error={under(errors, `${at}.id`)} placeholder="us" hint="Letters, digits, - and _" />
              <TextField id={`zone-${i}-countries`} label="Countries (ISO codes, comma separated)" value={z.countries} onChange={(v) => setZone(i, { countries: v })} error={under(errors, `${at}.countries`)} placeholder="US, CA" />
              <TextField id={`zone-${i}-prices`} label="Price per currency" value={z.prices} onChange={(v) => setZone(i, { prices: v })} error={under(errors, `${at}.prices`)} placeholder="5 USD, 4.50 GBP" />
              <div className="sm:col-span-2"><Button type="button" variant="outline" size="sm" onClick={() => onChange({ ...value, zones: value.zones.filter((_, j) => j !== i) })}>Remove zone</Button></div>
            </fieldset>
          );
        })}
        <Button type="button" variant="secondary" size="sm" onClick={() => onChange({ ...value, zones: [...value.zones, emptyZone()] })}>Add delivery zone</Button>
      </section>
      <section aria-label="Pickup locations" className="space-y-3">
        <h3 className="text-sm font-semibold">Pickup locations</h3>
        {value.pickups.map((p, i) => {
          const at = `shipping.pickupLocations[${i}]`;
          const field = (name: keyof PickupForm, label: string, path: string, placeholder?: string) => (
            <TextField id={`pickup-${i}-${name}`} label={label} value={p[name]} onChange={(v) => setPickup(i, { [name]: v })} error={under(errors, `${at}.${path}`)} placeholder={placeholder} />
          );
          return (
            <fieldset key={p.key} className="grid gap-3 rounded-md border p-3 sm:grid-cols-2">
              <legend className="px-1 text-xs text-muted-foreground">Pickup {i + 1}</legend>
              {field('name', 'Name', 'name', 'Our studio')}
              {field('id', 'Id', 'id', 'studio')}
              {field('line1', 'Address line 1', 'address.line1')}
              {field('line2', 'Address line 2 (optional)', 'address.line2')}
              {field('city', 'Town or city', 'address.city')}
              {field('region', 'State or region (optional)', 'address.region')}
              {field('postalCode', 'Postal code', 'address.postalCode')}
              {field('country', 'Country (ISO code)', 'address.country', 'US')}
              {field('openingHours', 'Opening hours', 'openingHours', 'Mon–Fri 10:00–18:00')}
              <div className="sm:col-span-2"><Button type="button" variant="outline" size="sm" onClick={() => onChange({ ...value, pickups: value.pickups.filter((_, j) => j !== i) })}>Remove pickup location</Button></div>
            </fieldset>
          );
        })}
        <Button type="button" variant="secondary" size="sm" onClick={() => onChange({ ...value, pickups: [...value.pickups, emptyPickup()] })}>Add pickup location</Button>
      </section>
    </div>
  );
}
