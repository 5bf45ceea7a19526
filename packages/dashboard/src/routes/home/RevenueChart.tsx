import type { CurrencyRevenue } from '@creator-commerce/sdk';
import { shortMoney } from '@/routes/people/format';

/**
 * The last 30 days of one currency's net revenue as bars, drawn as SVG (no chart library: the
 * home is the first page a creator loads, and a few dozen rectangles do not need 100 KB). Days
 * where refunds outweighed sales go below the line. Screen readers get the figures in the
 * cards beside it and a one-line summary here.
 */
export function RevenueChart({ revenue }: { revenue: CurrencyRevenue }) {
  const w = 300, h = 80, gap = 2;
  const values = revenue.daily.map((d) => d.net);
  const top = Math.max(0, ...values), bottom = Math.min(0, ...values);
  const span = top - bottom || 1;
  const zero = (top / span) * h;
  const bar = w / values.length;
  const best = revenue.daily.reduce((a, d) => (d.net > a.net ? d : a), revenue.daily[0]);
  return (
    <svg viewBox={`0 0 ${w} ${h}`} className="h-20 w-full" role="img" preserveAspectRatio="none"
      aria-label={`Net revenue per day in ${revenue.currency} over the last 30 days; best day ${best.date}, ${shortMoney(best.net, revenue.currency)}.`}>
      <line x1={0} x2={w} y1={zero} y2={zero} className="stroke-border" strokeWidth={1} />
      {revenue.daily.map((d, i) => {
        const height = (Math.abs(d.net) / span) * h;
        return (
          <rect key={d.date} x={i * bar + gap / 2} width={Math.max(1, bar - gap)} y={d.net >= 0 ? zero - height : zero} height={Math.max(d.net === 0 ? 0 : 1, height)}
            className={d.net >= 0 ? 'fill-primary' : 'fill-destructive'}>
            <title>{`${d.date}: ${shortMoney(d.net, revenue.currency)}`}</title>
          </rect>
        );
      })}
    </svg>
  );
}
