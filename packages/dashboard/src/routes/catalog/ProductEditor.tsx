import { useState, type FormEvent } from 'react';
import { errorDetails } from '@/api';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ErrorNote } from '../people/parts.tsx';
import { SelectField, TextAreaField, TextField, choicesOf } from './fields.tsx';
import { FieldErrors, noErrors } from './form-errors.ts';
import { FormProblem, ImageField } from './form-parts.tsx';
import { CheckoutFieldsEditor, ItemsEditor } from './ItemsEditor.tsx';
import { eventTypes, productTypes, visibilities, type ProductForm } from './product-form.ts';
import { shapeOf, showsEvent, typeShapes } from './product-types.ts';
import { TiersEditor } from './TiersEditor.tsx';
import { ShippingEditor } from './ShippingEditor.tsx';

const topFields = ['type', 'title', 'description', 'imageUrl', 'visibility', 'status', 'keywords', 'event', 'event.eventType', 'event.venue', 'event.dateTime', 'event.endDate'];
const listRoots = ['tiers', 'items', 'checkoutFields'];
const eventTypeWords: Record<string, string> = { in_person: 'In person', online: 'Online', hybrid: 'In person and online' };

/**
 * The product form, for a new product and an existing one. It shows the fields of the chosen
 * type (product-types.ts). `save` sends the body and resolves once the saved product has been
 * read back into the form; an API validation error puts each message, in words, beside its field.
 * Archiving is the product page's button, not a status here.
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
  const shape = shapeOf(form.type);

  const submit = async (ev: FormEvent) => {
    ev.preventDefault();
    setSaving(true);
    setFailure(null);
    try {
      await save(form);
      setErrors(noErrors);
    } catch (err) {
      setErrors(errorDetails(err).length ? new FieldErrors(errorDetails(err)) : noErrors);
      setFailure(err);
      // Bring the first flagged field into view, after React has rendered the messages.
      requestAnimationFrame(() => document.querySelector('[aria-invalid="true"]')?.scrollIntoView({ block: 'center' }));
    } finally {
      setSaving(false);
    }
  };

  // Problems no input shows (a rule about the product as a whole): listed under the summary.
  const loose = [...errors.byPath].filter(([p]) => !topFields.includes(p) && !listRoots.some((r) => p.startsWith(`${r}[`))).map(([, m]) => m);
  // A stored status the picker does not offer (archived) stays visible as it is.
  const statusChoices = [{ value: 'draft', label: 'Draft (not on sale)' }, { value: 'published', label: 'Published' },
    ...(form.status === 'archived' ? [{ value: 'archived', label: 'Archived' }] : [])];

  return (
    <form onSubmit={submit} noValidate className="space-y-6">
      {failure !== null && (errors.size ? <FormProblem errors={errors} loose={loose} /> : <ErrorNote error={failure} />)}
      <Card>
        <CardHeader>
          <CardTitle>Product</CardTitle>
          <CardDescription>What buyers see on the checkout page.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4 sm:grid-cols-2">
          <TextField id="product-title" label="Title" value={form.title} onChange={(v) => set({ title: v })} error={e('title')} className="sm:col-span-2" />
          <SelectField id="product-type" label="Type" value={form.type} onChange={(v) => set({ type: v })} error={e('type')}
            choices={productTypes.includes(form.type as never) ? productTypes.map((t) => ({ value: t, label: typeShapes[t].label })) : [{ value: form.type, label: shape.label }, ...productTypes.map((t) => ({ value: t, label: typeShapes[t].label }))]}
            hint="The fields below follow the type" />
          <SelectField id="product-status" label="Status" value={form.status} onChange={(v) => set({ status: v })} error={e('status')} choices={statusChoices}
            hint="Only published products are on sale" />
          <SelectField id="product-visibility" label="Visibility" value={form.visibility} onChange={(v) => set({ visibility: v })} error={e('visibility')} choices={choicesOf(visibilities)}
            hint="Unlisted: only people with the link" />
          <ImageField id="product-image" label="Image address" value={form.imageUrl} onChange={(v) => set({ imageUrl: v })} error={e('imageUrl')} />
          <TextAreaField id="product-description" label="Description" value={form.description} onChange={(v) => set({ description: v })} error={e('description')} className="sm:col-span-2" rows={4} />
          <TextField id="product-keywords" label="Keywords (comma separated)" value={form.keywords} onChange={(v) => set({ keywords: v })}
            error={e('keywords') ?? errors.under('keywords', () => false)[0]} className="sm:col-span-2" />
        </CardContent>
      </Card>

      {showsEvent(form) && (
        <Card>
          <CardHeader>
            <CardTitle>Date and place</CardTitle>
            <CardDescription>When it happens and where buyers go; an event needs them.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4 sm:grid-cols-2">
            <TextField id="event-start" label="Starts" type="datetime-local" value={form.dateTime} onChange={(v) => set({ dateTime: v })} error={e('event.dateTime') ?? e('event')} />
            <TextField id="event-end" label="Ends (optional)" type="datetime-local" value={form.endDate} onChange={(v) => set({ endDate: v })} error={e('event.endDate')} />
            <SelectField id="event-type" label="Where" value={form.eventType} onChange={(v) => set({ eventType: v })} error={e('event.eventType')}
              choices={eventTypes.map((t) => ({ value: t, label: eventTypeWords[t] ?? t }))} />
            <TextField id="event-venue" label={form.eventType === 'online' ? 'Link to join' : 'Venue'} value={form.venue} onChange={(v) => set({ venue: v })} error={e('event.venue')}
              hint={form.eventType === 'hybrid' ? 'The address, and the link in the description' : undefined} />
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
          <CardTitle>{shape.tickets ? 'Tickets' : 'Prices'}</CardTitle>
          <CardDescription>The ways to buy it. The default one is preselected at checkout.</CardDescription>
        </CardHeader>
        <CardContent>
          {e('tiers') && <p className="mb-3 text-sm text-destructive" data-field-error>{e('tiers')}</p>}
          <TiersEditor tiers={form.tiers} onChange={(tiers) => set({ tiers })} errors={errors} items={form.items} shape={shape} what={shape.tickets ? 'ticket type' : 'tier'} />
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>{shape.items.title}</CardTitle>
          <CardDescription>{shape.items.description}</CardDescription>
        </CardHeader>
        <CardContent>
          {e('items') && <p className="mb-3 text-sm text-destructive" data-field-error>{e('items')}</p>}
          <ItemsEditor items={form.items} onChange={(items) => set({ items })} errors={errors} productId={productId} shape={shape} currency={form.tiers[0]?.currency} />
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Checkout questions</CardTitle>
          <CardDescription>Questions buyers answer when they pay.</CardDescription>
        </CardHeader>
        <CardContent>
          {e('checkoutFields') && <p className="mb-3 text-sm text-destructive" data-field-error>{e('checkoutFields')}</p>}
          <CheckoutFieldsEditor fields={form.checkoutFields} onChange={(checkoutFields) => set({ checkoutFields })} errors={errors} />
        </CardContent>
      </Card>

      <SaveBar saving={saving} label={submitLabel} />
    </form>
  );
}

/** The bar the editors' submit button sits in, kept in view at the bottom of the window. */
export function SaveBar({ saving, label }: { saving: boolean; label: string }) {
  return (
    <div className="sticky bottom-0 z-10 -mx-1 flex justify-end gap-2 border-t bg-background/95 px-1 py-3 backdrop-blur">
      <Button type="submit" disabled={saving}>{saving ? 'Saving…' : label}</Button>
    </div>
  );
}
