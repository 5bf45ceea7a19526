import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ApiError, api, v1, type ListPage } from '@/api';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ErrorNote } from '../people/parts.tsx';
import { CheckField, CurrencyField, SelectField, TextField } from './fields.tsx';
import { FieldErrors, noErrors } from './form-errors.ts';
import { FormProblem } from './form-parts.tsx';
import { SaveBar } from './ProductEditor.tsx';
import type { CouponForm } from './coupon-form.ts';

const kindWords = { percent: 'Percentage off', amount: 'Fixed amount off' } as const;
const durationChoices = { once: 'First payment only', repeating: 'A number of payments', forever: 'Every payment' } as const;

/**
 * A coupon's form. Making one asks for everything; editing one keeps the code, the discount and
 * its duration as they are (the API never changes them: links and subscriptions hold them).
 */
export function CouponEditor({ initial, save, submitLabel, editing = false }: {
  initial: CouponForm; save: (f: CouponForm) => Promise<void>; submitLabel: string; editing?: boolean;
}) {
  const [form, setForm] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>(noErrors);
  const [failure, setFailure] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  const set = (patch: Partial<CouponForm>) => setForm({ ...form, ...patch });
  const products = useQuery({ queryKey: ['list', v1('/products'), 'coupon-scope'], queryFn: () => api.get<ListPage<{ id: string; title: string }>>(v1('/products'), { limit: 100 }) });
  const hubs = useQuery({ queryKey: ['list', v1('/hubs'), 'coupon-scope'], queryFn: () => api.get<ListPage<{ id: string; name: string }>>(v1('/hubs'), { limit: 100 }) });
  const toggle = (list: string[], id: string, on: boolean) => (on ? [...list, id] : list.filter((x) => x !== id));

  const submit = async (ev: FormEvent) => {
    ev.preventDefault();
    setSaving(true);
    setFailure(null);
    try {
      await save(form);
      setErrors(noErrors);
    } catch (err) {
      setErrors(err instanceof ApiError ? new FieldErrors(err.details) : noErrors);
      setFailure(err);
    } finally {
      setSaving(false);
    }
  };
  const scopeError = errors.under('appliesTo', () => false)[0];
  return (
    <form onSubmit={submit} noValidate className="space-y-6">
      {failure !== null && (errors.size ? <FormProblem errors={errors} /> : <ErrorNote error={failure} />)}
      <Card>
        <CardHeader>
          <CardTitle>Discount</CardTitle>
          <CardDescription>{editing ? 'The code and the discount stay as they are: archive this coupon and make another to change them.' : 'Buyers type the code at checkout; it is matched ignoring case.'}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4 sm:grid-cols-2">
          <TextField id="coupon-code" label="Code" value={form.code} onChange={(v) => set({ code: v.toUpperCase() })} error={errors.get('code')} disabled={editing}
            hint="Letters, digits, - and _ (e.g. SPRING20)." autoComplete="off" />
          <TextField id="coupon-name" label="Name (optional)" value={form.name} onChange={(v) => set({ name: v })} error={errors.get('name')} hint="Your label; buyers see the code." />
          {editing
            ? <TextField id="coupon-kind" label="Type" value={kindWords[form.kind]} onChange={() => {}} disabled />
            : <SelectField id="coupon-kind" label="Type" value={form.kind} onChange={(v) => set({ kind: v as CouponForm['kind'] })}
              choices={(['percent', 'amount'] as const).map((k) => ({ value: k, label: kindWords[k] }))} />}
          {form.kind === 'percent' ? (
            <TextField id="coupon-percent" label="Percent off" value={form.percentOff} onChange={(v) => set({ percentOff: v })} inputMode="decimal" disabled={editing}
              error={errors.get('percentOff')} hint="More than 0, at most 100." />
          ) : (
            <TextField id="coupon-amount" label={`Amount off (${form.currency})`} value={form.amountOff} onChange={(v) => set({ amountOff: v })} inputMode="decimal" disabled={editing}
              error={errors.get('amountsOff[0].amount') ?? errors.get('amountsOff') ?? errors.get('percentOff')} />
          )}
          <CurrencyField id="coupon-currency" value={form.currency} onChange={(v) => set({ currency: v })}
            error={errors.get('amountsOff[0].currency') ?? errors.get('minimumAmounts[0].currency')} hint="Of the fixed amount and the minimum." />
          {editing
            ? <TextField id="coupon-duration" label="On recurring plans" value={durationChoices[form.duration]} onChange={() => {}} disabled />
            : <SelectField id="coupon-duration" label="On recurring plans" value={form.duration} onChange={(v) => set({ duration: v as CouponForm['duration'] })}
              choices={(['once', 'repeating', 'forever'] as const).map((d) => ({ value: d, label: durationChoices[d] }))} error={errors.get('duration')} />}
          {form.duration === 'repeating' && (
            <TextField id="coupon-periods" label="Payments discounted" value={form.durationPeriods} onChange={(v) => set({ durationPeriods: v })} inputMode="numeric" disabled={editing}
              error={errors.get('durationPeriods')} hint="The first payment included." />
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Limits</CardTitle>
          <CardDescription>Leave a field empty for no limit.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4 sm:grid-cols-2">
          <TextField id="coupon-starts" label="Starts" type="datetime-local" value={form.startsAt} onChange={(v) => set({ startsAt: v })} error={errors.get('startsAt')} />
          <TextField id="coupon-ends" label="Ends" type="datetime-local" value={form.endsAt} onChange={(v) => set({ endsAt: v })} error={errors.get('endsAt')} />
          <TextField id="coupon-max" label="Total uses" value={form.maxRedemptions} onChange={(v) => set({ maxRedemptions: v })} inputMode="numeric" error={errors.get('maxRedemptions')} />
          <TextField id="coupon-per-customer" label="Uses per customer" value={form.maxPerCustomer} onChange={(v) => set({ maxPerCustomer: v })} inputMode="numeric"
            error={errors.get('maxPerCustomer')} hint="Counted by email address." />
          <TextField id="coupon-minimum" label={`Minimum order (${form.currency})`} value={form.minimum} onChange={(v) => set({ minimum: v })} inputMode="decimal"
            error={errors.get('minimumAmounts[0].amount') ?? errors.get('minimumAmounts')} hint="Before the discount." />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Applies to</CardTitle>
          <CardDescription>Tick nothing for the whole order. A hub covers its plans and the products in it.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-2 sm:grid-cols-2">
          {scopeError && <p className="text-sm text-destructive sm:col-span-2" data-field-error>{scopeError}</p>}
          {(products.data?.items ?? []).map((p) => (
            <CheckField key={p.id} id={`scope-${p.id}`} label={p.title} checked={form.products.includes(p.id)} onChange={(on) => set({ products: toggle(form.products, p.id, on) })} />
          ))}
          {(hubs.data?.items ?? []).map((h) => (
            <CheckField key={h.id} id={`scope-${h.id}`} label={`${h.name} (hub)`} checked={form.hubs.includes(h.id)} onChange={(on) => set({ hubs: toggle(form.hubs, h.id, on) })} />
          ))}
        </CardContent>
      </Card>
      <SaveBar saving={saving} label={submitLabel} />
    </form>
  );
}
