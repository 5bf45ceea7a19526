import { useState } from 'react';
import { formatDate } from '@/lib/format';
import { useQueryClient } from '@tanstack/react-query';
import type { SubscriptionSummary } from '@creator-commerce/sdk';
import { errorMessage } from '@/api';
import { useCancelMembership, useResumeMembership } from '@/hooks/api/customers';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { toast } from '@/components/ui/toast';


/** What a subscription's `state` reads as. */
export const stateLabel: Record<SubscriptionSummary['state'], string> = { active: 'Active', past_due: 'Past due', cancelling: 'Cancelling', ended: 'Ended' };

export const stateVariant = (s: SubscriptionSummary['state']) =>
  (s === 'active' ? 'success' : s === 'past_due' ? 'warning' : s === 'cancelling' ? 'outline' : 'secondary') as 'success' | 'warning' | 'outline' | 'secondary';

const periodWords = { daily: ['day', 'days'], weekly: ['week', 'weeks'], monthly: ['month', 'months'], yearly: ['year', 'years'] } as const;

/** "every month", "every 3 months". */
export function every(s: Pick<SubscriptionSummary, 'periodic' | 'interval'>): string {
  const [one, many] = periodWords[s.periodic];
  return s.interval === 1 ? `every ${one}` : `every ${s.interval} ${many}`;
}

/**
 * Cancel (at the period end, or now) and Resume for one subscription, through its membership
 * (POST /memberships/{id}/cancel and /resume). `invalidate` names the queries to refresh after.
 */
export function SubscriptionActions({ sub, invalidate }: { sub: SubscriptionSummary; invalidate: (readonly unknown[])[] }) {
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const done = () => { for (const key of invalidate) qc.invalidateQueries({ queryKey: key }); };
  const cancel = useCancelMembership({
    onSuccess: (_m, { atPeriodEnd }) => {
      toast({ title: atPeriodEnd ? `${sub.customer.name}'s subscription ends at the period end` : `${sub.customer.name}'s subscription was cancelled` });
      setOpen(false);
      done();
    },
    onError: (err) => toast({ title: 'Could not cancel', description: errorMessage(err), variant: 'destructive' }),
  });
  const resume = useResumeMembership({
    onSuccess: () => { toast({ title: `${sub.customer.name}'s subscription renews again` }); done(); },
    onError: (err) => toast({ title: 'Could not resume', description: errorMessage(err), variant: 'destructive' }),
  });
  return (
    <>
      {(sub.state === 'active' || sub.state === 'past_due') && (
        <Button size="sm" variant="outline" onClick={() => setOpen(true)} aria-label={`Cancel ${sub.customer.name}'s subscription`}>Cancel</Button>
      )}
      {sub.state === 'cancelling' && (
        <Button size="sm" variant="outline" disabled={resume.isPending} onClick={() => resume.mutate(sub.membershipID)} aria-label={`Resume ${sub.customer.name}'s subscription`}>Resume</Button>
      )}
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Cancel {sub.customer.name}'s subscription</DialogTitle>
            <DialogDescription>
              At the period end, they keep access until {formatDate(sub.currentPeriodEnd, '')} and are not charged again.
              Now, they lose access at once, with no refund.
            </DialogDescription>
          </DialogHeader>
          <DialogFooter className="gap-2">
            {sub.state === 'active' && (
              <Button variant="outline" disabled={cancel.isPending} onClick={() => cancel.mutate({ membershipId: sub.membershipID, atPeriodEnd: true })}>Cancel at period end</Button>
            )}
            <Button variant="destructive" disabled={cancel.isPending} onClick={() => cancel.mutate({ membershipId: sub.membershipID, atPeriodEnd: false })}>Cancel now</Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}
