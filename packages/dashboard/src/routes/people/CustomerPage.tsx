import { useState } from 'react';
import { formatDate } from '@/lib/format';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import type { CustomerDetail } from '@creator-commerce/sdk';
import { errorMessage } from '@/api';
import { useCatalogNames } from '@/hooks/api/catalog-names';
import { customerKeys, useCustomer } from '@/hooks/api/customers';
import { useRemoveHubMember } from '@/hooks/api/hubs';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import {
  AlertDialog, AlertDialogAction, AlertDialogCancel, AlertDialogContent, AlertDialogDescription, AlertDialogFooter, AlertDialogHeader, AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { toast } from '@/components/ui/toast';
import { lifetimeValue } from './CustomerListPage.tsx';
import { money } from './format.ts';
import { statusVariant } from './MembershipList.tsx';
import { ErrorNote, Loading, PageHeader } from './parts.tsx';
import { SubscriptionActions, every, stateLabel, stateVariant } from './SubscriptionActions.tsx';

type CustomerMembership = CustomerDetail['memberships'][number];

/** `/people/customers/:id`: one person with everything they bought, hold and were sent, and the actions on them. */
export function CustomerPage() {
  const { id = '' } = useParams();
  const key = customerKeys.detail(id);
  const qc = useQueryClient();
  const names = useCatalogNames();
  const customer = useCustomer(id);
  const [removing, setRemoving] = useState<CustomerMembership | null>(null);
  const remove = useRemoveHubMember({
    onSuccess: (m) => { toast({ title: `${m.name} removed` }); setRemoving(null); qc.invalidateQueries({ queryKey: key }); },
    onError: (err) => toast({ title: 'Could not remove', description: errorMessage(err), variant: 'destructive' }),
  });
  if (customer.isPending) return <Loading />;
  if (customer.error) return <><PageHeader title="Customer" /><ErrorNote error={customer.error} /></>;
  const c = customer.data;
  const nameOf = (m: { productID?: string; hubID?: string }) => {
    const owner = m.productID ?? m.hubID;
    return owner ? names.get(owner) ?? owner : '—';
  };
  const linkOf = (m: { productID?: string; hubID?: string }) => (m.hubID ? `/catalog/hubs/${m.hubID}` : `/catalog/products/${m.productID}`);
  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title={c.name}
        description={<><span className="break-all">{c.email}</span> · <Link className="text-primary underline" to="/people">All customers</Link></>}
      />
      <Card>
        <CardHeader><CardTitle>Summary</CardTitle></CardHeader>
        <CardContent>
          <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
            <div><dt className="text-muted-foreground">Status</dt><dd><Badge variant={c.status === 'active' ? 'success' : 'secondary'}>{c.status}</Badge></dd></div>
            <div className="col-span-2 sm:col-span-1"><dt className="text-muted-foreground">Lifetime value</dt><dd className="font-medium" data-testid="lifetime-value">{lifetimeValue(c)}</dd></div>
            <div><dt className="text-muted-foreground">First seen</dt><dd>{formatDate(c.firstSeenAt, '')}</dd></div>
            <div><dt className="text-muted-foreground">Last activity</dt><dd>{formatDate(c.lastActivityAt, '')}</dd></div>
            <div><dt className="text-muted-foreground">Purchases</dt><dd>{c.counts.purchases}</dd></div>
            <div><dt className="text-muted-foreground">Memberships</dt><dd>{c.counts.activeMemberships} active of {c.counts.memberships}</dd></div>
            <div><dt className="text-muted-foreground">Marketing emails</dt><dd>{c.receiveEmails === undefined ? 'Never asked' : c.receiveEmails ? 'Agreed' : 'Not agreed'}</dd></div>
            {c.lifetimeValue.some((v) => v.refunded > 0) && (
              <div><dt className="text-muted-foreground">Refunded</dt><dd>{c.lifetimeValue.filter((v) => v.refunded > 0).map((v) => money(v.refunded, v.currency)).join(' · ')}</dd></div>
            )}
          </dl>
        </CardContent>
      </Card>

      <Card>
        <CardHeader><CardTitle>Subscriptions</CardTitle></CardHeader>
        <CardContent>
          {!c.subscriptions.length ? <p className="text-sm text-muted-foreground">No subscriptions.</p> : (
            <ul aria-label="Subscriptions" className="flex flex-col divide-y">
              {c.subscriptions.map((s) => (
                <li key={s.id} className="flex flex-col gap-2 py-3 text-sm sm:flex-row sm:items-center sm:justify-between">
                  <div className="min-w-0">
                    <div className="flex flex-wrap items-center gap-2">
                      <Badge variant={stateVariant(s.state)}>{stateLabel[s.state]}</Badge>
                      <span className="font-medium">{money(s.amount, s.currency)} {every(s)}</span>
                      <span>· <Link className="underline-offset-4 hover:underline" to={linkOf(s)}>{nameOf(s)}</Link></span>
                    </div>
                    <div className="text-xs text-muted-foreground">
                      {s.nextRenewalAt ? `Renews ${formatDate(s.nextRenewalAt, '')}` : s.state === 'cancelling' ? `Ends ${formatDate(s.currentPeriodEnd, '')}` : s.endedAt ? `Ended ${formatDate(s.endedAt, '')}` : 'No renewal'}
                      {' · '}MRR {money(s.mrr, s.currency)}
                    </div>
                  </div>
                  <div className="flex flex-wrap gap-2"><SubscriptionActions sub={s} invalidate={[key, customerKeys.subscriptions]} /></div>
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>

      <Card>
        <CardHeader><CardTitle>Memberships and purchases</CardTitle></CardHeader>
        <CardContent>
          {!c.memberships.length ? <p className="text-sm text-muted-foreground">No memberships.</p> : (
            <ul aria-label="Memberships" className="flex flex-col divide-y">
              {c.memberships.map((m) => (
                <li key={m.membershipId} className="flex flex-col gap-2 py-3 text-sm sm:flex-row sm:items-center sm:justify-between">
                  <div className="min-w-0">
                    <div className="flex flex-wrap items-center gap-2">
                      <Badge variant={statusVariant(m.status)}>{m.status}</Badge>
                      <Link className="font-medium underline-offset-4 hover:underline" to={linkOf(m)}>{nameOf(m)}</Link>
                      <span className="text-muted-foreground">{m.hubID ? 'hub member' : 'product'}</span>
                    </div>
                    <div className="text-xs text-muted-foreground">Joined {formatDate(m.joinedAt, '')}</div>
                  </div>
                  {m.hubID && m.status === 'active' && (
                    <div><Button size="sm" variant="ghost" className="text-destructive" onClick={() => setRemoving(m)}>Remove from hub</Button></div>
                  )}
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Transactions</CardTitle>
          <p className="text-sm text-muted-foreground">Refund a payment from its page.</p>
        </CardHeader>
        <CardContent>
          {!c.transactions.length ? <p className="text-sm text-muted-foreground">No transactions.</p> : (
            <ul aria-label="Transactions" className="flex flex-col divide-y">
              {c.transactions.map((t) => (
                <li key={t.txref} className="flex flex-col gap-1 py-3 text-sm sm:flex-row sm:items-center sm:justify-between">
                  <div className="flex flex-wrap items-center gap-2">
                    <Badge variant={statusVariant(t.status)}>{t.status}</Badge>
                    <span className="font-medium">{money(t.amount, t.currency)}</span>
                    <span className="text-muted-foreground">{t.type === 'renewal' ? 'renewal' : 'purchase'}{t.resourceID ? ` · ${names.get(t.resourceID) ?? t.resourceID}` : ''}</span>
                  </div>
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="text-xs text-muted-foreground">{formatDate(t.createdAt, '')}</span>
                    <Link className="font-mono text-xs break-all text-primary underline-offset-4 hover:underline" to={`/money/transactions/${encodeURIComponent(t.txref)}`}>{t.txref}</Link>
                  </div>
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>

      <Card>
        <CardHeader><CardTitle>Emails sent</CardTitle></CardHeader>
        <CardContent>
          {!c.emails.length ? <p className="text-sm text-muted-foreground">No emails sent to this address.</p> : (
            <ul aria-label="Emails sent" className="flex flex-col divide-y">
              {c.emails.map((e) => (
                <li key={e.id} className="flex flex-col gap-1 py-3 text-sm sm:flex-row sm:items-center sm:justify-between">
                  <Link className="min-w-0 font-medium text-primary underline-offset-4 hover:underline" to={`/developers/emails/${encodeURIComponent(e.id)}`}>{e.subject}</Link>
                  <div className="flex flex-wrap items-center gap-2">
                    <Badge variant={e.status === 'sent' ? 'success' : e.status === 'failed' ? 'destructive' : 'secondary'}>{e.status}</Badge>
                    <span className="text-xs text-muted-foreground">{e.kind} · {formatDate(e.createdAt, '')}</span>
                  </div>
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>

      <AlertDialog open={!!removing} onOpenChange={(o) => !o && setRemoving(null)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Remove {c.name} from {removing ? nameOf(removing) : ''}?</AlertDialogTitle>
            <AlertDialogDescription>
              They lose access now{removing?.subscription ? ' and the subscription paying for it is cancelled, with no refund' : ''}.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Keep</AlertDialogCancel>
            <AlertDialogAction onClick={(e) => { e.preventDefault(); if (removing?.hubID) remove.mutate({ hubId: removing.hubID, membershipId: removing.membershipId }); }} disabled={remove.isPending}>Remove member</AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </div>
  );
}
