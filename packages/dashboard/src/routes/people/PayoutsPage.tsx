import { Link } from 'react-router';
import type { Payout } from '@creator-commerce/sdk';
import { v1 } from '@/api';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import type { CsvColumn } from './csv.ts';
import { ExportCsvButton } from './ExportCsvButton.tsx';
import { money, when } from './format.ts';
import { EmptyState, ErrorNote, LoadMore, Loading, PageHeader } from './parts.tsx';
import { useList } from './use-list.ts';

const columns: CsvColumn<Payout>[] = [
  { header: 'id', value: (p) => p.id },
  { header: 'amount', value: (p) => p.amount },
  { header: 'fee', value: (p) => p.fee },
  { header: 'currency', value: (p) => p.currency },
  { header: 'transactionCount', value: (p) => p.transactionCount },
  { header: 'periodStart', value: (p) => p.periodStart },
  { header: 'periodEnd', value: (p) => p.periodEnd },
  { header: 'settledAt', value: (p) => p.settledAt },
  { header: 'mode', value: (p) => p.mode },
  // Added after the first columns so that spreadsheets built on the old export keep working.
  { header: 'gross', value: (p) => p.gross ?? '' },
  { header: 'refunded', value: (p) => p.refunded },
  { header: 'affiliateCommission', value: (p) => p.affiliateCommission ?? 0 },
];

/** Settled payouts of the current mode: what was paid out, the fees kept, the period covered. */
export function PayoutsPage() {
  const path = v1('/payouts');
  const list = useList<Payout>(path);
  return (
    <div>
      <PageHeader
        title="Payouts"
        description="Money paid out to you: succeeded payments, less fees, refunds and affiliate commissions, grouped by period."
        actions={<ExportCsvButton path={path} columns={columns} name={['payouts']} />}
      />
      <ErrorNote error={list.error} />
      {list.isLoading ? <Loading /> : !list.items.length && !list.error ? (
        <EmptyState title="No payouts yet">
          Payouts settle on the brand's payout schedule once there are succeeded transactions to pay out.
        </EmptyState>
      ) : (
        <Table aria-label="Payouts">
          <TableHeader>
            <TableRow>
              <TableHead>Net amount</TableHead>
              <TableHead>Payments</TableHead>
              <TableHead>Fees</TableHead>
              <TableHead>Refunds</TableHead>
              <TableHead>Affiliates</TableHead>
              <TableHead>Transactions</TableHead>
              <TableHead>Period</TableHead>
              <TableHead>Settled</TableHead>
              <TableHead>Payout</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {list.items.map((p) => (
              <TableRow key={p.id}>
                <TableCell className="font-medium whitespace-nowrap">{money(p.amount, p.currency)}</TableCell>
                <TableCell className="whitespace-nowrap">{money(p.gross ?? p.amount + p.fee + p.refunded, p.currency)}</TableCell>
                <TableCell className="whitespace-nowrap">−{money(p.fee, p.currency)}</TableCell>
                <TableCell className="whitespace-nowrap">{p.refunded ? `−${money(p.refunded, p.currency)}` : '—'}</TableCell>
                <TableCell className="whitespace-nowrap">{p.affiliateCommission ? `−${money(p.affiliateCommission, p.currency)}` : '—'}</TableCell>
                <TableCell>{p.transactionCount}</TableCell>
                {/* Dates wrap between themselves, so the row fits a laptop's width with every column. */}
                <TableCell className="whitespace-normal"><span><span className="whitespace-nowrap">{when(p.periodStart)}</span> – <span className="whitespace-nowrap">{when(p.periodEnd)}</span></span></TableCell>
                <TableCell className="whitespace-normal">{when(p.settledAt)}</TableCell>
                <TableCell className="font-mono text-xs whitespace-normal break-all"><Link className="text-primary underline" to={`/money/payouts/${encodeURIComponent(p.id)}`}>{p.id}</Link></TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <LoadMore hasMore={list.hasMore} loading={list.loadingMore} onClick={list.loadMore} />
    </div>
  );
}
