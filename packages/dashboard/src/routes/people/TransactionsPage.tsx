import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import type { Transaction, TransactionTotals } from '@creator-commerce/sdk';
import { api, v1 } from '@/api';
import { usePageTitle } from '@/lib/title';
import { TransactionFilters, filtersFrom } from './TransactionFilters.tsx';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import type { CsvColumn } from './csv.ts';
import { ExportCsvButton } from './ExportCsvButton.tsx';
import { money, shortMoney, when } from './format.ts';
import { statusVariant } from './MembershipList.tsx';
import { RefundDialog, refundable } from './RefundDialog.tsx';
import { EmptyState, ErrorNote, LoadMore, Loading, PageHeader } from './parts.tsx';
import { useCatalogNames, useList } from './use-list.ts';

const columns: CsvColumn<Transaction>[] = [
  { header: 'txref', value: (t) => t.txref },
  { header: 'type', value: (t) => t.type },
  { header: 'status', value: (t) => t.status },
  { header: 'amount', value: (t) => t.amount },
  { header: 'currency', value: (t) => t.currency },
  { header: 'customerName', value: (t) => t.customer.name },
  { header: 'customerEmail', value: (t) => t.customer.email },
  { header: 'resourceID', value: (t) => t.resourceID },
  { header: 'createdAt', value: (t) => t.createdAt },
  { header: 'metadata', value: (t) => (Object.keys(t.metadata ?? {}).length ? JSON.stringify(t.metadata) : '') },
  // Added columns go last, so a spreadsheet reading the earlier ones by position keeps working.
  { header: 'refundedAmount', value: (t) => t.refundedAmount },
  { header: 'fee', value: (t) => t.fee },
  { header: 'net', value: (t) => t.net },
  // Where the sale came from (the web checkout's utm_* and gclid/fbclid, docs/checkout.md).
  { header: 'utmRef', value: (t) => t.attribution?.utmRef },
  { header: 'adClickID', value: (t) => t.attribution?.adClickID },
  { header: 'adType', value: (t) => t.attribution?.adType },
];

/** Where a sale came from, in words: "Facebook ad · source instagram, medium bio". */
export function attributionWords(a: Transaction['attribution']): string {
  if (!a) return '';
  const ad = a.adType ? `${a.adType.charAt(0).toUpperCase()}${a.adType.slice(1)} ad` : a.adClickID ? 'Ad click' : '';
  const utm = a.utmRef ? [...new URLSearchParams(a.utmRef)].map(([k, v]) => `${k.replace(/^utm_/, '')} ${v}`).join(', ') : '';
  return [ad, utm].filter(Boolean).join(' · ');
}

/** Where a product or hub id leads in the dashboard. */
const resourceLink = (id?: string) => (id?.startsWith('hub_') ? `/catalog/hubs/${id}` : id ? `/catalog/products/${id}` : undefined);

/** Every payment of the current mode, newest first, each linked to its events and webhook deliveries. */
export function TransactionsPage() {
  usePageTitle('Transactions');
  const path = v1('/transactions');
  const [params] = useSearchParams();
  const filters = filtersFrom(params);
  const list = useList<Transaction>(path, filters);
  const totals = useQuery({ queryKey: ['list', path, 'totals', filters], queryFn: () => api.get<TransactionTotals>(v1('/transactions/totals'), filters) });
  const filtered = Object.keys(filters).length > 0;
  const names = useCatalogNames();
  const qc = useQueryClient();
  const [refunding, setRefunding] = useState<Transaction | null>(null);
  return (
    <div>
      <PageHeader
        title="Transactions"
        description="Payments in the current mode, newest first. Each links to the events it caused and their webhook deliveries."
        actions={<ExportCsvButton path={path} columns={columns} name={['transactions']} />}
      />
      <TransactionFilters names={names} />
      {totals.data && totals.data.items.length > 0 && (
        <p className="mb-3 text-sm" data-testid="totals" aria-live="polite">
          {totals.data.items.map((x) => `${x.count} ${x.count === 1 ? 'transaction' : 'transactions'} in ${x.currency}: ${money(x.paid, x.currency)} paid`
            + (x.refunded > 0 ? `, ${money(x.refunded, x.currency)} refunded` : '')).join(' · ')}
        </p>
      )}
      <ErrorNote error={list.error} />
      {list.isLoading ? <Loading /> : !list.items.length && !list.error && filtered ? (
        <EmptyState title="No transaction matches">Change or clear the filters above.</EmptyState>
      ) : !list.items.length && !list.error ? (
        <EmptyState title="No transactions yet" action={<Link className="text-primary underline" to="/catalog/products">Make a payment link from a product</Link>}>
          A transaction is recorded when a buyer pays a payment link. In test mode, pay one with a test card to see it here.
        </EmptyState>
      ) : (
        <>
        {/* Below md the table would hide its actions off to the right: each payment is a card instead, status and actions first. */}
        <ul aria-label="Transactions" className="flex flex-col gap-3 md:hidden">
          {list.items.map((t) => (
            <li key={t.txref} className="rounded-lg border bg-card p-3 text-sm">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="font-medium">{money(t.amount, t.currency)}</span>
                <Badge variant={statusVariant(t.status)}>{t.status}</Badge>
              </div>
              {t.fee !== undefined && t.net !== undefined && t.amount > 0 && (
                <div className="text-xs text-muted-foreground">fee {shortMoney(t.fee, t.currency)} · net {shortMoney(t.net, t.currency)}</div>
              )}
              <div className="mt-1 break-all">{t.customer.name} <span className="text-muted-foreground">{t.customer.email}</span></div>
              <div className="text-xs text-muted-foreground">{when(t.createdAt)}{t.resourceID ? ` · ${names.get(t.resourceID) ?? t.resourceID}` : ''}</div>
              <div className="mt-2 flex flex-wrap items-center gap-3">
                <Link className="text-primary underline" to={`/money/transactions/${encodeURIComponent(t.txref)}`} aria-label={`Details of ${t.txref}`}>Details</Link>
                {t.status === 'succeeded' && t.amount > 0 && refundable(t) > 0 && (
                  <Button size="sm" variant="outline" onClick={() => setRefunding(t)} aria-label={`Refund ${t.customer.name}, ${money(t.amount, t.currency)}`}>Refund</Button>
                )}
              </div>
            </li>
          ))}
        </ul>
        <Table aria-label="Transactions" className="hidden md:table">
          <TableHeader>
            <TableRow>
              <TableHead>Amount</TableHead>
              <TableHead>Status</TableHead>
              <TableHead>Customer</TableHead>
              <TableHead>For</TableHead>
              <TableHead>Date</TableHead>
              <TableHead>Reference</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {list.items.map((t) => (
              <TableRow key={t.txref}>
                <TableCell className="whitespace-nowrap">
                  <div className="font-medium">{money(t.amount, t.currency)}</div>
                  {t.fee !== undefined && t.net !== undefined && t.amount > 0 && (
                    <div className="text-xs text-muted-foreground" title="What you keep: the amount less the platform fee and refunds">
                      fee {shortMoney(t.fee, t.currency)} · net {shortMoney(t.net, t.currency)}
                    </div>
                  )}
                  {t.refundedAmount > 0 && t.status !== 'refunded' && (
                    <div className="text-xs text-muted-foreground">{shortMoney(t.refundedAmount, t.currency)} refunded</div>
                  )}
                  {t.refunds.some((r) => r.status === 'pending') && <div className="text-xs text-muted-foreground">refund pending</div>}
                </TableCell>
                <TableCell>
                  <Badge variant={statusVariant(t.status)}>{t.status}</Badge>
                  {t.type === 'renewal' && <span className="ml-1 text-xs text-muted-foreground">renewal</span>}
                </TableCell>
                <TableCell className="whitespace-normal">
                  <div>{t.customer.name}</div>
                  <div className="text-xs break-all text-muted-foreground">{t.customer.email}</div>
                </TableCell>
                <TableCell className="whitespace-normal">
                  {resourceLink(t.resourceID)
                    ? <Link className="underline-offset-4 hover:underline" to={resourceLink(t.resourceID)!}>{names.get(t.resourceID!) ?? t.resourceID}</Link>
                    : '—'}
                  {attributionWords(t.attribution) && (
                    <div className="max-w-64 whitespace-normal break-words text-xs text-muted-foreground" data-testid="attribution" title={t.attribution?.adClickID ? `Ad click id: ${t.attribution.adClickID}` : undefined}>
                      From {attributionWords(t.attribution)}
                    </div>
                  )}
                </TableCell>
                <TableCell className="whitespace-nowrap">{when(t.createdAt)}</TableCell>
                <TableCell className="whitespace-normal">
                  <Link className="block font-mono text-xs break-all text-primary underline-offset-4 hover:underline" to={`/money/transactions/${encodeURIComponent(t.txref)}`}>{t.txref}</Link>
                  <Link className="text-sm text-primary underline-offset-4 hover:underline" to={`/developers/events?resourceID=${encodeURIComponent(t.txref)}`}>
                    Events and deliveries
                  </Link>
                  {t.status === 'succeeded' && t.amount > 0 && refundable(t) > 0 && (
                    <Button size="sm" variant="outline" className="mt-1 block" onClick={() => setRefunding(t)} aria-label={`Refund ${t.customer.name}, ${money(t.amount, t.currency)}`}>
                      Refund
                    </Button>
                  )}
                  {t.status === 'succeeded' && (
                    // A plain link: the session cookie authorises the GET, and the browser shows the PDF.
                    <a className="block text-sm text-primary underline-offset-4 hover:underline" href={`/api/v1/transactions/${encodeURIComponent(t.txref)}/invoice`} target="_blank" rel="noreferrer">
                      Invoice (PDF)
                    </a>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        </>
      )}
      <LoadMore hasMore={list.hasMore} loading={list.loadingMore} onClick={list.loadMore} />
      <RefundDialog transaction={refunding} onClose={() => setRefunding(null)} onDone={() => qc.invalidateQueries({ queryKey: ['list', path] })} />
    </div>
  );
}
