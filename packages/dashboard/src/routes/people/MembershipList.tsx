import { useState, type FormEvent } from 'react';
import { formatDate } from '@/lib/format';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { Membership } from '@creator-commerce/sdk';
import { errorMessage } from '@/api';
import { EmptyState, ExportCsvButton, ListView } from '@/components/list-view';
import { useCancelMembership } from '@/hooks/api/customers';
import { fetchHubMembers, hubKeys, useRemoveHubMember } from '@/hooks/api/hubs';
import { usePagedList } from '@/hooks/api/list';
import { fetchProductCustomers, productKeys } from '@/hooks/api/products';
import type { CsvColumn } from '@/lib/csv';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import {
  AlertDialog, AlertDialogAction, AlertDialogCancel, AlertDialogContent, AlertDialogDescription, AlertDialogFooter, AlertDialogHeader, AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { toast } from '@/components/ui/toast';

const statuses = ['active', 'expired', 'removed', 'cancelled'] as const;

export const statusVariant = (s: string) =>
  (s === 'active' || s === 'succeeded' ? 'success' : s === 'pending' || s === 'past_due' ? 'warning' : s === 'failed' ? 'destructive' : 'secondary') as
    'success' | 'warning' | 'destructive' | 'secondary';

function membershipColumns(planName: (id?: string) => string): CsvColumn<Membership>[] {
  return [
    { header: 'membershipId', value: (m) => m.membershipId },
    { header: 'name', value: (m) => m.name },
    { header: 'email', value: (m) => m.email },
    { header: 'phone', value: (m) => m.phone },
    { header: 'status', value: (m) => m.status },
    { header: 'plan', value: (m) => m.plan },
    { header: 'planName', value: (m) => planName(m.plan) },
    { header: 'joinedAt', value: (m) => m.joinedAt },
    { header: 'subscriptionStatus', value: (m) => m.subscription?.status },
    { header: 'currentPeriodEnd', value: (m) => m.subscription?.currentPeriodEnd },
    { header: 'cancelAtPeriodEnd', value: (m) => m.subscription?.cancelAtPeriodEnd },
    // The receive_emails opt-in given at checkout: empty when the person was never asked.
    { header: 'receiveEmails', value: (m) => m.receiveEmails },
  ];
}

/**
 * A hub's members or a product's customers: search by email (exact, as the API matches), filter
 * by status, remove a hub member, cancel a subscription, export the filtered list as CSV.
 */
export function MembershipList({ kind, ownerId, ownerName, planNames }: {
  kind: 'hub' | 'product';
  ownerId: string;
  ownerName: string;
  /** Tier id → tier name, to show plans by name. */
  planNames: Map<string, string>;
}) {
  // A product's customer list is the active ones unless a status is asked for; a hub's is everyone.
  const [status, setStatus] = useState<(typeof statuses)[number] | 'any'>(kind === 'hub' ? 'any' : 'active');
  const [emailInput, setEmailInput] = useState('');
  const [email, setEmail] = useState('');
  const query = { ...(status === 'any' ? {} : { status }), ...(email ? { email } : {}) };
  const fetchPage = kind === 'hub' ? fetchHubMembers(ownerId, query) : fetchProductCustomers(ownerId, query);
  const listKey = kind === 'hub' ? hubKeys.members(ownerId) : productKeys.customers(ownerId);
  const list = usePagedList([...listKey, query], fetchPage);
  const qc = useQueryClient();
  const refresh = () => qc.invalidateQueries({ queryKey: listKey });
  const planName = (id?: string) => (id ? planNames.get(id) ?? id : '');

  const [removing, setRemoving] = useState<Membership | null>(null);
  const [cancelling, setCancelling] = useState<Membership | null>(null);
  const remove = useRemoveHubMember({
    onSuccess: (m) => { toast({ title: `${m.name} removed` }); setRemoving(null); refresh(); },
    onError: (err) => toast({ title: 'Could not remove', description: errorMessage(err), variant: 'destructive' }),
  });
  const cancel = useCancelMembership({
    onSuccess: (m, { atPeriodEnd }) => {
      toast({ title: atPeriodEnd ? `${m.name}'s subscription ends at the period end` : `${m.name}'s subscription was cancelled` });
      setCancelling(null);
      refresh();
    },
    onError: (err) => toast({ title: 'Could not cancel', description: errorMessage(err), variant: 'destructive' }),
  });

  const search = (e: FormEvent) => { e.preventDefault(); setEmail(emailInput.trim()); };
  const who = kind === 'hub' ? 'members' : 'customers';

  return (
    <div className="space-y-4">
      <div className="flex flex-col gap-3 md:flex-row md:items-end">
        <form onSubmit={search} className="flex flex-1 items-end gap-2" role="search">
          <div className="flex-1 space-y-1.5">
            <Label htmlFor="member-email">Find by email</Label>
            <Input id="member-email" type="email" placeholder="ada@example.com" value={emailInput} onChange={(e) => setEmailInput(e.target.value)} />
          </div>
          <Button type="submit" variant="secondary">Search</Button>
          {email && <Button type="button" variant="ghost" onClick={() => { setEmail(''); setEmailInput(''); }}>Clear</Button>}
        </form>
        <div className="space-y-1.5 md:w-48">
          <Label htmlFor="member-status">Status</Label>
          <Select value={status} onValueChange={(v) => setStatus(statuses.find((s) => s === v) ?? 'any')}>
            <SelectTrigger id="member-status" className="w-full"><SelectValue /></SelectTrigger>
            <SelectContent>
              {kind === 'hub' && <SelectItem value="any">Any status</SelectItem>}
              {statuses.map((s) => <SelectItem key={s} value={s}>{s[0].toUpperCase() + s.slice(1)}</SelectItem>)}
            </SelectContent>
          </Select>
        </div>
        <ExportCsvButton fetchPage={fetchPage} columns={membershipColumns(planName)} name={[who, ownerId]} />
      </div>

      <ListView
        list={list}
        label={`${ownerName} ${who}`}
        rowKey={(m) => m.membershipId}
        empty={<EmptyState title={email ? `No ${who} with the email ${email}` : `No ${status === 'any' ? '' : `${status} `}${who} of ${ownerName} yet`}>
          {email ? 'The search matches a whole email address, ignoring case.' : 'People appear here when they buy through a payment link or are imported.'}
        </EmptyState>}
        columns={[
          { header: 'Name', className: 'font-medium', cell: (m) => m.name },
          { header: 'Email', className: 'whitespace-normal break-all', cell: (m) => <>
            <div>{m.email}</div>
            {m.receiveEmails && <div className="text-xs text-muted-foreground" data-testid="receive-emails">Agreed to marketing emails</div>}
          </> },
          { header: 'Status', cell: (m) => <Badge variant={statusVariant(m.status)}>{m.status}</Badge> },
          { header: 'Plan', cell: (m) => planName(m.plan) },
          { header: 'Joined', className: 'whitespace-normal', cell: (m) => formatDate(m.joinedAt, '') },
          { header: 'Subscription', className: 'text-sm whitespace-normal', cell: ({ subscription: sub }) => (sub ? (
            <span>
              <Badge variant={statusVariant(sub.status)}>{sub.status}</Badge>{' '}
              {sub.cancelAtPeriodEnd ? `ends ${formatDate(sub.currentPeriodEnd, '')}` : sub.nextBillingAt ? `renews ${formatDate(sub.nextBillingAt, '')}` : ''}
            </span>
          ) : <span className="text-muted-foreground">—</span>) },
          // Wraps rather than widening the table: at 1366 px a hub's table was 1188 px in a 992 px box, Cancel and Remove off-screen (issue 26).
          { header: <span className="sr-only">Actions</span>, className: 'whitespace-normal', cell: (m) => {
            const sub = m.subscription;
            const canCancel = m.status === 'active' && sub && (sub.status === 'active' || sub.status === 'past_due');
            return (
              <div className="flex flex-wrap items-center justify-end gap-2">
                <Link className="text-sm text-primary underline-offset-4 hover:underline" to={`/developers/events?resourceID=${encodeURIComponent(m.membershipId)}`}>
                  Events
                </Link>
                {canCancel && !sub?.cancelAtPeriodEnd && (
                  <Button variant="outline" size="sm" onClick={() => setCancelling(m)}>Cancel subscription</Button>
                )}
                {kind === 'hub' && m.status === 'active' && (
                  <Button variant="ghost" size="sm" className="text-destructive" onClick={() => setRemoving(m)}>Remove</Button>
                )}
              </div>
            );
          } },
        ]}
      />

      <AlertDialog open={!!removing} onOpenChange={(o) => !o && setRemoving(null)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Remove {removing?.name}?</AlertDialogTitle>
            <AlertDialogDescription>
              {removing?.email} loses access to {ownerName} now{removing?.subscription ? ' and their subscription is cancelled, with no refund' : ''}. They stay in this list as removed.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Keep</AlertDialogCancel>
            <AlertDialogAction onClick={(e) => { e.preventDefault(); if (removing) remove.mutate({ hubId: ownerId, membershipId: removing.membershipId }); }} disabled={remove.isPending}>
              Remove member
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>

      <Dialog open={!!cancelling} onOpenChange={(o) => !o && setCancelling(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Cancel {cancelling?.name}'s subscription</DialogTitle>
            <DialogDescription>
              At the period end, they keep access until {formatDate(cancelling?.subscription?.currentPeriodEnd, '')} and are not charged again.
              Now, they lose access at once, with no refund.
            </DialogDescription>
          </DialogHeader>
          <DialogFooter className="gap-2">
            <Button variant="outline" disabled={cancel.isPending} onClick={() => cancelling && cancel.mutate({ membershipId: cancelling.membershipId, atPeriodEnd: true })}>
              Cancel at period end
            </Button>
            <Button variant="destructive" disabled={cancel.isPending} onClick={() => cancelling && cancel.mutate({ membershipId: cancelling.membershipId, atPeriodEnd: false })}>
              Cancel now
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </div>
  );
}
