import { Type, type Static } from 'typebox';
import { Mode, Timestamp } from '../http/shapes.ts';

/**
 * Bookable products (docs/bookings.md): a product of type `appointment` carries `availability`;
 * buyers book one of its open slots through `booking` on POST /payment-links; a paid booking is
 * a Booking. One shape each, used for validation, answers, OpenAPI and the SDK's types.
 */

export const weekdays = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof weekdays)[number];

const clockTime = (description: string) => Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$|^24:00$', description });

export const OpeningHours = Type.Object({
  start: clockTime('Local time the first session may start, `HH:MM`.'),
  end: clockTime('Local time the last session must end by, `HH:MM` (`24:00` for midnight).'),
}, { additionalProperties: false, examples: [{ start: '09:00', end: '12:30' }] });

const dayHours = Type.Optional(Type.Array(OpeningHours, { maxItems: 12, description: 'Opening hours that day, in the product\'s time zone; empty or absent: closed.' }));

export const DateException = Type.Object({
  date: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'A date in the product\'s time zone, `YYYY-MM-DD`.' }),
  hours: Type.Array(OpeningHours, { maxItems: 12, description: 'The hours that day instead of the week\'s; empty: closed all day.' }),
}, { additionalProperties: false, examples: [{ date: '2026-12-25', hours: [] }] });

export const Availability = Type.Object({
  timezone: Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone the hours are in, e.g. `Europe/London`. Slots follow its daylight-saving changes.' }),
  sessionMinutes: Type.Integer({ minimum: 5, maximum: 1440, description: 'Length of one session.' }),
  bufferMinutes: Type.Optional(Type.Integer({ minimum: 0, maximum: 1440, description: 'Free time kept after each session (and before the next one). Default 0.' })),
  minNoticeMinutes: Type.Optional(Type.Integer({ minimum: 0, maximum: 525600, description: 'A slot must start at least this long after the booking is made. Default 0.' })),
  maxDaysAhead: Type.Optional(Type.Integer({ minimum: 1, maximum: 730, description: 'How far ahead a slot may be booked, in days. Default 60.' })),
  capacity: Type.Optional(Type.Integer({ minimum: 1, maximum: 10000, description: 'Places per session: 1 for a call, more for a group class. Default 1.' })),
  changeNoticeMinutes: Type.Optional(Type.Integer({
    minimum: 0, maximum: 525600,
    description: 'A booking can be cancelled or rescheduled until this long before it starts. Default 1440 (a day).',
  })),
  weeklyHours: Type.Object(Object.fromEntries(weekdays.map((d) => [d, dayHours])) as Record<Weekday, typeof dayHours>, {
    additionalProperties: false, description: 'Opening hours per weekday; a day left out is closed.',
  }),
  exceptions: Type.Optional(Type.Array(DateException, { maxItems: 366, description: 'Dates whose hours differ from the week\'s (holidays, an extra evening).' })),
}, {
  additionalProperties: false,
  $id: 'Availability',
  description: 'Our addition: when a bookable (`appointment`) product can be booked (docs/bookings.md).',
  examples: [{
    timezone: 'Europe/London', sessionMinutes: 30, bufferMinutes: 10, minNoticeMinutes: 120, maxDaysAhead: 60, capacity: 1, changeNoticeMinutes: 1440,
    weeklyHours: { monday: [{ start: '09:00', end: '12:00' }, { start: '14:00', end: '17:00' }], wednesday: [{ start: '09:00', end: '17:00' }] },
    exceptions: [{ date: '2026-12-25', hours: [] }],
  }],
});
export type Availability = Static<typeof Availability>;

export const AvailabilityQuery = Type.Object({
  from: Type.Optional(Type.String({ format: 'date-time', description: 'Earliest start to list. Default: now.' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Latest start to list (exclusive), at most 62 days after `from`. Default: `from` + 7 days.' })),
  timezone: Type.Optional(Type.String({ maxLength: 64, description: 'IANA time zone to show `localStart` in (the buyer\'s). Default: the product\'s.' })),
});

export const Slot = Type.Object({
  startsAt: Timestamp,
  endsAt: Timestamp,
  localStart: Type.String({ description: 'The start in the asked time zone, ISO 8601 with its offset.' }),
  placesLeft: Type.Integer({ minimum: 1 }),
}, { $id: 'Slot', examples: [{ startsAt: '2026-12-01T09:00:00.000Z', endsAt: '2026-12-01T09:30:00.000Z', localStart: '2026-12-01T10:00:00.000+01:00', placesLeft: 1 }] });
export type Slot = Static<typeof Slot>;

export const ProductAvailability = Type.Object({
  productID: Type.String(),
  timezone: Type.String({ description: 'The zone `localStart` is in.' }),
  productTimezone: Type.String({ description: 'The zone the product\'s hours are in.' }),
  from: Timestamp,
  to: Timestamp,
  slots: Type.Array(Slot, { description: 'Open slots, earliest first.' }),
}, {
  $id: 'ProductAvailability',
  examples: [{
    productID: 'prod_8Kq2vN0aXb1cD2eF3gH4', timezone: 'America/New_York', productTimezone: 'Europe/London',
    from: '2026-12-01T00:00:00.000Z', to: '2026-12-02T00:00:00.000Z',
    slots: [{ startsAt: '2026-12-01T09:00:00.000Z', endsAt: '2026-12-01T09:30:00.000Z', localStart: '2026-12-01T04:00:00.000-05:00', placesLeft: 1 }],
  }],
});
export type ProductAvailability = Static<typeof ProductAvailability>;

/** `booking` on POST /payment-links. */
export const BookingRequest = Type.Object({
  startsAt: Type.String({ format: 'date-time', description: 'The start of an open slot of the bookable product (GET /products/{id}/availability).' }),
  timezone: Type.Optional(Type.String({ maxLength: 64, description: 'The buyer\'s IANA time zone, for their confirmation and calendar file. Default: the product\'s.' })),
}, {
  additionalProperties: false,
  description: 'Our reading of the reference\'s `booking`: the slot to book when an item is a bookable (`appointment`) product. The slot is held '
    + 'while the link is being paid (docs/bookings.md); a slot that is not open is refused naming `booking.startsAt`.',
  examples: [{ startsAt: '2026-12-01T09:00:00.000Z', timezone: 'America/New_York' }],
});
export type BookingRequest = Static<typeof BookingRequest>;

const BookingStatus = Type.Union([Type.Literal('confirmed'), Type.Literal('rescheduled'), Type.Literal('cancelled')], {
  description: '`confirmed`, `rescheduled` (moved, still on) or `cancelled`.',
});

export const Booking = Type.Object({
  id: Type.String({ description: '`bkg_…`' }),
  productID: Type.String(),
  tierID: Type.String(),
  status: BookingStatus,
  startsAt: Timestamp,
  endsAt: Timestamp,
  timezone: Type.String({ description: 'The buyer\'s time zone (or the product\'s when they gave none).' }),
  places: Type.Integer({ minimum: 1, description: 'Places taken in the session (the item\'s `count`).' }),
  customer: Type.Object({ name: Type.String(), email: Type.String() }),
  txref: Type.Union([Type.String(), Type.Null()], { description: 'The payment that paid it.' }),
  paymentLinkID: Type.String(),
  previousStartsAt: Type.Optional(Timestamp),
  cancelledAt: Type.Optional(Timestamp),
  cancelReason: Type.Optional(Type.String()),
  mode: Mode,
  createdAt: Timestamp,
  updatedAt: Timestamp,
}, {
  $id: 'Booking',
  examples: [{
    id: 'bkg_Qm3xT7aPz2LrV9bN4cD1', productID: 'prod_8Kq2vN0aXb1cD2eF3gH4', tierID: 'tier_Jh5kL2mN8pQ4rS6tU0vW', status: 'confirmed',
    startsAt: '2026-12-01T09:00:00.000Z', endsAt: '2026-12-01T09:30:00.000Z', timezone: 'America/New_York', places: 1,
    customer: { name: 'Ada Lovelace', email: 'ada@example.com' }, txref: 'tx_3b9fJ0qLw8sXe2Ud7yRk', paymentLinkID: 'plink_Zc4vB8nM1qW5eR7tY9uI',
    mode: 'live', createdAt: '2026-11-20T14:02:11.000Z', updatedAt: '2026-11-20T14:02:11.000Z',
  }],
});
export type Booking = Static<typeof Booking>;

export const BookingListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Page size, 1 to 100 (default 20).' })),
  cursor: Type.Optional(Type.String({ description: '`nextCursor` of the previous page.' })),
  status: Type.Optional(BookingStatus),
  productID: Type.Optional(Type.String({ maxLength: 200 })),
  upcoming: Type.Optional(Type.Boolean({ description: 'true: only bookings that have not ended, soonest first (one page of up to `limit`, no cursor).' })),
});

export const CancelBookingBody = Type.Object({
  reason: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'Why; kept on the booking and put in the buyer\'s event.' })),
}, { additionalProperties: false, examples: [{ reason: 'The coach is ill' }] });

export const RescheduleBookingBody = Type.Object({
  startsAt: Type.String({ format: 'date-time', description: 'An open slot of the same product.' }),
  timezone: Type.Optional(Type.String({ maxLength: 64, description: 'The buyer\'s time zone from now on. Default: unchanged.' })),
}, { additionalProperties: false, examples: [{ startsAt: '2026-12-03T14:00:00.000Z' }] });
