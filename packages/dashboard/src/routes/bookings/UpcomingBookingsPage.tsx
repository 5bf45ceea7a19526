import type { Booking } from '@creator-commerce/sdk';
import { errorMessage } from '@/api';
import { Confirm } from '@/components/confirm';
import { EmptyState, ListView } from '@/components/list-view';
import { PageHeader } from '@/components/page';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/toast';
import { useCancelBooking, useUpcomingBookings } from '@/hooks/api/bookings';
import { useCatalogNames } from '@/hooks/api/catalog-names';

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
  const names = useCatalogNames();
  const list = useUpcomingBookings();
  const cancel = useCancelBooking({
    onSuccess: (b) => toast({ title: `Booking of ${b.customer.name} cancelled`, description: 'The place is free again. Refund the payment from Money if it should be.' }),
    onError: (err) => toast({ title: 'Could not cancel', description: errorMessage(err), variant: 'destructive' }),
  });

  return (
    <div>
      <PageHeader title="Upcoming bookings" description="Sessions buyers have booked and paid for, soonest first, in your time zone." />
      <ListView
        list={{ items: list.data?.items ?? [], isLoading: list.isPending, error: list.error }}
        label="Upcoming bookings"
        rowKey={(b) => b.id}
        empty={<EmptyState title="No upcoming bookings">Bookings appear here when buyers pay for a slot of an appointment product.</EmptyState>}
        columns={[
          { header: 'When', className: 'font-medium whitespace-normal', cell: (b) => <>
            {/* Day and time wrap apart on a phone, so the Cancel button stays in view. */}
            <span className="whitespace-nowrap">{sessionParts(b)[0]},</span> <span className="whitespace-nowrap">{sessionParts(b)[1]}</span>
            {b.status === 'rescheduled' ? <Badge variant="secondary" className="ml-2">Rescheduled</Badge> : null}
            {/* On a phone the product and places columns are hidden: the product goes under the time. */}
            <div className="text-muted-foreground text-xs font-normal md:hidden">{names.get(b.productID) ?? b.productID}{b.places > 1 ? ` · ${b.places} places` : ''}</div>
          </> },
          { header: 'Product', headClassName: 'hidden md:table-cell', className: 'hidden md:table-cell', cell: (b) => names.get(b.productID) ?? b.productID },
          { header: 'Customer', className: 'whitespace-normal', cell: (b) => <>
            <div>{b.customer.name}</div>
            <div className="text-muted-foreground text-xs break-all">{b.customer.email}</div>
          </> },
          { header: 'Places', headClassName: 'hidden md:table-cell', className: 'hidden md:table-cell', cell: (b) => b.places },
          { header: <span className="sr-only">Actions</span>, className: 'text-right', cell: (b) => (
            <Confirm
              trigger={<Button variant="outline" size="sm" disabled={cancel.isPending}>Cancel</Button>}
              title="Cancel this booking?"
              description={`${b.customer.name}'s session on ${session(b)} is cancelled and the place is free again. The payment is not refunded by this.`}
              action="Cancel booking"
              onConfirm={() => cancel.mutate(b.id)}
            />
          ) },
        ]}
      />
    </div>
  );
}
