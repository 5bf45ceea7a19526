import { ArrowDown, ArrowUp, Plus, Trash2 } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { fieldIdFromLabel } from './field-id.ts';
import { CheckField, CurrencyField, SelectField, TextField, choicesOf } from './fields.tsx';
import type { FieldErrors } from './form-errors.ts';
import { checkoutFieldTypes, emptyCheckoutField, emptyItem, itemRef, type CheckoutFieldForm, type ItemForm } from './product-form.ts';
import { move } from './TiersEditor.tsx';
import { ItemFile } from './ItemFile.tsx';
import { ImageField } from './form-parts.tsx';
import type { TypeShape } from './product-types.ts';

/** Messages under a list entry that no input of it shows. */
function Leftovers({ messages }: { messages: string[] }) {
  return messages.length ? <ul className="mt-2 list-disc pl-5 text-sm text-destructive">{messages.map((m) => <li key={m}>{m}</li>)}</ul> : null;
}

function RowButtons({ what, i, count, onMove, onRemove }: { what: string; i: number; count: number; onMove: (d: number) => void; onRemove: () => void }) {
  return (
    <div className="flex gap-1">
      <Button type="button" variant="ghost" size="icon" aria-label={`Move ${what} ${i + 1} up`} disabled={i === 0} onClick={() => onMove(-1)}><ArrowUp /></Button>
      <Button type="button" variant="ghost" size="icon" aria-label={`Move ${what} ${i + 1} down`} disabled={i === count - 1} onClick={() => onMove(1)}><ArrowDown /></Button>
      <Button type="button" variant="ghost" size="icon" aria-label={`Remove ${what} ${i + 1}`} onClick={onRemove}><Trash2 /></Button>
    </div>
  );
}

/**
 * Content items (files, lessons, sessions) and add-ons (an item with a price bought beside a
 * tier), named and shown as the product's type has them (product-types.ts): durations for
 * lessons and sessions, in minutes.
 */
export function ItemsEditor({ items, onChange, errors, productId, shape, currency }: {
  items: ItemForm[]; onChange: (items: ItemForm[]) => void; errors: FieldErrors; productId?: string; shape: TypeShape;
  /** The tiers' currency, which a new add-on's price starts in. */
  currency?: string;
}) {
  const set = (i: number, patch: Partial<ItemForm>) => onChange(items.map((it, j) => (j === i ? { ...it, ...patch } : it)));
  const one = shape.items.one;
  return (
    <div className="space-y-4">
      {!items.length && <p className="text-sm text-muted-foreground">Nothing here yet. Add {one === 'add-on' ? 'an add-on buyers can pick at checkout' : `the ${shape.items.title.toLowerCase()} a tier includes, or an add-on buyers can pick at checkout`}.</p>}
      {items.map((it, i) => {
        const p = `items[${i}]`;
        const id = `item-${i}`;
        const e = (f: string) => errors.get(`${p}.${f}`);
        const durations = shape.durations || it.duration.trim() !== '';
        // A message about an input the type hides goes under the item, so no error is lost.
        const fields = ['type', 'title', 'description', 'image', ...(durations ? ['duration'] : []), 'isAddon', 'price', 'price.amount', 'price.currency', 'parentId', 'archived', 'ref', 'id'];
        return (
          <fieldset key={it.key} className="rounded-lg border p-4" aria-label={`item ${i + 1}`}>
            <legend className="flex flex-wrap items-center gap-2 px-1 text-sm font-medium">
              {it.title || `New ${it.isAddon ? 'add-on' : one}`}
              {it.isAddon && <Badge variant="outline">add-on</Badge>}
              {it.archived && <Badge variant="secondary">archived</Badge>}
            </legend>
            <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
              <TextField id={`${id}-title`} label="Item title" value={it.title} onChange={(v) => set(i, { title: v })} error={e('title')} className="sm:col-span-2" />
              <TextField id={`${id}-type`} label="Kind" value={it.type} onChange={(v) => set(i, { type: v })} error={e('type')} hint="A word buyers see: file, lesson, session…" />
              {durations && <TextField id={`${id}-duration`} label="Duration (minutes)" inputMode="decimal" value={it.duration} onChange={(v) => set(i, { duration: v })} error={e('duration')} />}
              <TextField id={`${id}-description`} label="Description" value={it.description} onChange={(v) => set(i, { description: v })} error={e('description')} className="sm:col-span-2" />
              <ImageField id={`${id}-image`} label="Image address" value={it.image} onChange={(v) => set(i, { image: v })} error={e('image')} className="sm:col-span-2" />
              <TextField id={`${id}-price`} label={it.isAddon ? 'Add-on price' : 'Price (optional)'} inputMode="decimal" value={it.price} onChange={(v) => set(i, { price: v })}
                error={e('price.amount') ?? e('price')} />
              <CurrencyField id={`${id}-currency`} value={it.currency} onChange={(v) => set(i, { currency: v })} error={e('price.currency')} />
              <SelectField id={`${id}-parent`} label="Inside" value={it.parentId} onChange={(v) => set(i, { parentId: v })} error={e('parentId')} className="sm:col-span-2"
                choices={[{ value: 'none', label: 'Top level' }, ...items.filter((o, j) => j !== i && o.title).map((o) => ({ value: itemRef(o), label: o.title }))]} />
            </div>
            {!it.isAddon && (productId && it.id
              ? <ItemFile productId={productId} itemId={it.id} title={it.title} content={it.content} onStored={(content) => set(i, { content })} />
              : <p className="mt-4 text-sm text-muted-foreground">Save the product to upload a file here.</p>)}
            <div className="mt-4 flex flex-wrap items-center gap-x-6 gap-y-2">
              <CheckField id={`${id}-addon`} label="Add-on (bought beside a tier)" checked={it.isAddon} onChange={(v) => set(i, { isAddon: v })} error={e('isAddon')} />
              <CheckField id={`${id}-archived`} label="Archived" checked={it.archived} onChange={(v) => set(i, { archived: v })} error={e('archived')} />
              <div className="ml-auto">
                <RowButtons what="item" i={i} count={items.length} onMove={(d) => onChange(move(items, i, d))} onRemove={() => onChange(items.filter((_, j) => j !== i))} />
              </div>
            </div>
            <Leftovers messages={errors.under(p, (path) => fields.some((f) => path === `${p}.${f}`))} />
          </fieldset>
        );
      })}
      <Button type="button" variant="outline" onClick={() => onChange([...items, { ...emptyItem(), type: shape.items.kind, isAddon: shape.items.kind === 'addon', ...(currency ? { currency } : {}) }])}>
        <Plus aria-hidden /> Add {one}
      </Button>
    </div>
  );
}

/**
 * Questions asked at checkout. A new field's id (the key of its answer in formData and in
 * imports) is derived from its label by the server's own rule, shown as it is typed; a saved
 * field keeps its id whatever the label becomes.
 */
export function CheckoutFieldsEditor({ fields, onChange, errors }: { fields: CheckoutFieldForm[]; onChange: (f: CheckoutFieldForm[]) => void; errors: FieldErrors }) {
  const set = (i: number, patch: Partial<CheckoutFieldForm>) => onChange(fields.map((f, j) => (j === i ? { ...f, ...patch } : f)));
  return (
    <div className="space-y-4">
      {!fields.length && <p className="text-sm text-muted-foreground">Checkout always asks for name and email. Add a field to ask buyers anything else.</p>}
      {fields.map((f, i) => {
        const p = `checkoutFields[${i}]`;
        const id = `field-${i}`;
        const e = (k: string) => errors.get(`${p}.${k}`);
        const derived = f.id ?? (f.label.trim() ? fieldIdFromLabel(f.label) : '');
        return (
          <fieldset key={f.key} className="rounded-lg border p-4" aria-label={`checkout field ${i + 1}`}>
            <legend className="px-1 text-sm font-medium">{f.label || 'New field'}</legend>
            <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
              <TextField id={`${id}-label`} label="Question" value={f.label} onChange={(v) => set(i, { label: v })} error={e('label')} className="sm:col-span-2"
                hint={derived ? <>Answer key: <code data-testid={`${id}-derived-id`}>{derived}</code>{f.id ? ' (kept when the label changes)' : ''}</> : 'The answer key is derived from the label'} />
              <SelectField id={`${id}-type`} label="Answer type" value={f.type} onChange={(v) => set(i, { type: v })} error={e('type')} choices={choicesOf(checkoutFieldTypes)} />
              <div className="flex items-end pb-2">
                <CheckField id={`${id}-required`} label="Required" checked={f.required} onChange={(v) => set(i, { required: v })} error={e('required')} />
              </div>
              {f.type === 'select' && (
                <TextField id={`${id}-options`} label="Choices (comma separated)" value={f.options} onChange={(v) => set(i, { options: v })}
                  error={e('options') ?? errors.under(`${p}.options`, () => false)[0]} className="sm:col-span-2 lg:col-span-4" />
              )}
            </div>
            <div className="mt-2 flex justify-end">
              <RowButtons what="checkout field" i={i} count={fields.length} onMove={(d) => onChange(move(fields, i, d))} onRemove={() => onChange(fields.filter((_, j) => j !== i))} />
            </div>
            <Leftovers messages={errors.under(p, (path) => ['label', 'type', 'required', 'options', 'id'].some((k) => path === `${p}.${k}`) || path.startsWith(`${p}.options[`))} />
          </fieldset>
        );
      })}
      <Button type="button" variant="outline" onClick={() => onChange([...fields, emptyCheckoutField()])}><Plus aria-hidden /> Add checkout field</Button>
    </div>
  );
}
