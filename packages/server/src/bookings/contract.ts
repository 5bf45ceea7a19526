/**
 * What the OpenAPI document and the MCP tool list say about this folder's operations beyond their
 * schemas (http/operation.ts): each route passes its entry as `config.operation`.
 */
import { readTool, type Operation } from '../http/operation.ts';

/** GET /products/{id}/availability */
export const getProductAvailability: Operation = {
  id: 'getProductAvailability',
  sdk: "const { slots } = await client.products.availability('prod_…', { from: '2026-12-01T00:00:00Z', to: '2026-12-08T00:00:00Z', timezone: 'America/New_York' });\n" +
    'console.log(slots.map((slot) => slot.localStart));',
  mcp: {
    name: 'get_product_availability',
    description: "List the open slots of a bookable (appointment) product between from and to, each start also shown in the buyer's timezone.",
    ...readTool
  }
};

/** GET /bookings */
export const listBookings: Operation = {
  id: 'listBookings',
  sdk: "for await (const booking of client.bookings.list({ status: 'confirmed' })) {\n  console.log(booking.startsAt, booking.customer.email);\n}",
  mcp: {
    name: 'list_bookings',
    description: 'List paid bookings, newest first (page with cursor), or upcoming=true for those not ended yet, soonest first.',
    ...readTool
  }
};

/** GET /bookings/{id} */
export const getBooking: Operation = {
  id: 'getBooking',
  sdk: "const booking = await client.bookings.get('bkg_…');",
  mcp: { name: 'get_booking', description: 'Get one booking: product, buyer, start, end and status.', ...readTool }
};

/** POST /bookings/{id}/cancel */
export const cancelBooking: Operation = {
  id: 'cancelBooking',
  sdk: "const booking = await client.bookings.cancel('bkg_…', { reason: 'The coach is ill' });",
  body: { reason: 'The coach is ill' },
  mcp: {
    name: 'cancel_booking',
    description: "Cancel a booking and free its place (the buyer is told by the booking.cancelled event). Confirm with the user first. It does not refund: use refund_transaction with the booking's txref for that.",
    destructive: true
  }
};

/** POST /bookings/{id}/reschedule */
export const rescheduleBooking: Operation = {
  id: 'rescheduleBooking',
  sdk: "const booking = await client.bookings.reschedule('bkg_…', { startsAt: '2026-12-03T14:00:00.000Z' });",
  body: { startsAt: '2026-12-03T14:00:00.000Z' },
  mcp: { name: 'reschedule_booking', description: 'Move a booking to another open slot of its product (see get_product_availability).' }
};
