import { useFilterParams } from '@/hooks/filter-params';
import type { TransactionListParams } from '@creator-commerce/sdk';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';

const statuses = ['succeeded', 'pending', 'failed', 'refunded'] as const;

/**
 * The filters of Money → Transactions, kept in the page's address (`?status=&product=&from=&to=&q=`)
 * so a filtered list can be shared, reloaded and come back to. `from` and `to` are days in the
 * viewer's own time zone, both included.
 */
export function filtersFrom(params: URLSearchParams): TransactionListParams {
  const out: TransactionListParams = {};
  const status = statuses.find((s) => s === params.get('status'));
  if (status) out.status = status;
  const product = params.get('product');
  if (product) out.resourceID = product;
  const q = params.get('q')?.trim();
  if (q) out.q = q;
  const from = params.get('from');
  if (from && /^\d{4}-\d{2}-\d{2}$/.test(from)) out.createdFrom = new Date(`${from}T00:00:00`).toISOString();
  const to = params.get('to');
  if (to && /^\d{4}-\d{2}-\d{2}$/.test(to)) {
    const end = new Date(`${to}T00:00:00`);
    end.setDate(end.getDate() + 1);
    out.createdBefore = end.toISOString();
  }
  return out;
}

const selectClass = 'h-9 w-full rounded-md border border-input bg-transparent px-3 text-sm shadow-xs outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50';

export function TransactionFilters({ names }: { names: Map<string, string> }) {
  const [params, set] = useFilterParams();
  return (
    <form role="search" aria-label="Filter transactions" className="mb-4 grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-6" onSubmit={(e) => e.preventDefault()}>
      <div className="grid gap-1.5 lg:col-span-2">
        <Label htmlFor="txn-q">Search</Label>
        <Input id="txn-q" type="search" placeholder="Email or txref" defaultValue={params.get('q') ?? ''}
          onChange={(e) => set('q', e.target.value)} />
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="txn-status">Status</Label>
        <select id="txn-status" className={selectClass} value={params.get('status') ?? ''} onChange={(e) => set('status', e.target.value)}>
          <option value="">Any status</option>
          {statuses.map((s) => <option key={s} value={s}>{s[0].toUpperCase() + s.slice(1)}</option>)}
        </select>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="txn-product">Product or hub</Label>
        <select id="txn-product" className={selectClass} value={params.get('product') ?? ''} onChange={(e) => set('product', e.target.value)}>
          <option value="">Anything</option>
          {[...names.entries()].sort((a, b) => a[1].localeCompare(b[1])).map(([id, name]) => <option key={id} value={id}>{name}</option>)}
        </select>
      </div>
      <div className="grid grid-cols-2 gap-2 lg:col-span-2">
        <div className="grid gap-1.5">
          <Label htmlFor="txn-from">From</Label>
          <Input id="txn-from" type="date" value={params.get('from') ?? ''} onChange={(e) => set('from', e.target.value)} />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="txn-to">To</Label>
          <Input id="txn-to" type="date" value={params.get('to') ?? ''} onChange={(e) => set('to', e.target.value)} />
        </div>
      </div>
    </form>
  );
}
