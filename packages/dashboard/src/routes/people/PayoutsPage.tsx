import { Link } from 'react-router';
import type { Payout } from '@creator-commerce/sdk';
import { EmptyState, ExportCsvButton, ListView } from '@/components/list-view';
import { PageHeader } from '@/components/page';
import { fetchPayouts, usePayouts } from '@/hooks/api/payouts';
import type { CsvColumn } from '@/lib/csv';
import { formatDate } from '@/lib/format';
import { money } from './format.ts';

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
  const list = usePayouts();
  return (
    <div>
      <PageHeader
        title="Payouts"
        description="Money paid out to you: succeeded payments, less fees, refunds and affiliate commissions, grouped by period."
        actions={<ExportCsvButton fetchPage={fetchPayouts} columns={columns} name={['payouts']} />}
      />
      <ListView
        list={list}
        label="Payouts"
        rowKey={(p) => p.id}
        empty={<EmptyState title="No payouts yet">
          Payouts settle on the brand's payout schedule once there are succeeded transactions to pay out.
        </EmptyState>}
        columns={[
          { header: 'Net amount', className: 'font-medium whitespace-nowrap', cell: (p) => money(p.amount, p.currency) },
          { header: 'Payments', className: 'whitespace-nowrap', cell: (p) => money(p.gross ?? p.amount + p.fee + p.refunded, p.currency) },
          { header: 'Fees', className: 'whitespace-nowrap', cell: (p) => `−${money(p.fee, p.currency)}` },
          { header: 'Refunds', className: 'whitespace-nowrap', cell: (p) => (p.refunded ? `−${money(p.refunded, p.currency)}` : '—') },
          { header: 'Affiliates', className: 'whitespace-nowrap', cell: (p) => (p.affiliateCommission ? `−${money(p.affiliateCommission, p.currency)}` : '—') },
          { header: 'Transactions', cell: (p) => p.transactionCount },
          // Dates wrap between themselves, so the row fits a laptop's width with every column.
          { header: 'Period', className: 'whitespace-normal', cell: (p) => <span><span className="whitespace-nowrap">{formatDate(p.periodStart, '')}</span> – <span className="whitespace-nowrap">{formatDate(p.periodEnd, '')}</span></span> },
          { header: 'Settled', className: 'whitespace-normal', cell: (p) => formatDate(p.settledAt, '') },
          { header: 'Payout', className: 'font-mono text-xs whitespace-normal break-all', cell: (p) => <Link className="text-primary underline" to={`/money/payouts/${encodeURIComponent(p.id)}`}>{p.id}</Link> },
        ]}
      />
    </div>
  );
}
