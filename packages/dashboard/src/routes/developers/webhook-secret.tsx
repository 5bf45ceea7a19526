import * as React from 'react';
import { Eye, EyeOff, RefreshCw } from 'lucide-react';
import { useRevealWebhookSecret, useRollWebhookSecret } from '@/hooks/api/webhooks';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { CopyButton, OneTimeSecret } from '@/components/copy-button';
import { FormError } from '@/components/form';
import { formatDate } from '@/lib/format';

/** How long the old secret keeps signing beside the new one (Standard Webhooks sends both signatures). */
const overlapChoices = [
  { seconds: 0, label: 'Stop signing with it now' },
  { seconds: 3600, label: '1 hour' },
  { seconds: 86400, label: '24 hours' },
  { seconds: 3 * 86400, label: '3 days' },
  { seconds: 7 * 86400, label: '7 days' },
];

/** The endpoint's signing secret: hidden until revealed, and rolled with a chosen overlap. */
export function SigningSecret({ endpointId }: { endpointId: string }) {
  const reveal = useRevealWebhookSecret(endpointId);
  const [shown, setShown] = React.useState(false);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Signing secret</CardTitle>
        <CardDescription>Your server checks every delivery's signature with it. Roll it if it may have leaked.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <FormError error={reveal.error} />
        <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
          <code data-testid="revealed-secret" className="min-w-0 flex-1 rounded-md border bg-muted px-3 py-2 font-mono text-sm break-all">
            {shown && reveal.data ? reveal.data.signingSecret : 'whsec_••••••••••••••••••••••••'}
          </code>
          <div className="flex gap-2">
            <Button variant="outline" size="sm" disabled={reveal.isPending}
              onClick={() => { if (shown) setShown(false); else reveal.mutate(undefined, { onSuccess: () => setShown(true) }); }}>
              {shown ? <EyeOff aria-hidden /> : <Eye aria-hidden />} {shown ? 'Hide' : 'Reveal'}
            </Button>
            {shown && reveal.data && <CopyButton value={reveal.data.signingSecret} />}
            <RollSecretDialog endpointId={endpointId} onRolled={() => { setShown(false); reveal.reset(); }} />
          </div>
        </div>
      </CardContent>
    </Card>
  );
}

function RollSecretDialog({ endpointId, onRolled }: { endpointId: string; onRolled: () => void }) {
  const [open, setOpen] = React.useState(false);
  const [overlap, setOverlap] = React.useState('86400');
  const roll = useRollWebhookSecret(endpointId, { onSuccess: onRolled });
  return (
    <Dialog open={open} onOpenChange={(o) => { setOpen(o); if (!o) roll.reset(); }}>
      <DialogTrigger asChild><Button variant="outline" size="sm"><RefreshCw aria-hidden /> Roll</Button></DialogTrigger>
      <DialogContent>
        {roll.data ? (
          <>
            <DialogHeader>
              <DialogTitle>Secret rolled</DialogTitle>
              <DialogDescription>
                {roll.data.previousSecretExpiresAt
                  ? `Deliveries carry signatures with both secrets until ${formatDate(roll.data.previousSecretExpiresAt)}. Put the new one in place before then.`
                  : 'Deliveries are signed with the new secret only from now on.'}
              </DialogDescription>
            </DialogHeader>
            <OneTimeSecret value={roll.data.signingSecret} label="New signing secret" testId="rolled-secret" />
            <DialogFooter><Button onClick={() => setOpen(false)}>Done</Button></DialogFooter>
          </>
        ) : (
          <form className="grid gap-4" onSubmit={(e) => { e.preventDefault(); roll.mutate(Number(overlap)); }}>
            <DialogHeader>
              <DialogTitle>Roll the signing secret</DialogTitle>
              <DialogDescription>A new secret signs every delivery from now on. During the overlap, deliveries carry both signatures, so your server can switch without missing one.</DialogDescription>
            </DialogHeader>
            <FormError error={roll.error} />
            <div className="grid gap-1.5">
              <Label htmlFor="overlap">Keep signing with the old secret for</Label>
              <Select value={overlap} onValueChange={setOverlap}>
                <SelectTrigger id="overlap" className="w-full"><SelectValue /></SelectTrigger>
                <SelectContent>{overlapChoices.map((c) => <SelectItem key={c.seconds} value={String(c.seconds)}>{c.label}</SelectItem>)}</SelectContent>
              </Select>
            </div>
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => setOpen(false)}>Cancel</Button>
              <Button type="submit" disabled={roll.isPending}>Roll secret</Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
