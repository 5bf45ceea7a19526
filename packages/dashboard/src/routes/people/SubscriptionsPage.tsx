import { Link } from 'react-router';
import { useFilterParams } from '@/hooks/filter-params';
import type { SubscriptionSummary } from '@creator-commerce/sdk';
import { EmptyState, ExportCsvButton, ListView } from '@/components/list-view';
import { PageHeader } from '@/components/page';
import { Badge } from '@/components/ui/badge';
import { Label } from '@/components/ui/label';
import { useCatalogNames } from '@/hooks/api/catalog-names';
import { customerKeys, fetchSubscriptions, useSubscriptions } from '@/hooks/api/customers';
import { metricsKey, useMetricsSummary } from '@/hooks/api/metrics';
import type { CsvColumn } from '@/lib/csv';
import { formatDate } from '@/lib/format';
import { customerLink } from './CustomerListPage.tsx';
import { money } from './format.ts';
import { SubscriptionActions, every, stateLabel, stateVariant } from './SubscriptionActions.tsx';

const states = ['active', 'past_due', 'cancelling', 'ended'] as const;

const columns: CsvColumn<SubscriptionSummary>[] = [
  { header: 'id', value: (s) => s.id },
  { header: 'membershipID', value: (s) => s.membershipID },
  { header: 'state', value: (s) => s.state },
  { header: 'customerName', value: (s) => s.customer.name },
  { header: 'customerEmail', value: (s) => s.customer.email },
  { header: 'productID', value: (s) => s.productID },
  { header: 'hubID', value: (s) => s.hubID },
  { header: 'tierID', value: (s) => s.tierID },
  { header: 'amount', value: (s) => s.amount },
  { header: 'currency', value: (s) => s.currency },
  { header: 'periodic', value: (s) => s.periodic },
  { header: 'interval', value: (s) => s.interval },
  { header: 'nextRenewalAt', value: (s) => s.nextRenewalAt },
  { header: 'mrr', value: (s) => s.mrr },
  { header: 'startedAt', value: (s) => s.startedAt },
];

const selectClass = 'h-9 w-full rounded-md border border-input bg-transparent px-3 text-sm shadow-xs outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50';

/** `/people/subscriptions`: every subscription with its next renewal and MRR, filtered by state and by product or hub. */
export function SubscriptionsPage() {
  const [params, set] = useFilterParams();
  const status = states.find((s) => s === params.get('status'));
  const owner = params.get('for') ?? '';
  const query = { status, ...(owner.startsWith('hub_') ? { hub: owner } : owner ? { product: owner } : {}) };
  const list = useSubscriptions(query);
  const names = useCatalogNames();
  const summary = useMetricsSummary();
  const what = (s: SubscriptionSummary) => {
    const id = s.productID ?? s.hubID;
    return id ? <Link className="underline-offset-4 hover:underline" to={s.hubID ? `/catalog/hubs/${id}` : `/catalog/products/${id}`}>{names.get(id) ?? id}</Link> : '—';
  };
  const invalidate = [customerKeys.subscriptions, metricsKey];
  const mrr = summary.data?.subscriptions.mrr ?? [];
  return (
    <div>
      <PageHeader
        title="Subscriptions"
        description="Recurring memberships in the current mode, newest first, with their next renewal and what each brings in a month."
        actions={<ExportCsvButton fetchPage={fetchSubscriptions(query)} columns={columns} name={['subscriptions', status ?? 'all']} />}
      />
      {summary.data && (
        <p className="mb-3 text-sm" data-testid="mrr-total">
          Monthly recurring revenue: {mrr.length ? mrr.map((m) => money(m.amount, m.currency)).join(' · ') : 'none yet'}
          {' · '}{summary.data.subscriptions.active} active, {summary.data.subscriptions.pastDue} past due
        </p>
      )}
      <form role="search" aria-label="Filter subscriptions" className="mb-4 grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4" onSubmit={(e) => e.preventDefault()}>
        <div className="grid gap-1.5">
          <Label htmlFor="subscription-status">Status</Label>
          <select id="subscription-status" className={selectClass} value={status ?? ''} onChange={(e) => set('status', e.target.value)}>
            <option value="">Any status</option>
            {states.map((s) => <option key={s} value={s}>{stateLabel[s]}</option>)}
          </select>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="subscription-for">Product or hub</Label>
          <select id="subscription-for" className={selectClass} value={owner} onChange={(e) => set('for', e.target.value)}>
            <option value="">Anything</option>
            {[...names.entries()].sort((a, b) => a[1].localeCompare(b[1])).map(([id, name]) => <option key={id} value={id}>{name}</option>)}
          </select>
        </div>
      </form>
      <ListView
        list={list}
        label="Subscriptions"
        rowKey={(s) => s.id}
        empty={status || owner
          ? <EmptyState title={`No ${status ? `${stateLabel[status].toLowerCase()} ` : ''}subscriptions`}>Change or clear the filters above.</EmptyState>
          : <EmptyState title="No subscriptions yet">A subscription starts when someone buys a tier that renews (monthly, yearly…).</EmptyState>}
        card={(s) => <>
          <div className="flex flex-wrap items-center justify-between gap-2">
            <Link className="font-medium text-primary underline-offset-4 hover:underline" to={customerLink(s.customer.id)}>{s.customer.name}</Link>
            <Badge variant={stateVariant(s.state)}>{stateLabel[s.state]}</Badge>
          </div>
          <div>{money(s.amount, s.currency)} {every(s)} · {what(s)}</div>
          <div className="text-xs text-muted-foreground">
            {s.nextRenewalAt ? `Renews ${formatDate(s.nextRenewalAt, '')}` : s.state === 'cancelling' ? `Ends ${formatDate(s.currentPeriodEnd, '')}` : 'No renewal'} · MRR {money(s.mrr, s.currency)}
          </div>
          <div className="mt-2 flex flex-wrap gap-2"><SubscriptionActions sub={s} invalidate={invalidate} /></div>
        </>}
        columns={[
          { header: 'Customer', className: 'whitespace-normal', cell: (s) => <>
            <Link className="font-medium text-primary underline-offset-4 hover:underline" to={customerLink(s.customer.id)}>{s.customer.name}</Link>
            <div className="text-xs break-all text-muted-foreground">{s.customer.email}</div>
          </> },
          { header: 'Status', cell: (s) => <>
            <Badge variant={stateVariant(s.state)}>{stateLabel[s.state]}</Badge>
            {s.failedAttempts > 0 && <div className="text-xs text-muted-foreground">{s.failedAttempts} failed {s.failedAttempts === 1 ? 'charge' : 'charges'}</div>}
          </> },
          { header: 'Plan', className: 'whitespace-normal', cell: (s) => <>{money(s.amount, s.currency)} {every(s)}<div className="text-xs text-muted-foreground">{what(s)}</div></> },
          { header: 'Next renewal', className: 'whitespace-normal', cell: (s) => (
            s.nextRenewalAt ? formatDate(s.nextRenewalAt, '') : s.state === 'cancelling' ? `Ends ${formatDate(s.currentPeriodEnd, '')}` : s.endedAt ? `Ended ${formatDate(s.endedAt, '')}` : '—'
          ) },
          { header: 'MRR', cell: (s) => money(s.mrr, s.currency) },
          { header: <span className="sr-only">Actions</span>, cell: (s) => <div className="flex flex-wrap justify-end gap-2"><SubscriptionActions sub={s} invalidate={invalidate} /></div> },
        ]}
      />
    </div>
  );
}
