import * as React from 'react';
import { AlertCircle } from 'lucide-react';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { errorDetails, errorMessage, fieldErrorOf } from '@/api';
import { cn } from '@/lib/utils';

/**
 * A labelled input with its validation message beside it: the message is the API's
 * `data.details[].message` for this field, so the page shows the server's rule, not a copy of it.
 */
export function Field({ label, name, error, hint, className, ...props }:
  React.ComponentProps<typeof Input> & { label: string; name: string; error?: string; hint?: string }) {
  const id = props.id ?? `field-${name}`;
  const describedBy = [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={cn('grid gap-1.5', className)}>
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} name={name} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...props} />
      {hint && !error && <p id={`${id}-hint`} className="text-xs text-muted-foreground">{hint}</p>}
      {error && <FieldError id={`${id}-error`}>{error}</FieldError>}
    </div>
  );
}

export function FieldError({ id, children }: { id?: string; children: React.ReactNode }) {
  return <p id={id} role="alert" className="text-sm text-destructive">{children}</p>;
}

/** The form-level error: the envelope's message, unless every problem already sits beside a field. */
export function FormError({ error, fields = [] }: { error: unknown; fields?: string[] }) {
  if (!error) return null;
  const details = errorDetails(error);
  if (details.length > 0 && details.every((d) => d.field && fields.some((f) => fieldErrorOf(error, f) === d.message))) return null;
  const message = errorMessage(error);
  return (
    <div role="alert" className="flex items-start gap-2 rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm text-destructive">
      <AlertCircle className="mt-0.5 size-4 shrink-0" aria-hidden />
      <span>{message}</span>
    </div>
  );
}

/** The per-field message of a failed mutation, for `<Field error={fieldError(m.error, 'email')} />`. */
export function fieldError(error: unknown, field: string): string | undefined {
  return fieldErrorOf(error, field);
}

/** Reads a form's named values as strings. */
export function formValues(form: HTMLFormElement): Record<string, string> {
  const out: Record<string, string> = {};
  new FormData(form).forEach((v, k) => { if (typeof v === 'string') out[k] = v; });
  return out;
}
