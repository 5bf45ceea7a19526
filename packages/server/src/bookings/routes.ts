import { Type } from 'typebox';
import { principalOf } from '../auth/resolve.ts';
import type { Db } from '../db/client.ts';
import type { App } from '../http/app-type.ts';
import { Envelope, ListOf, ok } from '../http/envelope.ts';
import { write } from '../http/idempotency.ts';
import { AvailabilityQuery, Booking, BookingListQuery, CancelBookingBody, ProductAvailability, RescheduleBookingBody } from './schemas.ts';
import * as service from './service.ts';
import * as contract from './contract.ts';

/** Bookable products' slots and their bookings (docs/bookings.md). Every route is our addition. */
export function bookingRoutes(app: App, { db }: { db: Db }) {
  app.get('/products/:id/availability', {
    schema: {
      summary: 'List open slots of a bookable product',
      description: 'Our addition (docs/bookings.md). The sessions of an `appointment` product that can be booked now, in [from, to): inside its '
        + 'hours, past its minimum notice, within how far ahead it books, with places left in the key\'s mode. `localStart` shows each '
        + 'start in `timezone` (the buyer\'s), across daylight-saving changes. 400 naming `id` for a product that is not bookable.',
      tags: ['Bookings'],
      params: Type.Object({ id: Type.String() }),
      querystring: AvailabilityQuery,
      response: { 200: Envelope(ProductAvailability) },
    },
    config: { operation: contract.getProductAvailability, auth: { scope: 'products:read' } },
  }, async (req) => ok('Availability retrieved', await service.productAvailability(db, principalOf(req), req.params.id, req.query)));

  app.get('/bookings', {
    schema: {
      summary: 'List bookings',
      description: 'Our addition (docs/bookings.md). Paid bookings in the key\'s mode, newest first; `upcoming=true` lists those that have not '
        + 'ended, soonest first.',
      tags: ['Bookings'],
      querystring: BookingListQuery,
      response: { 200: Envelope(ListOf(Booking)) },
    },
    config: { operation: contract.listBookings, auth: { scope: 'customers:read' } },
  }, async (req) => ok('Bookings retrieved', await service.listBookings(db, principalOf(req), req.query)));

  app.get('/bookings/:id', {
    schema: {
      summary: 'Get a booking',
      tags: ['Bookings'],
      params: Type.Object({ id: Type.String() }),
      response: { 200: Envelope(Booking) },
    },
    config: { operation: contract.getBooking, auth: { scope: 'customers:read' } },
  }, async (req) => ok('Booking retrieved', await service.getBooking(db, principalOf(req), req.params.id)));

  app.post('/bookings/:id/cancel', {
    schema: {
      summary: 'Cancel a booking',
      description: 'Our addition (docs/bookings.md). Frees the booking\'s place and sends `booking.cancelled`. Refused with 409 once the booking '
        + 'is cancelled, has started, or is closer to its start than the product\'s `changeNoticeMinutes`. The payment is not refunded by '
        + 'this call: refund it with POST /transactions/{id}/refund.',
      tags: ['Bookings'],
      params: Type.Object({ id: Type.String() }),
      body: Type.Optional(CancelBookingBody),
      response: { 200: Envelope(Booking) },
    },
    config: { operation: contract.cancelBooking, auth: { scope: 'customers:write' } },
  }, async (req, reply) => write(db, req, reply, (tx) => service.cancelBooking(tx, principalOf(req), req.params.id, req.body ?? {}), 'Booking cancelled'));

  app.post('/bookings/:id/reschedule', {
    schema: {
      summary: 'Reschedule a booking',
      description: 'Our addition (docs/bookings.md). Moves the booking to another open slot of its product (400 naming `startsAt` with the '
        + 'reason when it is not open); its status becomes `rescheduled` and `booking.rescheduled` is sent. The same 409s as cancelling.',
      tags: ['Bookings'],
      params: Type.Object({ id: Type.String() }),
      body: RescheduleBookingBody,
      response: { 200: Envelope(Booking) },
    },
    config: { operation: contract.rescheduleBooking, auth: { scope: 'customers:write' } },
  }, async (req, reply) => write(db, req, reply, (tx) => service.rescheduleBooking(tx, principalOf(req), req.params.id, req.body), 'Booking rescheduled'));
}
