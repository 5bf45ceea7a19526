import { useState, type FormEvent } from 'react';
import { errorDetails } from '@/api';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ErrorNote } from '../people/parts.tsx';
import { TextAreaField, TextField } from './fields.tsx';
import { FieldErrors, noErrors } from './form-errors.ts';
import { FormProblem } from './form-parts.tsx';
import { SaveBar } from './ProductEditor.tsx';
import type { HubForm } from './product-form.ts';
import { TiersEditor } from './TiersEditor.tsx';

/** A hub (a membership community) and its membership tiers. */
export function HubEditor({ initial, save, submitLabel }: { initial: HubForm; save: (f: HubForm) => Promise<void>; submitLabel: string }) {
  const [form, setForm] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>(noErrors);
  const [failure, setFailure] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
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
  return (
    <form onSubmit={submit} noValidate className="space-y-6">
      {failure !== null && (errors.size ? <FormProblem errors={errors} loose={[...errors.byPath].filter(([p]) => !['name', 'description', 'tiers'].includes(p) && !p.startsWith('tiers[')).map(([, m]) => m)} /> : <ErrorNote error={failure} />)}
      <Card>
        <CardHeader>
          <CardTitle>Hub</CardTitle>
          <CardDescription>A community people join on one of its membership tiers.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <TextField id="hub-name" label="Name" value={form.name} onChange={(v) => setForm({ ...form, name: v })} error={errors.get('name')} />
          <TextAreaField id="hub-description" label="Description" value={form.description} onChange={(v) => setForm({ ...form, description: v })} error={errors.get('description')} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Membership tiers</CardTitle>
          <CardDescription>The plans people join on: free, one-off or recurring.</CardDescription>
        </CardHeader>
        <CardContent>
          {errors.get('tiers') && <p className="mb-3 text-sm text-destructive" data-field-error>{errors.get('tiers')}</p>}
          <TiersEditor tiers={form.tiers} onChange={(tiers) => setForm({ ...form, tiers })} errors={errors} what="membership tier" />
        </CardContent>
      </Card>
      <SaveBar saving={saving} label={submitLabel} />
    </form>
  );
}
