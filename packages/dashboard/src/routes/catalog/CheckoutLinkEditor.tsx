import { useState, type FormEvent } from 'react';
import type { CheckoutLink, CheckoutLinkCreateParams, Item, Tier } from '@creator-commerce/sdk';
import { errorDetails } from '@/api';
import { useCreateCheckoutLink } from '@/hooks/api/checkout-links';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/toast';
import { money } from '../people/format.ts';
import { ErrorNote } from '../people/parts.tsx';
import { CheckField, TextField } from './fields.tsx';
import { FieldErrors, noErrors } from './form-errors.ts';

type LinkItem = CheckoutLinkCreateParams['items'][number];

/**
 * A checkout link made to measure (`POST /api/v1/checkout-links`): one or more tiers the buyer
 * chooses from, the add-ons ticked when the form opens, the amounts a pay-what-you-want tier
 * takes, a preset coupon, an expiry and a sales cap. The API judges it; its errors show beside
 * the inputs they name.
 */
export function CheckoutLinkEditor({ ownerId, tiers, addons, onMade }: {
  ownerId: string; tiers: Tier[]; addons: Item[]; onMade: (link: CheckoutLink) => void;
}) {
  const [chosen, setChosen] = useState<string[]>(() => [(tiers.find((t) => t.isDefault) ?? tiers[0])?.id].filter(Boolean) as string[]);
  const [ticked, setTicked] = useState<string[]>([]);
  const [ranges, setRanges] = useState<Record<string, { min: string; max: string }>>({});
  const [name, setName] = useState('');
  const [coupon, setCoupon] = useState('');
  const [expires, setExpires] = useState('');
  const [cap, setCap] = useState('');
  const [errors, setErrors] = useState<FieldErrors>(noErrors);
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const create = useCreateCheckoutLink();

  const toggle = (list: string[], id: string, on: boolean) => (on ? [...list.filter((x) => x !== id), id] : list.filter((x) => x !== id));
  const picked = tiers.filter((t) => chosen.includes(t.id));
  const decimal = (v: string) => (v.trim() === '' ? undefined : Number(v.replace(',', '.')));

  const make = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setFailure(null);
    try {
      const items: LinkItem[] = picked.map((t) => {
        const r = ranges[t.id];
        const min = r ? decimal(r.min) : undefined;
        const max = r ? decimal(r.max) : undefined;
        const sameCurrency = ticked.filter((id) => addons.find((a) => a.id === id)?.price?.currency === t.price.currency);
        return {
          id: ownerId, plan: t.id,
          ...(sameCurrency.length ? { addons: sameCurrency } : {}),
          ...(t.type === 'pay_what_you_want' && (min !== undefined || max !== undefined)
            ? { customAmountRange: { ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) } } : {}),
        };
      });
      const link = await create.mutateAsync({
        items,
        ...(name.trim() ? { name: name.trim() } : {}),
        ...(coupon.trim() ? { coupon: coupon.trim() } : {}),
        ...(expires ? { expiresAt: new Date(expires).toISOString() } : {}),
        ...(cap.trim() ? { maxSales: Number(cap) } : {}),
      });
      setErrors(noErrors);
      toast({ title: 'Checkout link created' });
      onMade(link);
    } catch (err) {
      setErrors(new FieldErrors(errorDetails(err)));
      setFailure(err);
    } finally {
      setBusy(false);
    }
  };

  const at = (t: Tier) => chosen.indexOf(t.id) >= 0 ? picked.indexOf(t) : -1;
  return (
    <form onSubmit={make} noValidate className="space-y-4" aria-label="New checkout link">
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium">Tiers the buyer chooses from</legend>
        {tiers.map((t) => (
          <div key={t.id} className="space-y-2">
            <CheckField id={`clink-tier-${t.id}`} label={`${t.name} · ${money(t.price.amount, t.price.currency)}${t.type === 'pay_what_you_want' ? ' or more' : ''}`}
              checked={chosen.includes(t.id)} onChange={(v) => setChosen(toggle(chosen, t.id, v))} error={at(t) >= 0 ? errors.get(`items[${at(t)}].plan`) : undefined} />
            {t.type === 'pay_what_you_want' && chosen.includes(t.id) && (
              <div className="ml-6 grid grid-cols-2 gap-3">
                <TextField id={`clink-min-${t.id}`} label="Lowest price" inputMode="decimal" hint={`At least ${money(t.price.amount, t.price.currency)}`}
                  value={ranges[t.id]?.min ?? ''} onChange={(v) => setRanges({ ...ranges, [t.id]: { min: v, max: ranges[t.id]?.max ?? '' } })}
                  error={errors.get(`items[${at(t)}].customAmountRange.min`) ?? errors.get(`items[${at(t)}].customAmountRange`)} />
                <TextField id={`clink-max-${t.id}`} label="Highest price" inputMode="decimal" hint="Empty: no limit"
                  value={ranges[t.id]?.max ?? ''} onChange={(v) => setRanges({ ...ranges, [t.id]: { max: v, min: ranges[t.id]?.min ?? '' } })}
                  error={errors.get(`items[${at(t)}].customAmountRange.max`)} />
              </div>
            )}
          </div>
        ))}
        {errors.get('items') && <p className="text-sm text-destructive" data-field-error>{errors.get('items')}</p>}
      </fieldset>
      {addons.length > 0 && (
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium">Add-ons ticked in advance</legend>
          {addons.map((a) => (
            <CheckField key={a.id} id={`clink-addon-${a.id}`} label={`${a.title}${a.price ? ` (+${money(a.price.amount, a.price.currency)})` : ''}`}
              checked={ticked.includes(a.id)} onChange={(v) => setTicked(toggle(ticked, a.id, v))} />
          ))}
          <p className="text-xs text-muted-foreground">The buyer can untick them.</p>
        </fieldset>
      )}
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField id="clink-name" label="Label (optional)" value={name} onChange={setName} error={errors.get('name')} hint="For you, e.g. Instagram bio" />
        <TextField id="clink-coupon" label="Coupon filled in (optional)" value={coupon} onChange={setCoupon} error={errors.get('coupon')} autoComplete="off" />
        <TextField id="clink-expires" label="Sales end (optional)" type="datetime-local" value={expires} onChange={setExpires} error={errors.get('expiresAt')} />
        <TextField id="clink-cap" label="Most sales (optional)" inputMode="numeric" value={cap} onChange={setCap} error={errors.get('maxSales')} />
      </div>
      <ErrorNote error={failure} />
      <Button type="submit" disabled={busy || chosen.length === 0}>{busy ? 'Creating…' : 'Create checkout link'}</Button>
    </form>
  );
}
