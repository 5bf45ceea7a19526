import type { CurrencyRevenue, RevenuePeriod } from '@creator-commerce/sdk';
import { formatDate } from '@/lib/format';
import { Link } from 'react-router';
import { LoadError, Loading, PageHeader } from '@/components/page';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useCurrentSession } from '@/lib/session';
import { usePageTitle } from '@/lib/title';
import { money, shortMoney } from '@/routes/people/format';
import { useMetricsSummary, useSetupState } from '@/hooks/api/metrics';
import { RevenueChart } from './RevenueChart';
import { SetupChecklist, steps } from './SetupChecklist';

function Period({ label, period, currency }: { label: string; period: RevenuePeriod; currency: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-base font-semibold break-words tabular-nums sm:text-lg" data-testid={`net-${label}`}>{money(period.net, currency)}</dd>
      <dd className="text-xs text-muted-foreground">
        {period.sales} {period.sales === 1 ? 'sale' : 'sales'}{period.refunded > 0 && <> · {shortMoney(period.refunded, currency)} refunded</>}
      </dd>
    </div>
  );
}

function RevenueCard({ revenue }: { revenue: CurrencyRevenue }) {
  return (
    <Card role="region" aria-label={`Revenue in ${revenue.currency}`} data-currency={revenue.currency}>
      <CardHeader>
        <CardTitle>Revenue · {revenue.currency}</CardTitle>
        <CardDescription>Paid sales less refunds. <Link className="text-primary underline" to="/money">See the transactions</Link></CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <dl className="grid grid-cols-3 gap-3">
          <Period label="Today" period={revenue.today} currency={revenue.currency} />
          <Period label="7 days" period={revenue.last7Days} currency={revenue.currency} />
          <Period label="30 days" period={revenue.last30Days} currency={revenue.currency} />
        </dl>
        <RevenueChart revenue={revenue} />
      </CardContent>
    </Card>
  );
}

/** The landing page after sign-in: the numbers, what needs attention and, for a new brand, what to do first. */
export function HomePage() {
  usePageTitle('Home');
  const session = useCurrentSession();
  const summary = useMetricsSummary();
  const setup = useSetupState();
  if (summary.isPending || setup.isPending) return <Loading />;
  if (summary.error) return <LoadError error={summary.error} />;
  if (setup.error) return <LoadError error={setup.error} />;
  const s = summary.data;
  const unfinished = steps(setup.data).some((step) => !step.done);
  const mode = session.mode === 'test' ? 'test mode' : 'live mode';
  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="Home" description={`${session.brand.name} in ${mode}. Days run in ${s.timeZone} time; money is shown per currency.`} />
      {unfinished && <SetupChecklist state={setup.data} />}
      <section aria-label="Revenue" className="grid gap-4 lg:grid-cols-2">
        {s.revenue.length ? s.revenue.map((r) => <RevenueCard key={r.currency} revenue={r} />) : (
          <Card><CardHeader><CardTitle>Revenue</CardTitle><CardDescription>No sales in the last 30 days of {mode}.</CardDescription></CardHeader></Card>
        )}
      </section>
      <section aria-label="Members and subscriptions" className="grid gap-4 sm:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Subscriptions</CardTitle>
            <CardDescription><Link className="text-primary underline" to="/people/subscriptions">See subscriptions</Link></CardDescription>
          </CardHeader>
          <CardContent>
            <dl className="grid grid-cols-2 gap-3">
              <div><dt className="text-xs text-muted-foreground">Monthly recurring revenue</dt>
                <dd className="font-semibold tabular-nums" data-testid="mrr">{s.subscriptions.mrr.length ? s.subscriptions.mrr.map((m) => money(m.amount, m.currency)).join(' · ') : '—'}</dd></div>
              <div><dt className="text-xs text-muted-foreground">Active</dt>
                <dd className="font-semibold tabular-nums" data-testid="active-subscriptions">{s.subscriptions.active}
                  {s.subscriptions.cancelling > 0 && <span className="text-xs font-normal text-muted-foreground"> ({s.subscriptions.cancelling} cancelling)</span>}</dd></div>
            </dl>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>New members</CardTitle>
            <CardDescription>People whose first purchase or membership began in the period. <Link className="text-primary underline" to="/people">See them</Link></CardDescription>
          </CardHeader>
          <CardContent>
            <dl className="grid grid-cols-3 gap-3" data-testid="new-members">
              <div><dt className="text-xs text-muted-foreground">Today</dt><dd className="font-semibold tabular-nums">{s.newMembers.today}</dd></div>
              <div><dt className="text-xs text-muted-foreground">7 days</dt><dd className="font-semibold tabular-nums">{s.newMembers.last7Days}</dd></div>
              <div><dt className="text-xs text-muted-foreground">30 days</dt><dd className="font-semibold tabular-nums">{s.newMembers.last30Days}</dd></div>
            </dl>
          </CardContent>
        </Card>
      </section>
      {s.failedRenewals.count > 0 && (
        <Card aria-labelledby="failed-title" className="border-destructive/40">
          <CardHeader>
            <CardTitle id="failed-title">Failed renewals ({s.failedRenewals.count})</CardTitle>
            <CardDescription>The card was declined; the charge is tried again. Reach out to these customers. <Link className="text-primary underline" to="/people/subscriptions?status=past_due">See them all</Link></CardDescription>
          </CardHeader>
          <CardContent>
            <ul className="divide-y">
              {s.failedRenewals.items.map((f) => (
                <li key={f.membershipID} className="flex flex-wrap items-baseline justify-between gap-2 py-2 text-sm">
                  <span className="min-w-0"><Link className="font-medium text-primary underline" to={`/people/customers/${f.customerID}`}>{f.customer.name}</Link> <span className="break-all text-muted-foreground">{f.customer.email}</span></span>
                  <span className="text-muted-foreground">{money(f.amount, f.currency)} · {f.failedAttempts} failed{f.nextRetryAt ? ` · next try ${formatDate(f.nextRetryAt, '')}` : ''}</span>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      )}
      <Card aria-labelledby="recent-title">
        <CardHeader>
          <CardTitle id="recent-title">Recent sales</CardTitle>
          <CardDescription><Link className="text-primary underline" to="/money">All transactions</Link></CardDescription>
        </CardHeader>
        <CardContent>
          {s.recentSales.length ? (
            <ul className="divide-y" data-testid="recent-sales">
              {s.recentSales.map((t) => (
                <li key={t.txref} className="flex flex-wrap items-baseline justify-between gap-2 py-2 text-sm">
                  <span className="min-w-0"><span className="font-medium">{t.customer.name}</span> <span className="break-all text-muted-foreground">{t.customer.email}</span></span>
                  <span className="tabular-nums">{money(t.amount, t.currency)}{t.status === 'refunded' ? ' (refunded)' : ''} · <span className="text-muted-foreground">{formatDate(t.createdAt, '')}</span></span>
                </li>
              ))}
            </ul>
          ) : <p className="text-sm text-muted-foreground">No paid sales yet in {mode}.</p>}
        </CardContent>
      </Card>
    </div>
  );
}
