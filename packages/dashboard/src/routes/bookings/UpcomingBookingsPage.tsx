import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Booking } from '@creator-commerce/sdk';
import { api, errorMessage, v1, type ListPage } from '@/api';
import { Confirm } from '@/components/confirm';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { toast } from '@/components/ui/toast';
import { EmptyState, ErrorNote, Loading, PageHeader } from '../people/parts.tsx';
import { useCatalogNames } from '../people/use-list.ts';

const upcomingPath = v1('/bookings');

/** "Tue 8 Jun" and "09:00–09:30" in the reader's zone: when the creator has to be there. */
function sessionParts(b: Booking): [string, string] {
  const start = new Date(b.startsAt);
  const day = start.toLocaleDateString(undefined, { weekday: 'short', day: 'numeric', month: 'short' });
  const time = (d: Date) => d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  return [day, `${time(start)}–${time(new Date(b.endsAt))}`];
}

const session = (b: Booking) => sessionParts(b).join(', ');

/**
 * Upcoming bookings of the brand's bookable products (docs/bookings.md), soonest first, in the
 * current mode, with a Cancel that asks first. The API's rules apply: inside the product's
 * change notice the cancel is refused and the toast says why.
 */
export function UpcomingBookingsPage() {
  const client = useQueryClient();
  const names = useCatalogNames();
  const list = useQuery({
    queryKey: ['list', upcomingPath, 'upcoming'],
    queryFn: () => api.get<ListPage<Booking>>(upcomingPath, { upcoming: true, limit: 100 }),
  });
  const cancel = useMutation({
    mutationFn: (b: Booking) => api.post<Booking>(v1(`/bookings/${encodeURIComponent(b.id)}/cancel`), {}),
    onSuccess: (b) => {
      toast({ title: `Booking of ${b.customer.name} cancelled`, description: 'The place is free again. Refund the payment from Money if it should be.' });
      void client.invalidateQueries({ queryKey: ['list', upcomingPath] });
    },
    onError: (err) => toast({ title: 'Could not cancel', description: errorMessage(err), variant: 'destructive' }),
  });
  const items = list.data?.items ?? [];

  return (
    <div>
      <PageHeader title="Upcoming bookings" description="Sessions buyers have booked and paid for, soonest first, in your time zone." />
      <ErrorNote error={list.error} />
      {list.isPending ? <Loading /> : !items.length && !list.error ? (
        <EmptyState title="No upcoming bookings">
          Bookings appear here when buyers pay for a slot of an appointment product.
        </EmptyState>
      ) : (
        <Table aria-label="Upcoming bookings">
          <TableHeader>
            <TableRow>
              <TableHead>When</TableHead>
              <TableHead className="hidden md:table-cell">Product</TableHead>
              <TableHead>Customer</TableHead>
              <TableHead className="hidden md:table-cell">Places</TableHead>
              <TableHead><span className="sr-only">Actions</span></TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {items.map((b) => (
              <TableRow key={b.id}>
                <TableCell className="font-medium whitespace-normal">
                  {/* Day and time wrap apart on a phone, so the Cancel button stays in view. */}
                  <span className="whitespace-nowrap">{sessionParts(b)[0]},</span> <span className="whitespace-nowrap">{sessionParts(b)[1]}</span>
                  {b.status === 'rescheduled' ? <Badge variant="secondary" className="ml-2">Rescheduled</Badge> : null}
                  {/* On a phone the product and places columns are hidden: the product goes under the time. */}
                  <div className="text-muted-foreground text-xs font-normal md:hidden">{names.get(b.productID) ?? b.productID}{b.places > 1 ? ` · ${b.places} places` : ''}</div>
                </TableCell>
                <TableCell className="hidden md:table-cell">{names.get(b.productID) ?? b.productID}</TableCell>
                <TableCell className="whitespace-normal">
                  <div>{b.customer.name}</div>
                  <div className="text-muted-foreground text-xs break-all">{b.customer.email}</div>
                </TableCell>
                <TableCell className="hidden md:table-cell">{b.places}</TableCell>
                <TableCell className="text-right">
                  <Confirm
                    trigger={<Button variant="outline" size="sm" disabled={cancel.isPending}>Cancel</Button>}
                    title="Cancel this booking?"
                    description={`${b.customer.name}'s session on ${session(b)} is cancelled and the place is free again. The payment is not refunded by this.`}
                    action="Cancel booking"
                    onConfirm={() => cancel.mutate(b)}
                  />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </div>
  );
}
