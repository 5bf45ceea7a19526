import { useState, type FormEvent } from 'react';
import { formatDate } from '@/lib/format';
import { Link } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import type { FulfilmentParams, Transaction } from '@creator-commerce/sdk';
import { errorMessage } from '@/api';
import { useCatalogNames } from '@/hooks/api/catalog-names';
import { transactionKeys, useFulfil, useFulfilmentQueue } from '@/hooks/api/transactions';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { toast } from '@/components/ui/toast';
import { EmptyState, ErrorNote, Loading, PageHeader } from '../people/parts.tsx';
import { destination } from './address.ts';

/**
 * The fulfilment queue (docs/shipping.md): paid orders of physical products still to ship or
 * hand over, oldest first, then those waiting at a pickup point. Each row has its next step:
 * "Mark shipped" (asks the carrier and tracking number), "Ready for pickup", "Picked up"; and a
 * packing slip to print. The API's rules apply: a refused step shows the server's words.
 */
export function FulfilmentQueuePage() {
  const client = useQueryClient();
  const names = useCatalogNames();
  const [shipping, setShipping] = useState<Transaction | null>(null);
  const unfulfilled = useFulfilmentQueue('unfulfilled');
  const waiting = useFulfilmentQueue('ready_for_pickup');
  const step = useFulfil({
    onSuccess: (t) => {
      const status = t.fulfilment?.status;
      toast({
        title: status === 'shipped' ? `Order of ${t.customer.name} marked shipped` : status === 'ready_for_pickup' ? `${t.customer.name} can collect the order` : `Order of ${t.customer.name} picked up`,
        description: status === 'picked_up' ? 'It leaves the queue.' : 'The buyer gets an email.',
      });
      setShipping(null);
      void client.invalidateQueries({ queryKey: transactionKeys.lists });
    },
    onError: (err) => toast({ title: 'Could not update the order', description: errorMessage(err), variant: 'destructive' }),
  });
  const items = [...(unfulfilled.data?.items ?? []), ...(waiting.data?.items ?? [])];
  const pending = unfulfilled.isPending || waiting.isPending;

  return (
    <div>
      <PageHeader title="Orders to fulfil" description="Paid orders of physical products still to ship or hand over, oldest first." />
      <ErrorNote error={unfulfilled.error ?? waiting.error} />
      {pending ? <Loading /> : !items.length ? (
        <EmptyState title="Nothing to ship">
          Orders of physical products appear here when buyers pay, until they are shipped or picked up.
        </EmptyState>
      ) : (
        <Table aria-label="Orders to fulfil">
          <TableHeader>
            <TableRow>
              <TableHead>Order</TableHead>
              <TableHead>Ship to</TableHead>
              <TableHead className="hidden md:table-cell"><span className="sr-only">Actions</span></TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {items.map((t) => {
              const where = destination(t);
              const ready = t.fulfilment?.status === 'ready_for_pickup';
              const actions = (
                <div className="flex flex-wrap gap-2 md:flex-col md:items-end">
                  {t.shipping?.method === 'delivery' ? (
                    <Button size="sm" disabled={step.isPending} onClick={() => setShipping(t)}>Mark shipped</Button>
                  ) : ready ? (
                    <Button size="sm" disabled={step.isPending} onClick={() => step.mutate({ txref: t.txref, body: { status: 'picked_up' } })}>Picked up</Button>
                  ) : (
                    <Button size="sm" disabled={step.isPending} onClick={() => step.mutate({ txref: t.txref, body: { status: 'ready_for_pickup' } })}>Ready for pickup</Button>
                  )}
                  <Button asChild size="sm" variant="outline">
                    <Link to={`/orders/${encodeURIComponent(t.txref)}/packing-slip`}>Packing slip</Link>
                  </Button>
                </div>
              );
              return (
                <TableRow key={t.txref}>
                  <TableCell className="align-top whitespace-normal">
                    <div className="font-medium">{names.get(t.resourceID ?? '') ?? t.resourceID}</div>
                    <div>{t.customer.name}</div>
                    <div className="text-muted-foreground text-xs break-all">{t.customer.email}</div>
                     <div className="text-muted-foreground text-xs break-all">{formatDate(t.createdAt, '')} · <Link className="underline" to={`/money/transactions/${encodeURIComponent(t.txref)}`}>{t.txref}</Link></div>
                  </TableCell>
                  <TableCell className="align-top whitespace-normal">
                    <div className="font-medium">{where.heading}</div>
                    <address className="not-italic text-sm">{where.lines.map((l, i) => <div key={i}>{l}</div>)}</address>
                    {ready ? <Badge variant="secondary" className="mt-1">Waiting for pickup</Badge> : null}
                    {/* On a phone the actions go under the address, so they stay in view. */}
                    <div className="mt-3 md:hidden">{actions}</div>
                  </TableCell>
                  <TableCell className="hidden align-top text-right md:table-cell">
                    {actions}
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      )}
      <ShipDialog order={shipping} busy={step.isPending} onClose={() => setShipping(null)} onShip={(body) => shipping && step.mutate({ txref: shipping.txref, body })} />
    </div>
  );
}

/** Carrier, tracking number and an optional tracking page: what the buyer's email shows. */
function ShipDialog({ order, busy, onClose, onShip }: { order: Transaction | null; busy: boolean; onClose: () => void; onShip: (body: FulfilmentParams) => void }) {
  const [carrier, setCarrier] = useState('');
  const [trackingNumber, setTrackingNumber] = useState('');
  const [trackingUrl, setTrackingUrl] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onShip({ status: 'shipped', carrier: carrier.trim(), trackingNumber: trackingNumber.trim(), ...(trackingUrl.trim() ? { trackingUrl: trackingUrl.trim() } : {}) });
  };
  return (
    <Dialog open={order !== null} onOpenChange={(open) => { if (!open) onClose(); }}>
      <DialogContent>
        <form onSubmit={submit} className="grid gap-4">
          <DialogHeader>
            <DialogTitle>Mark shipped</DialogTitle>
            <DialogDescription>{order ? `${order.customer.name} gets an email with the carrier and tracking number.` : ''}</DialogDescription>
          </DialogHeader>
          <div className="grid gap-2">
            <Label htmlFor="ship-carrier">Carrier</Label>
            <Input id="ship-carrier" required maxLength={100} value={carrier} onChange={(e) => setCarrier(e.target.value)} placeholder="USPS, Royal Mail, DHL…" />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="ship-tracking">Tracking number</Label>
            <Input id="ship-tracking" required maxLength={100} value={trackingNumber} onChange={(e) => setTrackingNumber(e.target.value)} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="ship-url">Tracking page <span className="text-muted-foreground font-normal">(optional)</span></Label>
            <Input id="ship-url" type="url" maxLength={2048} value={trackingUrl} onChange={(e) => setTrackingUrl(e.target.value)} placeholder="https://" />
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>Cancel</Button>
            <Button type="submit" disabled={busy || !carrier.trim() || !trackingNumber.trim()}>Mark shipped</Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
