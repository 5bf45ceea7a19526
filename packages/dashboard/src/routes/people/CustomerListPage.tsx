import { Link } from 'react-router';
import { useFilterParams } from '@/hooks/filter-params';
import { formatDate } from '@/lib/format';
import type { Customer, CustomerSearchParams } from '@creator-commerce/sdk';
import { EmptyState, ExportCsvButton, ListView } from '@/components/list-view';
import { PageHeader } from '@/components/page';
import { Badge } from '@/components/ui/badge';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { useCatalogNames } from '@/hooks/api/catalog-names';
import { fetchCustomers, useCustomers } from '@/hooks/api/customers';
import type { CsvColumn } from '@/lib/csv';
import { money } from './format.ts';

const columns: CsvColumn<Customer>[] = [
  { header: 'id', value: (c) => c.id },
  { header: 'name', value: (c) => c.name },
  { header: 'email', value: (c) => c.email },
  { header: 'status', value: (c) => c.status },
  { header: 'firstSeenAt', value: (c) => c.firstSeenAt },
  { header: 'lastActivityAt', value: (c) => c.lastActivityAt },
  // One cell per customer, currencies never added: "25.5 USD; 500 JPY".
  { header: 'lifetimeValue', value: (c) => c.lifetimeValue.map((v) => `${v.amount} ${v.currency}`).join('; ') },
  { header: 'purchases', value: (c) => c.counts.purchases },
  { header: 'memberships', value: (c) => c.counts.memberships },
  { header: 'activeSubscriptions', value: (c) => c.counts.activeSubscriptions },
  { header: 'receiveEmails', value: (c) => c.receiveEmails },
];

const selectClass = 'h-9 w-full rounded-md border border-input bg-transparent px-3 text-sm shadow-xs outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50';

/**
 * The filters, kept in the address so a filtered list can be shared and reloaded. A product or
 * hub is `?for=`: `?product=` and `?hub=` open that product's or hub's own member list (the
 * catalog pages link there).
 */
function queryFrom(params: URLSearchParams): CustomerSearchParams {
  const out: CustomerSearchParams = {};
  const q = params.get('q')?.trim();
  if (q) out.q = q;
  const owner = params.get('for');
  if (owner?.startsWith('hub_')) out.hub = owner; else if (owner) out.product = owner;
  const status = params.get('status');
  if (status === 'active' || status === 'ended') out.status = status;
  const consent = params.get('consent');
  if (consent === 'true' || consent === 'false') out.consent = consent === 'true';
  return out;
}

export const lifetimeValue = (c: Pick<Customer, 'lifetimeValue'>) =>
  (c.lifetimeValue.length ? c.lifetimeValue.map((v) => money(v.amount, v.currency)).join(' · ') : 'Nothing paid');

export const customerLink = (id: string) => `/people/customers/${encodeURIComponent(id)}`;

/** `/people`: everyone who bought or joined, one row per person, with search and filters. */
export function CustomerListPage() {
  const [params, set] = useFilterParams();
  const query = queryFrom(params);
  const list = useCustomers(query);
  const names = useCatalogNames();
  const filtered = Object.keys(query).length > 0;
  return (
    <div>
      <PageHeader
        title="Customers"
        description="Everyone who bought or joined in the current mode, one row per email address."
        actions={<ExportCsvButton fetchPage={fetchCustomers(query)} columns={columns} name={['customers']} />}
      />
      <form role="search" aria-label="Filter customers" className="mb-4 grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-5" onSubmit={(e) => e.preventDefault()}>
        <div className="grid gap-1.5 lg:col-span-2">
          <Label htmlFor="customer-q">Search</Label>
          <Input id="customer-q" type="search" placeholder="Name or email" defaultValue={params.get('q') ?? ''} onChange={(e) => set('q', e.target.value)} />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="customer-for">Product or hub</Label>
          <select id="customer-for" className={selectClass} value={params.get('for') ?? ''} onChange={(e) => set('for', e.target.value)}>
            <option value="">Anything</option>
            {[...names.entries()].sort((a, b) => a[1].localeCompare(b[1])).map(([id, name]) => <option key={id} value={id}>{name}</option>)}
          </select>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="customer-status">Status</Label>
          <select id="customer-status" className={selectClass} value={params.get('status') ?? ''} onChange={(e) => set('status', e.target.value)}>
            <option value="">Any status</option>
            <option value="active">Active</option>
            <option value="ended">Ended</option>
          </select>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="customer-consent">Marketing emails</Label>
          <select id="customer-consent" className={selectClass} value={params.get('consent') ?? ''} onChange={(e) => set('consent', e.target.value)}>
            <option value="">Anyone</option>
            <option value="true">Agreed</option>
            <option value="false">Not agreed</option>
          </select>
        </div>
      </form>
      <ListView
        list={list}
        label="Customers"
        rowKey={(c) => c.id}
        empty={filtered
          ? <EmptyState title="No customer matches">Change or clear the filters above.</EmptyState>
          : (
            <EmptyState title="No customers yet" action={<Link className="text-primary underline" to="/catalog/products">Share a product's checkout link</Link>}>
              People appear here when they buy, join a hub or are imported.
            </EmptyState>
          )}
        // Below md each person is a card, status first, so nothing hides off to the right.
        card={(c) => <>
          <div className="flex flex-wrap items-center justify-between gap-2">
            <Link className="font-medium text-primary underline-offset-4 hover:underline" to={customerLink(c.id)}>{c.name}</Link>
            <Badge variant={c.status === 'active' ? 'success' : 'secondary'}>{c.status}</Badge>
          </div>
          <div className="break-all text-muted-foreground">{c.email}</div>
          <div className="mt-1">{lifetimeValue(c)}</div>
          <div className="text-xs text-muted-foreground">Since {formatDate(c.firstSeenAt, '')}</div>
        </>}
        columns={[
          { header: 'Customer', className: 'whitespace-normal', cell: (c) => <>
            <Link className="font-medium text-primary underline-offset-4 hover:underline" to={customerLink(c.id)}>{c.name}</Link>
            <div className="text-xs break-all text-muted-foreground">{c.email}</div>
            {c.receiveEmails && <div className="text-xs text-muted-foreground">Agreed to marketing emails</div>}
          </> },
          { header: 'Status', cell: (c) => <Badge variant={c.status === 'active' ? 'success' : 'secondary'}>{c.status}</Badge> },
          { header: 'Lifetime value', className: 'whitespace-normal', cell: (c) => lifetimeValue(c) },
          { header: 'Bought and joined', className: 'whitespace-normal text-sm', cell: (c) => <>
            {c.counts.purchases} {c.counts.purchases === 1 ? 'purchase' : 'purchases'} · {c.counts.memberships} {c.counts.memberships === 1 ? 'membership' : 'memberships'}
            {c.counts.activeSubscriptions > 0 && <div className="text-xs text-muted-foreground">{c.counts.activeSubscriptions} running {c.counts.activeSubscriptions === 1 ? 'subscription' : 'subscriptions'}</div>}
          </> },
          { header: 'First seen', className: 'whitespace-normal', cell: (c) => formatDate(c.firstSeenAt, '') },
          { header: 'Last activity', className: 'whitespace-normal', cell: (c) => formatDate(c.lastActivityAt, '') },
        ]}
      />
    </div>
  );
}
