import * as React from 'react';
import type { ApiKey } from '@/api';
import { useRollApiKey } from '@/hooks/api/keys';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { FormError } from '@/components/form';
import { OneTimeSecret } from '@/components/copy-button';
import { formatDate } from '@/lib/format';
import { keyName } from './key-names';

/** How long the old key keeps working after a roll (the server allows up to 7 days). */
export const graceChoices = [
  { seconds: 0, label: 'Stop it now' },
  { seconds: 3600, label: '1 hour' },
  { seconds: 86400, label: '24 hours' },
  { seconds: 3 * 86400, label: '3 days' },
  { seconds: 7 * 86400, label: '7 days' },
];

export function RollKeyDialog({ apiKey, onClose }: { apiKey: ApiKey; onClose: () => void }) {
  const [grace, setGrace] = React.useState('86400');
  const roll = useRollApiKey(apiKey.id);
  return (
    <Dialog open onOpenChange={(open) => { if (!open) onClose(); }}>
      <DialogContent>
        {roll.data ? (
          <>
            <DialogHeader>
              <DialogTitle>{keyName(apiKey)} rolled</DialogTitle>
              <DialogDescription>
                {roll.data.previous.expiresAt && new Date(roll.data.previous.expiresAt) > new Date()
                  ? `The old key keeps working until ${formatDate(roll.data.previous.expiresAt)}. Put the new one in place before then.`
                  : 'The old key has stopped working.'}
              </DialogDescription>
            </DialogHeader>
            <OneTimeSecret value={roll.data.key.key} label="New secret key" testId="rolled-key" />
            <DialogFooter><Button onClick={onClose}>Done</Button></DialogFooter>
          </>
        ) : (
          <form
            className="grid gap-4"
            onSubmit={(e) => {
              e.preventDefault();
              roll.mutate(Number(grace));
            }}
          >
            <DialogHeader>
              <DialogTitle>Roll {keyName(apiKey)}</DialogTitle>
              <DialogDescription>
                You get a new key with the same name, mode and scopes. Roll a key when it may have leaked, or on a schedule.
              </DialogDescription>
            </DialogHeader>
            <FormError error={roll.error} />
            <div className="grid gap-1.5">
              <Label htmlFor="grace">Keep the old key working for</Label>
              <Select value={grace} onValueChange={setGrace}>
                <SelectTrigger id="grace" className="w-full"><SelectValue /></SelectTrigger>
                <SelectContent>
                  {graceChoices.map((c) => <SelectItem key={c.seconds} value={String(c.seconds)}>{c.label}</SelectItem>)}
                </SelectContent>
              </Select>
              <p className="text-xs text-muted-foreground">If the key leaked, stop it now.</p>
            </div>
            <DialogFooter>
              <Button type="button" variant="outline" onClick={onClose}>Cancel</Button>
              <Button type="submit" disabled={roll.isPending}>Roll key</Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
