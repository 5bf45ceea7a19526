import { Link, useParams } from 'react-router';
import { formatDate } from '@/lib/format';
import { useCatalogNames } from '@/hooks/api/catalog-names';
import { useTransaction } from '@/hooks/api/transactions';
import { Button } from '@/components/ui/button';
import { ErrorNote, Loading } from '../people/parts.tsx';
import { destination } from './address.ts';

/**
 * A packing slip to print and put in the parcel: who it is for, where it goes, what is in it and
 * the order reference. Printing hides the dashboard around it (index.css, `@media print`).
 */
export function PackingSlipPage() {
  const { txref = '' } = useParams();
  const names = useCatalogNames();
  const order = useTransaction(txref);
  if (order.isPending) return <Loading />;
  if (!order.data) return <ErrorNote error={order.error} />;
  const t = order.data;
  const where = destination(t);
  return (
    <div className="packing-slip mx-auto max-w-2xl">
      <div className="no-print mb-4 flex flex-wrap gap-2">
        <Button onClick={() => window.print()}>Print packing slip</Button>
        <Button asChild variant="outline"><Link to="/orders">Back to orders</Link></Button>
      </div>
      <article className="rounded-lg border p-6 print:border-0 print:p-0" aria-label="Packing slip">
        <h1 className="text-2xl font-semibold">Packing slip</h1>
        <p className="text-muted-foreground text-sm">Order {t.txref} · {formatDate(t.createdAt, '')}</p>
        <section className="mt-6">
          <h2 className="text-sm font-semibold uppercase tracking-wide">{t.shipping?.method === 'pickup' ? 'Collect at' : 'Ship to'}</h2>
          <address className="mt-1 text-lg not-italic leading-snug">
            <div className="font-medium">{t.customer.name}</div>
            {t.shipping?.method === 'pickup' ? <div>{where.heading}</div> : null}
            {where.lines.map((l, i) => <div key={i}>{l}</div>)}
          </address>
          {t.shipping?.pickupLocation ? <p className="mt-1 text-sm">Opening hours: {t.shipping.pickupLocation.openingHours}</p> : null}
        </section>
        <section className="mt-6">
          <h2 className="text-sm font-semibold uppercase tracking-wide">In this parcel</h2>
          <table className="mt-2 w-full text-left">
            <thead><tr className="border-b"><th className="py-1">Item</th><th className="py-1 text-right">Quantity</th></tr></thead>
            <tbody><tr className="border-b"><td className="py-2">{names.get(t.resourceID ?? '') ?? t.resourceID}</td><td className="py-2 text-right">1</td></tr></tbody>
          </table>
        </section>
        <p className="mt-6 text-sm">Questions about this order? Quote {t.txref}.</p>
      </article>
    </div>
  );
}
