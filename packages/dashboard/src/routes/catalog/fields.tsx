import type { ReactNode } from 'react';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Textarea } from '@/components/ui/textarea';
import { cn } from '@/lib/utils';
import { currencyChoicesWith } from './currencies.ts';

/**
 * Labelled inputs whose API error shows right under them: the input is marked aria-invalid and
 * described by the message, so a screen reader reads it too.
 */

function Message({ id, error, hint }: { id: string; error?: string; hint?: ReactNode }) {
  return (
    <>
      {hint && !error && <p id={`${id}-hint`} className="text-xs text-muted-foreground">{hint}</p>}
      {error && <p id={`${id}-error`} className="text-sm text-destructive" data-field-error>{error}</p>}
    </>
  );
}

const described = (id: string, error?: string, hint?: ReactNode) =>
  ({ 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? `${id}-error` : hint ? `${id}-hint` : undefined });

export function TextField({ id, label, value, onChange, error, hint, className, ...rest }: {
  id: string; label: string; value: string; onChange: (v: string) => void; error?: string; hint?: ReactNode; className?: string;
} & Omit<React.ComponentProps<'input'>, 'value' | 'onChange' | 'id'>) {
  return (
    <div className={cn('space-y-1.5', className)}>
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} value={value} onChange={(e) => onChange(e.target.value)} {...described(id, error, hint)} {...rest} />
      <Message id={id} error={error} hint={hint} />
    </div>
  );
}

export function TextAreaField({ id, label, value, onChange, error, hint, className, rows = 3 }: {
  id: string; label: string; value: string; onChange: (v: string) => void; error?: string; hint?: ReactNode; className?: string; rows?: number;
}) {
  return (
    <div className={cn('space-y-1.5', className)}>
      <Label htmlFor={id}>{label}</Label>
      <Textarea id={id} rows={rows} value={value} onChange={(e) => onChange(e.target.value)} {...described(id, error, hint)} />
      <Message id={id} error={error} hint={hint} />
    </div>
  );
}

export interface Choice { value: string; label: string }

export function SelectField({ id, label, value, onChange, choices, error, hint, className }: {
  id: string; label: string; value: string; onChange: (v: string) => void; choices: Choice[]; error?: string; hint?: ReactNode; className?: string;
}) {
  return (
    <div className={cn('space-y-1.5', className)}>
      <Label htmlFor={id}>{label}</Label>
      <Select value={value} onValueChange={onChange}>
        <SelectTrigger id={id} className="w-full" {...described(id, error, hint)}><SelectValue /></SelectTrigger>
        <SelectContent>
          {choices.map((c) => <SelectItem key={c.value} value={c.value}>{c.label}</SelectItem>)}
        </SelectContent>
      </Select>
      <Message id={id} error={error} hint={hint} />
    </div>
  );
}

export function CheckField({ id, label, checked, onChange, error, className }: {
  id: string; label: string; checked: boolean; onChange: (v: boolean) => void; error?: string; className?: string;
}) {
  return (
    <div className={cn('space-y-1', className)}>
      <div className="flex items-center gap-2">
        <Checkbox id={id} checked={checked} onCheckedChange={(v) => onChange(v === true)} {...described(id, error)} />
        <Label htmlFor={id} className="font-normal">{label}</Label>
      </div>
      <Message id={id} error={error} />
    </div>
  );
}

/** Capitalised words from an API value: `pay_what_you_want` → "Pay what you want". */
export const titleCase = (v: string) => (v ? v[0].toUpperCase() + v.slice(1).replaceAll('_', ' ') : v);
export const choicesOf = (values: readonly string[]): Choice[] => values.map((v) => ({ value: v, label: titleCase(v) }));

/**
 * A currency from the ISO 4217 list (currencies.ts). Typing the code's letters on the open list
 * jumps to it, as any select does.
 */
export function CurrencyField({ id, label = 'Currency', value, onChange, error, hint, className, disabled }: {
  id: string; label?: string; value: string; onChange: (v: string) => void; error?: string; hint?: ReactNode; className?: string; disabled?: boolean;
}) {
  return (
    <div className={cn('space-y-1.5', className)}>
      <Label htmlFor={id}>{label}</Label>
      <Select value={value} onValueChange={onChange} disabled={disabled}>
        <SelectTrigger id={id} className="w-full" {...described(id, error, hint)}><SelectValue placeholder="Choose a currency" /></SelectTrigger>
        <SelectContent className="max-h-72">
          {currencyChoicesWith(value).map((c) => <SelectItem key={c.value} value={c.value}>{c.label}</SelectItem>)}
        </SelectContent>
      </Select>
      <Message id={id} error={error} hint={hint} />
    </div>
  );
}
