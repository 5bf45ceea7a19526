import type { EventType } from '@creator-commerce/sdk';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { Field, FieldError, FormError, fieldError } from '@/components/form';
import { describeEventType, eventTypes } from './event-types';

export interface EndpointValues { url: string; description: string; events: EventType[] }

/** URL, description and subscribed events: the fields of creating and of editing an endpoint. */
export function EndpointFields({ values, onChange, error }:
  { values: EndpointValues; onChange: (v: EndpointValues) => void; error: unknown }) {
  const toggle = (t: EventType, on: boolean) => onChange({ ...values, events: on ? [...values.events, t] : values.events.filter((x) => x !== t) });
  const eventsError = fieldError(error, 'events');
  const all = values.events.length === eventTypes.length;
  return (
    <>
      <FormError error={error} fields={['url', 'description', 'events']} />
      <Field label="Endpoint URL" name="url" type="url" inputMode="url" required placeholder="https://example.com/webhooks"
        value={values.url} onChange={(e) => onChange({ ...values, url: e.target.value })}
        hint="https:// (test mode also accepts http://localhost)." error={fieldError(error, 'url')} />
      <Field label="Description (optional)" name="description" value={values.description} maxLength={500}
        onChange={(e) => onChange({ ...values, description: e.target.value })} error={fieldError(error, 'description')} />
      <fieldset className="grid gap-2">
        <legend className="mb-1 flex w-full items-center justify-between text-sm font-medium">
          Events to send
          <Button type="button" variant="link" size="sm" className="h-auto p-0" onClick={() => onChange({ ...values, events: all ? [] : [...eventTypes] })}>
            {all ? 'Clear all' : 'Select all'}
          </Button>
        </legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {eventTypes.map((t) => (
            <div key={t} className="flex items-start gap-3 rounded-md border p-2.5">
              <Checkbox id={`event-${t}`} className="mt-0.5" checked={values.events.includes(t)} onCheckedChange={(v) => toggle(t, v === true)} />
              <Label htmlFor={`event-${t}`} className="grid gap-0.5 font-normal">
                <span className="font-mono text-xs font-medium">{t}</span>
                <span className="text-xs text-muted-foreground">{describeEventType(t)}</span>
              </Label>
            </div>
          ))}
        </div>
        {eventsError && <FieldError>{eventsError}</FieldError>}
      </fieldset>
    </>
  );
}
