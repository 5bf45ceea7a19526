import * as React from 'react';
import type { Mode } from '@/api';
import { useCreateApiKey, usePing } from '@/hooks/api/keys';
import { useCurrentSession } from '@/lib/session';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Field, FieldError, FormError, fieldError } from '@/components/form';
import { OneTimeSecret } from '@/components/copy-button';
import { scopeSentences } from './scopes';

/**
 * The scopes this server knows, each with its sentence. An owner's session holds every scope the
 * server has (`GET /ping` lists them), so a scope this build does not have yet is not offered.
 */
function useScopeChoices() {
  const session = useCurrentSession();
  const ping = usePing();
  if (session.brand.role !== 'owner' || !ping.data) return scopeSentences;
  const known = new Set(ping.data.scopes);
  const described = new Set(scopeSentences.map((s) => s.scope));
  return [
    ...scopeSentences.filter((s) => known.has(s.scope)),
    ...ping.data.scopes.filter((s) => !described.has(s)).map((scope) => ({ scope, sentence: 'A scope of this server.' })),
  ];
}

export function CreateKeyDialog({ open, onOpenChange, mode }: { open: boolean; onOpenChange: (open: boolean) => void; mode: Mode }) {
  const scopeChoices = useScopeChoices();
  const [name, setName] = React.useState('');
  const [scopes, setScopes] = React.useState<string[]>([]);
  const create = useCreateApiKey();
  const close = (next: boolean) => {
    if (!next) {
      setName('');
      setScopes([]);
      create.reset();
    }
    onOpenChange(next);
  };
  const toggle = (scope: string, on: boolean) => setScopes((s) => (on ? [...s, scope] : s.filter((x) => x !== scope)));
  const scopesError = fieldError(create.error, 'scopes');

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent>
        {create.data ? (
          <>
            <DialogHeader>
              <DialogTitle>Your new key</DialogTitle>
              <DialogDescription>{create.data.name ?? 'Unnamed key'}: a {create.data.mode} key with {create.data.scopes.length} scope{create.data.scopes.length === 1 ? '' : 's'}.</DialogDescription>
            </DialogHeader>
            <OneTimeSecret value={create.data.key} label="Secret key" testId="new-key" />
            <DialogFooter><Button onClick={() => close(false)}>Done</Button></DialogFooter>
          </>
        ) : (
          <form
            className="grid gap-4"
            onSubmit={(e) => {
              e.preventDefault();
              create.mutate({ name, scopes });
            }}
          >
            <DialogHeader>
              <DialogTitle>Create a {mode} key</DialogTitle>
              <DialogDescription>It acts on {mode} data only. Give it only the scopes your code needs.</DialogDescription>
            </DialogHeader>
            <FormError error={create.error} fields={['name', 'scopes']} />
            <Field label="Name" name="name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={100}
              hint="Where it is used, e.g. “Shop backend”." error={fieldError(create.error, 'name')} />
            <fieldset className="grid gap-2" aria-describedby={scopesError ? 'scopes-error' : undefined}>
              <legend className="mb-1 flex w-full items-center justify-between text-sm font-medium">
                Scopes
                <Button type="button" variant="link" size="sm" className="h-auto p-0"
                  onClick={() => setScopes(scopes.length === scopeChoices.length ? [] : scopeChoices.map((s) => s.scope))}>
                  {scopes.length === scopeChoices.length ? 'Clear all' : 'Select all'}
                </Button>
              </legend>
              {scopeChoices.map(({ scope, sentence }) => (
                <div key={scope} className="flex items-start gap-3 rounded-md border p-2.5">
                  <Checkbox id={`scope-${scope}`} className="mt-0.5" checked={scopes.includes(scope)} onCheckedChange={(v) => toggle(scope, v === true)} />
                  <Label htmlFor={`scope-${scope}`} className="grid gap-0.5 font-normal">
                    <span className="font-mono text-xs font-medium">{scope}</span>
                    <span className="text-muted-foreground">{sentence}</span>
                  </Label>
                </div>
              ))}
              {scopesError && <FieldError id="scopes-error">{scopesError}</FieldError>}
            </fieldset>
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => close(false)}>Cancel</Button>
              <Button type="submit" disabled={create.isPending}>Create key</Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
