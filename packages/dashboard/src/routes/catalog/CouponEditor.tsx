import { useState, type FormEvent } from 'react';
import { errorDetails } from '@/api';
import { useHubChoices } from '@/hooks/api/hubs';
import { useProductChoices } from '@/hooks/api/products';
import { XIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ErrorNote } from '../people/parts.tsx';
import { CheckField, CurrencyField, SelectField, TextField } from './fields.tsx';
import { FieldErrors, noErrors } from './form-errors.ts';
import { FormProblem } from './form-parts.tsx';
import { SaveBar } from './ProductEditor.tsx';
import type { CouponForm, MoneyRow } from './coupon-form.ts';

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
  const products = useProductChoices();
  const hubs = useHubChoices();
  const toggle = (list: string[], id: string, on: boolean) => (on ? [...list, id] : list.filter((x) => x !== id));

  const submit = async (ev: FormEvent) => {
    ev.preventDefault();
    setSaving(true);
    setFailure(null);
    try {
      await save(form);
      setErrors(noErrors);
    } catch (err) {
      setErrors(new FieldErrors(errorDetails(err)));
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
            <MoneyRows id="coupon-amount" field="amountsOff" legend="Amount off, per currency" rows={form.amountsOff} onChange={(rows) => set({ amountsOff: rows })}
              errors={errors} disabled={editing} addLabel="Add a currency" minRows={1} labels={['Amount off', 'Currency']}
              hint="A buyer paying in a currency not listed here cannot use the coupon." extraError={errors.get('percentOff')} />
          )}
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
          <MoneyRows id="coupon-minimum" field="minimumAmounts" legend="Minimum order, per currency" rows={form.minimums} onChange={(rows) => set({ minimums: rows })}
            errors={errors} addLabel="Add a minimum" minRows={0} labels={['Minimum', 'Minimum currency']} hint="Before the discount. A currency without one has no minimum." />
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

/**
 * Amounts in several currencies, one row each (amount and currency), as the API's lists take them:
 * each row's API errors show under its own inputs (`amountsOff[1].currency`: "EUR is listed twice").
 */
function MoneyRows({ id, field, legend, rows, onChange, errors, disabled = false, addLabel, minRows, labels, hint, extraError }: {
  id: string; field: string; legend: string; rows: MoneyRow[]; onChange: (rows: MoneyRow[]) => void; errors: FieldErrors;
  disabled?: boolean; addLabel: string; minRows: number; labels: [amount: string, currency: string]; hint?: string; extraError?: string;
}) {
  const numbered = (label: string, i: number) => (i === 0 ? label : `${label} ${i + 1}`);
  const change = (i: number, patch: Partial<MoneyRow>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const listError = errors.get(field) ?? extraError;
  return (
    <fieldset className="space-y-2 sm:col-span-2" aria-describedby={listError ? `${id}-error` : hint ? `${id}-hint` : undefined}>
      <legend className="text-sm font-medium leading-none">{legend}</legend>
      {rows.map((row, i) => (
        <div key={i} className="flex flex-wrap items-start gap-2">
          <TextField id={`${id}-${i}`} label={numbered(labels[0], i)} value={row.amount} onChange={(v) => change(i, { amount: v })} inputMode="decimal"
            disabled={disabled} className="w-28 sm:w-36" error={errors.get(`${field}[${i}].amount`)} />
          <CurrencyField id={`${id}-${i}-currency`} label={numbered(labels[1], i)} value={row.currency}
            onChange={(v) => change(i, { currency: v })} disabled={disabled} className="w-52 sm:w-64"
            error={errors.get(`${field}[${i}].currency`)} />
          {!disabled && rows.length > minRows && (
            <Button type="button" variant="ghost" size="icon" className="mt-5" onClick={() => onChange(rows.filter((_, j) => j !== i))}
              aria-label={`Remove ${row.currency || 'this row'} from ${legend.toLowerCase()}`} title="Remove"><XIcon /></Button>
          )}
        </div>
      ))}
      {!disabled && (
        <Button type="button" variant="outline" size="sm" onClick={() => onChange([...rows, { amount: '', currency: '' }])}>{addLabel}</Button>
      )}
      {listError ? <p id={`${id}-error`} className="text-sm text-destructive" data-field-error>{listError}</p>
        : hint && <p id={`${id}-hint`} className="text-xs text-muted-foreground">{hint}</p>}
    </fieldset>
  );
}
