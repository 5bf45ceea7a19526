import { useState, type FormEvent } from 'react';
import { ApiError } from '@/api';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ErrorNote } from '../people/parts.tsx';
import { SelectField, TextAreaField, TextField, choicesOf } from './fields.tsx';
import { FieldErrors, noErrors } from './form-errors.ts';
import { CheckoutFieldsEditor, ItemsEditor } from './ItemsEditor.tsx';
import { eventTypes, productStatuses, productTypes, visibilities, type ProductForm } from './product-form.ts';
import { TiersEditor } from './TiersEditor.tsx';
import { ShippingEditor } from './ShippingEditor.tsx';

const topFields = ['type', 'title', 'description', 'imageUrl', 'visibility', 'status', 'keywords', 'event', 'event.eventType', 'event.venue', 'event.dateTime', 'event.endDate'];
const listRoots = ['tiers', 'items', 'checkoutFields'];

/**
 * The product form, for a new product and an existing one. `save` sends the body and resolves
 * once the saved product has been read back into the form; an API validation error puts each
 * message beside its field.
 */
export function ProductEditor({ initial, save, submitLabel, productId }: {
  initial: ProductForm;
  /** A saved product's id: its saved items can get files. */
  productId?: string;
  save: (form: ProductForm) => Promise<void>;
  submitLabel: string;
}) {
  const [form, setForm] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>(noErrors);
  const [failure, setFailure] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  const set = (patch: Partial<ProductForm>) => setForm((f) => ({ ...f, ...patch }));
  const e = (f: string) => errors.get(f);

  const submit = async (ev: FormEvent) => {
    ev.preventDefault();
    setSaving(true);
    setFailure(null);
    try {
      await save(form);
      setErrors(noErrors);
    } catch (err) {
      setErrors(err instanceof ApiError && err.details.length ? new FieldErrors(err.details) : noErrors);
      setFailure(err);
      // Bring the first flagged field into view, after React has rendered the messages.
      requestAnimationFrame(() => document.querySelector('[aria-invalid="true"]')?.scrollIntoView({ block: 'center' }));
    } finally {
      setSaving(false);
    }
  };

  // Problems no input shows (a rule about the product as a whole): listed under the summary.
  const loose = [...errors.byPath].filter(([p]) => !topFields.includes(p) && !listRoots.some((r) => p.startsWith(`${r}[`))).map(([p, m]) => (p ? `${p}: ${m}` : m));

  return (
    <form onSubmit={submit} noValidate className="space-y-6">
      {failure !== null && (
        <div>
          <ErrorNote error={failure} />
          {loose.length > 0 && <ul className="mt-2 list-disc pl-5 text-sm text-destructive">{loose.map((m) => <li key={m}>{m}</li>)}</ul>}
        </div>
      )}
      <Card>
        <CardHeader>
          <CardTitle>Product</CardTitle>
          <CardDescription>What buyers see on the checkout page.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4 sm:grid-cols-2">
          <TextField id="product-title" label="Title" value={form.title} onChange={(v) => set({ title: v })} error={e('title')} className="sm:col-span-2" />
          <SelectField id="product-type" label="Type" value={form.type} onChange={(v) => set({ type: v })} error={e('type')} choices={choicesOf(productTypes)} />
          <SelectField id="product-status" label="Status" value={form.status} onChange={(v) => set({ status: v })} error={e('status')} choices={choicesOf(productStatuses)}
            hint="Only published products are on sale" />
          <SelectField id="product-visibility" label="Visibility" value={form.visibility} onChange={(v) => set({ visibility: v })} error={e('visibility')} choices={choicesOf(visibilities)} />
          <TextField id="product-image" label="Image URL" type="url" value={form.imageUrl} onChange={(v) => set({ imageUrl: v })} error={e('imageUrl')} placeholder="https://…" />
          <TextAreaField id="product-description" label="Description" value={form.description} onChange={(v) => set({ description: v })} error={e('description')} className="sm:col-span-2" rows={4} />
          <TextField id="product-keywords" label="Keywords (comma separated)" value={form.keywords} onChange={(v) => set({ keywords: v })}
            error={e('keywords') ?? errors.under('keywords', () => false)[0]} className="sm:col-span-2" />
        </CardContent>
      </Card>

      {(form.type === 'event' || form.hadEvent || form.venue || form.dateTime) && (
        <Card>
          <CardHeader>
            <CardTitle>Event details</CardTitle>
            <CardDescription>Where and when it happens; an event product needs them.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4 sm:grid-cols-2">
            <SelectField id="event-type" label="Event type" value={form.eventType} onChange={(v) => set({ eventType: v })} error={e('event.eventType')} choices={choicesOf(eventTypes)} />
            <TextField id="event-venue" label="Venue or link" value={form.venue} onChange={(v) => set({ venue: v })} error={e('event.venue') ?? e('event')} />
            <TextField id="event-start" label="Starts" type="datetime-local" value={form.dateTime} onChange={(v) => set({ dateTime: v })} error={e('event.dateTime')} />
            <TextField id="event-end" label="Ends (optional)" type="datetime-local" value={form.endDate} onChange={(v) => set({ endDate: v })} error={e('event.endDate')} />
          </CardContent>
        </Card>
      )}

      {form.type === 'physical' && (
        <Card>
          <CardHeader>
            <CardTitle>Shipping</CardTitle>
            <CardDescription>How buyers get it: delivery zones with a price per currency, and pickup points. Buyers choose one at checkout; leave both empty to sell without either.</CardDescription>
          </CardHeader>
          <CardContent>
            <ShippingEditor value={form.shipping} onChange={(shipping) => set({ shipping })} errors={errors} />
          </CardContent>
        </Card>
      )}

      <Card>
        <CardHeader>
          <CardTitle>Tiers</CardTitle>
          <CardDescription>The ways to buy it. The default tier is preselected at checkout.</CardDescription>
        </CardHeader>
        <CardContent>
          {e('tiers') && <p className="mb-3 text-sm text-destructive" data-field-error>{e('tiers')}</p>}
          <TiersEditor tiers={form.tiers} onChange={(tiers) => set({ tiers })} errors={errors} items={form.items} />
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Content and add-ons</CardTitle>
          <CardDescription>What a tier includes, and extras bought beside it.</CardDescription>
        </CardHeader>
        <CardContent>
          {e('items') && <p className="mb-3 text-sm text-destructive" data-field-error>{e('items')}</p>}
          <ItemsEditor items={form.items} onChange={(items) => set({ items })} errors={errors} productId={productId} />
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Checkout fields</CardTitle>
          <CardDescription>Questions buyers answer when they pay.</CardDescription>
        </CardHeader>
        <CardContent>
          {e('checkoutFields') && <p className="mb-3 text-sm text-destructive" data-field-error>{e('checkoutFields')}</p>}
          <CheckoutFieldsEditor fields={form.checkoutFields} onChange={(checkoutFields) => set({ checkoutFields })} errors={errors} />
        </CardContent>
      </Card>

      <div className="sticky bottom-0 z-10 -mx-1 flex justify-end gap-2 border-t bg-background/95 px-1 py-3 backdrop-blur">
        <Button type="submit" disabled={saving}>{saving ? 'Saving…' : submitLabel}</Button>
      </div>
    </form>
  );
}
