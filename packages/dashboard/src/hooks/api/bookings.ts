import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Booking } from '@creator-commerce/sdk';
import { client } from '@/api';
import { listKey } from './list.ts';
import type { AfterWrite } from './mutation.ts';

/** Bookings of bookable products (`/api/v1/bookings`, docs/bookings.md). */
export const bookingKeys = { lists: listKey('bookings') };

/** The next 100 upcoming bookings, soonest first. */
export const useUpcomingBookings = () => useQuery({
  queryKey: [...bookingKeys.lists, 'upcoming'],
  queryFn: async () => client.bookings.list({ upcoming: true, limit: 100 }),
});

/** Cancels a booking (refused inside the product's change notice), then refreshes the list; the page adds its toasts. */
export function useCancelBooking(options: AfterWrite<Booking, string> = {}) {
  const qc = useQueryClient();
  return useMutation({
    ...options,
    mutationFn: (bookingId: string) => client.bookings.cancel(bookingId, {}),
    onSuccess: (...args) => {
      void qc.invalidateQueries({ queryKey: bookingKeys.lists });
      return options.onSuccess?.(...args);
    },
  });
}
