import { useState, type ReactNode } from 'react';
import { TextField } from './fields.tsx';
import { formProblem, type FieldErrors } from './form-errors.ts';

/** The line above a refused form: how many fields need a change, and the problems no input shows. */
export function FormProblem({ errors, loose = [] }: { errors: FieldErrors; loose?: string[] }) {
  return (
    <div role="alert" className="rounded-md border border-destructive/50 p-3 text-sm text-destructive">
      <p>{formProblem(errors)}</p>
      {loose.length > 0 && <ul className="mt-2 list-disc pl-5">{loose.map((m) => <li key={m}>{m}</li>)}</ul>}
    </div>
  );
}

const isWebAddress = (v: string) => /^https?:\/\/[^\s/]+\.[^\s]+/.test(v.trim());

/**
 * An image given by its web address, previewed as it is typed. The service has no image store
 * of its own for product images (item files are private to buyers), so the image lives where
 * the creator already hosts it.
 */
export function ImageField({ id, label, value, onChange, error, className }: {
  id: string; label: string; value: string; onChange: (v: string) => void; error?: string; className?: string;
}) {
  const [broken, setBroken] = useState<string | null>(null);
  const url = value.trim();
  let note: ReactNode = 'A web address starting with https://';
  if (url && !isWebAddress(url)) note = 'Enter the full address, starting with https://';
  else if (url && broken === url) note = 'No image could be loaded from this address';
  return (
    <div className={className}>
      <div className="flex items-start gap-3">
        <TextField id={id} label={label} type="url" value={value} onChange={onChange} error={error} hint={note} placeholder="https://…" className="min-w-0 flex-1" />
        {url && isWebAddress(url) && broken !== url && (
          <img src={url} alt="" data-testid={`${id}-preview`} onError={() => setBroken(url)} onLoad={() => setBroken(null)}
            className="mt-6 size-16 shrink-0 rounded-md border object-cover" />
        )}
      </div>
    </div>
  );
}
