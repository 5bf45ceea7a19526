import { useState } from 'react';
import { formatDate } from '@/lib/format';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import type { Transaction } from '@creator-commerce/sdk';
import { EmptyState, ExportCsvButton, ListView } from '@/components/list-view';
import { PageHeader } from '@/components/page';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { useCatalogNames } from '@/hooks/api/catalog-names';
import { fetchTransactions, transactionKeys, useTransactionTotals, useTransactions } from '@/hooks/api/transactions';
import type { CsvColumn } from '@/lib/csv';
import { usePageTitle } from '@/lib/title';
import { TransactionFilters, filtersFrom } from './TransactionFilters.tsx';
import { money, shortMoney } from './format.ts';
import { statusVariant } from './MembershipList.tsx';
import { RefundDialog, refundable } from './RefundDialog.tsx';

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
  const [params] = useSearchParams();
  const filters = filtersFrom(params);
  const list = useTransactions(filters);
  const totals = useTransactionTotals(filters);
  const filtered = Object.keys(filters).length > 0;
  const names = useCatalogNames();
  const qc = useQueryClient();
  const [refunding, setRefunding] = useState<Transaction | null>(null);
  const refundButton = (t: Transaction, className?: string) => t.status === 'succeeded' && t.amount > 0 && refundable(t) > 0 && (
    <Button size="sm" variant="outline" className={className} onClick={() => setRefunding(t)} aria-label={`Refund ${t.customer.name}, ${money(t.amount, t.currency)}`}>Refund</Button>
  );
  return (
    <div>
      <PageHeader
        title="Transactions"
        description="Payments in the current mode, newest first. Each links to the events it caused and their webhook deliveries."
        actions={<ExportCsvButton fetchPage={fetchTransactions(filters)} columns={columns} name={['transactions']} />}
      />
      <TransactionFilters names={names} />
      {totals.data && totals.data.items.length > 0 && (
        <p className="mb-3 text-sm" data-testid="totals" aria-live="polite">
          {totals.data.items.map((x) => `${x.count} ${x.count === 1 ? 'transaction' : 'transactions'} in ${x.currency}: ${money(x.paid, x.currency)} paid`
            + (x.refunded > 0 ? `, ${money(x.refunded, x.currency)} refunded` : '')).join(' · ')}
        </p>
      )}
      <ListView
        list={list}
        label="Transactions"
        rowKey={(t) => t.txref}
        empty={filtered ? (
          <EmptyState title="No transaction matches">Change or clear the filters above.</EmptyState>
        ) : (
          <EmptyState title="No transactions yet" action={<Link className="text-primary underline" to="/catalog/products">Make a payment link from a product</Link>}>
            A transaction is recorded when a buyer pays a payment link. In test mode, pay one with a test card to see it here.
          </EmptyState>
        )}
        // Below md the table would hide its actions off to the right: each payment is a card instead, status and actions first.
        card={(t) => <>
          <div className="flex flex-wrap items-center justify-between gap-2">
            <span className="font-medium">{money(t.amount, t.currency)}</span>
            <Badge variant={statusVariant(t.status)}>{t.status}</Badge>
          </div>
          {t.fee !== undefined && t.net !== undefined && t.amount > 0 && (
            <div className="text-xs text-muted-foreground">fee {shortMoney(t.fee, t.currency)} · net {shortMoney(t.net, t.currency)}</div>
          )}
          <div className="mt-1 break-all">{t.customer.name} <span className="text-muted-foreground">{t.customer.email}</span></div>
          <div className="text-xs text-muted-foreground">{formatDate(t.createdAt, '')}{t.resourceID ? ` · ${names.get(t.resourceID) ?? t.resourceID}` : ''}</div>
          <div className="mt-2 flex flex-wrap items-center gap-3">
            <Link className="text-primary underline" to={`/money/transactions/${encodeURIComponent(t.txref)}`} aria-label={`Details of ${t.txref}`}>Details</Link>
            {refundButton(t)}
          </div>
        </>}
        columns={[
          { header: 'Amount', className: 'whitespace-nowrap', cell: (t) => <>
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
          </> },
          { header: 'Status', cell: (t) => <>
            <Badge variant={statusVariant(t.status)}>{t.status}</Badge>
            {t.type === 'renewal' && <span className="ml-1 text-xs text-muted-foreground">renewal</span>}
          </> },
          { header: 'Customer', className: 'whitespace-normal', cell: (t) => <>
            <div>{t.customer.name}</div>
            <div className="text-xs break-all text-muted-foreground">{t.customer.email}</div>
          </> },
          { header: 'For', className: 'whitespace-normal', cell: (t) => {
            const to = resourceLink(t.resourceID);
            return <>
              {to && t.resourceID ? <Link className="underline-offset-4 hover:underline" to={to}>{names.get(t.resourceID) ?? t.resourceID}</Link> : '—'}
              {attributionWords(t.attribution) && (
                <div className="max-w-64 whitespace-normal break-words text-xs text-muted-foreground" data-testid="attribution" title={t.attribution?.adClickID ? `Ad click id: ${t.attribution.adClickID}` : undefined}>
                  From {attributionWords(t.attribution)}
                </div>
              )}
            </>;
          } },
          { header: 'Date', className: 'whitespace-nowrap', cell: (t) => formatDate(t.createdAt, '') },
          { header: 'Reference', className: 'whitespace-normal', cell: (t) => <>
            <Link className="block font-mono text-xs break-all text-primary underline-offset-4 hover:underline" to={`/money/transactions/${encodeURIComponent(t.txref)}`}>{t.txref}</Link>
            <Link className="text-sm text-primary underline-offset-4 hover:underline" to={`/developers/events?resourceID=${encodeURIComponent(t.txref)}`}>
              Events and deliveries
            </Link>
            {refundButton(t, 'mt-1 block')}
            {t.status === 'succeeded' && (
              // A plain link: the session cookie authorises the GET, and the browser shows the PDF.
              <a className="block text-sm text-primary underline-offset-4 hover:underline" href={`/api/v1/transactions/${encodeURIComponent(t.txref)}/invoice`} target="_blank" rel="noreferrer">
                Invoice (PDF)
              </a>
            )}
          </> },
        ]}
      />
      <RefundDialog transaction={refunding} onClose={() => setRefunding(null)} onDone={() => qc.invalidateQueries({ queryKey: transactionKeys.lists })} />
    </div>
  );
}
