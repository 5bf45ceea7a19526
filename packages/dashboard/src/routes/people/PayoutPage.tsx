import { formatDate } from '@/lib/format';
import { Link, useParams } from 'react-router';
import type { PayoutLine } from '@creator-commerce/sdk';
import { usePayout } from '@/hooks/api/payouts';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { usePageTitle } from '@/lib/title';
import { money } from './format.ts';
import { ErrorNote, Loading, PageHeader } from './parts.tsx';

const lineWords: Record<PayoutLine['type'], string> = {
  payment: 'Payment', fee: 'Platform fee', refund: 'Refund', affiliate_commission: 'Affiliate commission',
};

/**
 * `/money/payouts/:id`: one payout line by line (GET /payouts/{id}, docs/payouts.md): each payment,
 * the fee on it, and what refunds and affiliate commissions took off, signed so that they add up
 * to the amount paid out, to the cent.
 */
export function PayoutPage() {
  const { id = '' } = useParams();
  usePageTitle(`Payout ${id}`);
  const payout = usePayout(id);
  if (payout.isPending) return <Loading />;
  if (payout.error) return <ErrorNote error={payout.error} />;
  const p = payout.data;
  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title={`${money(p.amount, p.currency)} paid out`}
        description={<><span className="font-mono">{p.id}</span> · {formatDate(p.periodStart, '')} – {formatDate(p.periodEnd, '')} · <Link className="text-primary underline" to="/money/payouts">All payouts</Link></>}
      />
      <Card>
        <CardHeader><CardTitle>Lines</CardTitle></CardHeader>
        <CardContent>
          <Table aria-label="Payout lines">
            <TableHeader>
              <TableRow>
                <TableHead>What</TableHead>
                <TableHead className="hidden sm:table-cell">Transaction</TableHead>
                <TableHead className="text-right">Amount</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {p.lines.map((l, i) => (
                <TableRow key={i}>
                  <TableCell>
                    {lineWords[l.type]}
                    {l.affiliateID && <div className="font-mono text-xs text-muted-foreground">{l.affiliateID}</div>}
                    {/* On a phone the transaction goes under the line's name, so the amounts stay in view. */}
                    <div className="font-mono text-xs break-all sm:hidden"><TxLink txref={l.txref} /></div>
                  </TableCell>
                  <TableCell className="hidden font-mono text-xs sm:table-cell"><TxLink txref={l.txref} /></TableCell>
                  <TableCell className="text-right tabular-nums whitespace-nowrap">{money(l.amount, p.currency)}</TableCell>
                </TableRow>
              ))}
              <TableRow className="border-t-2">
                <TableCell className="font-medium">Paid out</TableCell>
                <TableCell className="hidden sm:table-cell" />
                <TableCell className="text-right font-medium tabular-nums whitespace-nowrap" data-testid="payout-total">{money(p.amount, p.currency)}</TableCell>
              </TableRow>
            </TableBody>
          </Table>
        </CardContent>
      </Card>
    </div>
  );
}

function TxLink({ txref }: { txref: string }) {
  return <Link className="text-primary underline" to={`/money/transactions/${encodeURIComponent(txref)}`}>{txref}</Link>;
}
