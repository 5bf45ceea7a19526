import ICAL from 'ical.js';

/**
 * A booking as an iCalendar file (RFC 5545), attached to the buyer's receipt so any calendar
 * program can add it. Start and end are written in UTC: the instant is what matters, and each
 * calendar shows it in its owner's zone. The UID is the booking id, so a calendar that imports
 * the file twice (or a later one after a reschedule) updates one event instead of adding two.
 */
export interface CalendarBooking {
  id: string;
  title: string;
  startsAt: string;
  endsAt: string;
  brandName: string;
  description?: string;
  /** Bumped on every change so calendars take the newer file (RFC 5545 SEQUENCE). */
  sequence?: number;
}

export function bookingIcs(b: CalendarBooking, now = new Date()): string {
  const calendar = new ICAL.Component(['vcalendar', [], []]);
  calendar.updatePropertyWithValue('prodid', '-//creator-commerce//bookings//EN');
  calendar.updatePropertyWithValue('version', '2.0');
  calendar.updatePropertyWithValue('calscale', 'GREGORIAN');
  calendar.updatePropertyWithValue('method', 'PUBLISH');
  const vevent = new ICAL.Component('vevent');
  const event = new ICAL.Event(vevent);
  event.uid = `${b.id}@creator-commerce`;
  event.summary = `${b.title} with ${b.brandName}`;
  event.startDate = ICAL.Time.fromJSDate(new Date(b.startsAt), true);
  event.endDate = ICAL.Time.fromJSDate(new Date(b.endsAt), true);
  if (b.description) event.description = b.description;
  vevent.updatePropertyWithValue('dtstamp', ICAL.Time.fromJSDate(now, true));
  vevent.updatePropertyWithValue('sequence', b.sequence ?? 0);
  vevent.updatePropertyWithValue('status', 'CONFIRMED');
  calendar.addSubcomponent(vevent);
  // RFC 5545 lines end in CRLF.
  return calendar.toString().replace(/\r?\n/g, '\r\n') + '\r\n';
}
