import { ArrowDown, ArrowUp, Plus, Trash2 } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { CheckField, CurrencyField, SelectField, TextAreaField, TextField, choicesOf } from './fields.tsx';
import type { FieldErrors } from './form-errors.ts';
import { emptyTier, itemRef, periods, tierTypes, type ItemForm, type TierForm } from './product-form.ts';
import { tierInputs, type TypeShape } from './product-types.ts';

/** Moves entry i by d places (the list order is the order buyers see). */
export function move<T>(list: T[], i: number, d: number): T[] {
  const j = i + d;
  if (j < 0 || j >= list.length) return list;
  const next = [...list];
  [next[i], next[j]] = [next[j], next[i]];
  return next;
}

const pricingWords: Record<string, string> = { free: 'Free', one_off: 'One payment', recurring: 'Recurring', pay_what_you_want: 'Pay what you want (price is the minimum)' };

/**
 * A product's or hub's tiers: price, discount, recurrence, perks, places, tickets, default,
 * archived; a product's type decides which of these show (product-types.ts). Removing a tier
 * that was ever sold archives it on the server instead (the API's rule), which the reloaded form
 * then shows.
 */
export function TiersEditor({ tiers, onChange, errors, items, what = 'tier', shape }: {
  tiers: TierForm[];
  onChange: (tiers: TierForm[]) => void;
  errors: FieldErrors;
  /** The product's items, for "included items"; absent for a hub. */
  items?: ItemForm[];
  what?: string;
  /** The product type's shape; absent for a hub, whose plans show every input. */
  shape?: TypeShape;
}) {
  const set = (i: number, patch: Partial<TierForm>) => onChange(tiers.map((t, j) => (j === i ? { ...t, ...patch } : patch.isDefault ? { ...t, isDefault: false } : t)));
  // The API takes one currency for all of a product's tiers: picking it on one tier sets it on all.
  const setCurrency = (currency: string) => onChange(tiers.map((t) => ({ ...t, currency })));
  return (
    <div className="space-y-4">
      {tiers.map((t, i) => {
        const p = `tiers[${i}]`;
        const id = `tier-${i}`;
        const e = (f: string) => errors.get(`${p}.${f}`);
        const show = tierInputs(shape, t);
        // A message about an input the type hides goes under the tier, so no error is lost.
        const shown = new Set(['name', 'type', 'price', 'price.amount', 'price.currency', 'discount', 'discount.amount', 'perks', 'buttonText', 'isDefault', 'archived', 'status', 'itemIDs',
          ...(show.recurring ? ['recurrence', 'recurrence.periodic', 'recurrence.interval', 'recurrence.count'] : []), ...(show.places ? ['slots'] : []), ...(show.tickets ? ['noOfTickets'] : [])].map((f) => `${p}.${f}`));
        const rest = errors.under(p, (path) => shown.has(path) || path.startsWith(`${p}.perks[`) || path.startsWith(`${p}.itemIDs[`));
        return (
          <fieldset key={t.key} className="rounded-lg border p-4" aria-label={`${what} ${i + 1}`}>
            <legend className="flex flex-wrap items-center gap-2 px-1 text-sm font-medium">
              {t.name || `New ${what}`}
              {t.archived && <Badge variant="secondary">archived</Badge>}
              {t.isDefault && <Badge variant="outline">default</Badge>}
            </legend>
            <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
              <TextField id={`${id}-name`} label={`${what[0].toUpperCase()}${what.slice(1)} name`} value={t.name} onChange={(v) => set(i, { name: v })} error={e('name')} className="sm:col-span-2" />
              <TextField id={`${id}-price`} label="Price" inputMode="decimal" value={t.price} onChange={(v) => set(i, { price: v })} error={e('price.amount') ?? e('price')} hint="0 for free" />
              <CurrencyField id={`${id}-currency`} value={t.currency} onChange={(v) => (shape ? setCurrency(v) : set(i, { currency: v }))} error={e('price.currency')} />
              <SelectField id={`${id}-type`} label="Pricing" value={t.type} onChange={(v) => set(i, { type: v })} error={e('type')}
                choices={[{ value: 'auto', label: 'From price and billing' }, ...tierTypes.map((x) => ({ value: x, label: pricingWords[x] ?? x }))]} />
              <TextField id={`${id}-discount`} label="Discount" inputMode="decimal" value={t.discount} onChange={(v) => set(i, { discount: v })} error={e('discount.amount') ?? e('discount')} hint="Taken off the price" />
              {show.recurring && <SelectField id={`${id}-periodic`} label="Billing" value={t.periodic} onChange={(v) => set(i, { periodic: v })} error={e('recurrence.periodic') ?? e('recurrence')}
                choices={[{ value: 'none', label: 'One time' }, ...choicesOf(periods)]} />}
              {show.recurring && (t.periodic !== 'none' ? (
                <div className="grid grid-cols-2 gap-2">
                  <TextField id={`${id}-interval`} label="Every" inputMode="numeric" value={t.interval} onChange={(v) => set(i, { interval: v })} error={e('recurrence.interval')} />
                  <TextField id={`${id}-count`} label="Periods" inputMode="numeric" value={t.count} onChange={(v) => set(i, { count: v })} error={e('recurrence.count')} hint="0: until cancelled" />
                </div>
              ) : <div className="hidden lg:block" />)}
              {show.places && <TextField id={`${id}-slots`} label={show.places.label} inputMode="numeric" value={t.slots} onChange={(v) => set(i, { slots: v })} error={e('slots')} hint={show.places.hint} />}
              {show.tickets && <TextField id={`${id}-tickets`} label="Tickets per purchase" inputMode="numeric" value={t.noOfTickets} onChange={(v) => set(i, { noOfTickets: v })} error={e('noOfTickets')} />}
              <TextField id={`${id}-button`} label="Button text" value={t.buttonText} onChange={(v) => set(i, { buttonText: v })} error={e('buttonText')} placeholder="Buy now" />
              <SelectField id={`${id}-status`} label="On sale" value={t.status} onChange={(v) => set(i, { status: v })} error={e('status')}
                choices={[{ value: 'active', label: 'Active' }, { value: 'inactive', label: 'Inactive (off sale for now)' }]} />
              <TextAreaField id={`${id}-perks`} label="Perks (one per line)" value={t.perks} onChange={(v) => set(i, { perks: v })}
                error={e('perks') ?? errors.under(`${p}.perks`, () => false)[0]} className="sm:col-span-2" />
              {items && items.length > 0 && (
                <div className="space-y-1.5 sm:col-span-2">
                  <p className="text-sm font-medium" id={`${id}-items-label`}>Included items</p>
                  <div className="flex flex-col gap-1.5" role="group" aria-labelledby={`${id}-items-label`}>
                    {items.filter((it) => !it.isAddon).map((it) => {
                      const ref = itemRef(it);
                      const cid = `${id}-item-${ref}`;
                      return (
                        <div key={it.key} className="flex items-center gap-2">
                          <Checkbox id={cid} checked={t.itemIDs.includes(ref)}
                            onCheckedChange={(v) => set(i, { itemIDs: v === true ? [...t.itemIDs, ref] : t.itemIDs.filter((x) => x !== ref) })} />
                          <Label htmlFor={cid} className="font-normal">{it.title || 'Untitled item'}</Label>
                        </div>
                      );
                    })}
                  </div>
                  {(e('itemIDs') ?? errors.under(`${p}.itemIDs`, () => false)[0]) && (
                    <p className="text-sm text-destructive" data-field-error>{e('itemIDs') ?? errors.under(`${p}.itemIDs`, () => false)[0]}</p>
                  )}
                </div>
              )}
            </div>
            <div className="mt-4 flex flex-wrap items-center gap-x-6 gap-y-2">
              <CheckField id={`${id}-default`} label={`Default ${what}`} checked={t.isDefault} onChange={(v) => set(i, { isDefault: v })} error={e('isDefault')} />
              <CheckField id={`${id}-archived`} label="Archived (kept for past buyers, not sold)" checked={t.archived} onChange={(v) => set(i, { archived: v })} error={e('archived')} />
              <div className="ml-auto flex gap-1">
                <Button type="button" variant="ghost" size="icon" aria-label={`Move ${what} ${i + 1} up`} disabled={i === 0} onClick={() => onChange(move(tiers, i, -1))}><ArrowUp /></Button>
                <Button type="button" variant="ghost" size="icon" aria-label={`Move ${what} ${i + 1} down`} disabled={i === tiers.length - 1} onClick={() => onChange(move(tiers, i, 1))}><ArrowDown /></Button>
                <Button type="button" variant="ghost" size="icon" aria-label={`Remove ${what} ${i + 1}`} disabled={tiers.length === 1}
                  onClick={() => onChange(tiers.filter((_, j) => j !== i))}><Trash2 /></Button>
              </div>
            </div>
            {rest.length > 0 && <ul className="mt-2 list-disc pl-5 text-sm text-destructive">{rest.map((m) => <li key={m}>{m}</li>)}</ul>}
          </fieldset>
        );
      })}
      <Button type="button" variant="outline" onClick={() => onChange([...tiers, emptyTier(tiers[0]?.currency || 'USD')])}>
        <Plus aria-hidden /> Add {what}
      </Button>
    </div>
  );
}
