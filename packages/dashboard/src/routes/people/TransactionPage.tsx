import { useState } from 'react';
import { formatDate } from '@/lib/format';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import type { Event, Transaction, WebhookDelivery } from '@creator-commerce/sdk';
import { useCatalogNames } from '@/hooks/api/catalog-names';
import { transactionKeys, useTransaction } from '@/hooks/api/transactions';
import { useResourceDeliveries, useResourceEvents } from '@/hooks/api/webhooks';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { usePageTitle } from '@/lib/title';
import { money } from './format.ts';
import { statusVariant } from './MembershipList.tsx';
import { RefundDialog, refundable } from './RefundDialog.tsx';
import { ErrorNote, Loading, PageHeader } from './parts.tsx';

interface Step { at: string; title: string; detail?: string; tone?: 'bad' | 'good'; deliveries?: WebhookDelivery[] }

/** What happened to a payment, oldest first: started, paid or failed, each refund, and each event with its webhook deliveries. */
function timelineOf(t: Transaction, events: Event[], deliveries: WebhookDelivery[]): Step[] {
  const steps: Step[] = [{ at: t.createdAt, title: t.type === 'renewal' ? 'Renewal charged' : 'Payment started', detail: `${money(t.amount, t.currency)} from ${t.customer.email}` }];
  for (const e of events) {
    const mine = deliveries.filter((d) => d.eventID === e.id);
    const title = e.type === 'transaction.succeeded' ? 'Paid' : e.type === 'transaction.failed' ? 'Payment failed' : e.type === 'transaction.refunded' ? 'Refund recorded' : e.type;
    steps.push({ at: e.created, title, detail: `Event ${e.type}`, tone: e.type === 'transaction.failed' ? 'bad' : e.type === 'transaction.succeeded' ? 'good' : undefined, deliveries: mine });
  }
  for (const r of t.refunds) {
    steps.push({ at: r.createdAt, title: `Refund ${r.status}`, detail: `${money(r.amount, t.currency)}${r.reason ? ` · ${r.reason}` : ''}`, tone: r.status === 'failed' ? 'bad' : undefined });
  }
  return steps.sort((a, b) => a.at.localeCompare(b.at));
}

/** `/money/transactions/:txref`: one payment with its fee and net, its timeline and the Refund action. */
export function TransactionPage() {
  const { txref = '' } = useParams();
  usePageTitle(`Transaction ${txref}`);
  const qc = useQueryClient();
  const names = useCatalogNames();
  const [refunding, setRefunding] = useState<Transaction | null>(null);
  const key = transactionKeys.detail(txref);
  const txn = useTransaction(txref);
  const events = useResourceEvents(txref);
  const deliveries = useResourceDeliveries(txref);
  if (txn.isPending) return <Loading />;
  if (txn.error) return <ErrorNote error={txn.error} />;
  const t = txn.data;
  const steps = timelineOf(t, events.data?.items ?? [], deliveries.data?.items ?? []);
  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title={`${money(t.amount, t.currency)} from ${t.customer.name}`}
        description={<><span className="font-mono">{t.txref}</span> · <Link className="text-primary underline" to="/money">All transactions</Link></>}
        actions={t.status === 'succeeded' && t.amount > 0 && refundable(t) > 0
          ? <Button variant="outline" onClick={() => setRefunding(t)}>Refund</Button> : undefined}
      />
      <Card>
        <CardHeader><CardTitle>Payment</CardTitle></CardHeader>
        <CardContent>
          <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
            <div><dt className="text-muted-foreground">Status</dt><dd><Badge variant={statusVariant(t.status)}>{t.status}</Badge></dd></div>
            <div><dt className="text-muted-foreground">Amount</dt><dd className="font-medium">{money(t.amount, t.currency)}</dd></div>
            <div><dt className="text-muted-foreground">Fee</dt><dd data-testid="fee">{t.fee !== undefined ? money(t.fee, t.currency) : '—'}</dd></div>
            <div><dt className="text-muted-foreground">Net (after fee and refunds)</dt><dd data-testid="net">{t.net !== undefined ? money(t.net, t.currency) : '—'}</dd></div>
            <div><dt className="text-muted-foreground">Refunded</dt><dd>{money(t.refundedAmount, t.currency)}</dd></div>
            <div className="min-w-0"><dt className="text-muted-foreground">Customer</dt><dd className="break-all">{t.customer.name}<br />{t.customer.email}</dd></div>
            <div><dt className="text-muted-foreground">For</dt><dd>{t.resourceID ? names.get(t.resourceID) ?? t.resourceID : '—'}</dd></div>
            <div><dt className="text-muted-foreground">Kind</dt><dd>{t.type === 'renewal' ? 'Subscription renewal' : 'Purchase'}</dd></div>
          </dl>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Timeline</CardTitle>
          <p className="text-sm text-muted-foreground"><Link className="text-primary underline" to={`/developers/events?resourceID=${encodeURIComponent(t.txref)}`}>Events and deliveries</Link> in the developer settings.</p>
        </CardHeader>
        <CardContent>
          <ErrorNote error={events.error ?? deliveries.error} />
          <ol className="relative flex flex-col gap-4 border-l pl-5" aria-label="Timeline">
            {steps.map((s, i) => (
              <li key={i} className="relative">
                <span aria-hidden className={`absolute top-1.5 -left-[25px] size-2.5 rounded-full ${s.tone === 'bad' ? 'bg-destructive' : s.tone === 'good' ? 'bg-green-700' : 'bg-muted-foreground'}`} />
                <p className="text-sm font-medium">{s.title} <span className="font-normal text-muted-foreground">· {formatDate(s.at, '')}</span></p>
                {s.detail && <p className="text-sm text-muted-foreground">{s.detail}</p>}
                {s.deliveries && s.deliveries.length > 0 && (
                  <ul className="mt-1 text-sm">
                    {s.deliveries.map((d) => (
                      <li key={d.id}>
                        <Link className="text-primary underline" to={`/developers/webhooks/${d.endpointID}`}>Webhook delivery</Link>{' '}
                        <Badge variant={d.status === 'succeeded' ? 'success' : d.status === 'failed' ? 'destructive' : 'outline'}>{d.status}</Badge>{' '}
                        <span className="text-muted-foreground">{d.attempts} {d.attempts === 1 ? 'attempt' : 'attempts'}</span>
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            ))}
          </ol>
        </CardContent>
      </Card>
      <RefundDialog transaction={refunding} onClose={() => setRefunding(null)} onDone={() => qc.invalidateQueries({ queryKey: key })} />
    </div>
  );
}
