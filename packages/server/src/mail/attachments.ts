import { bookingIcs } from '../bookings/calendar.ts';
import type { BrandLook, MailKind, ReceiptData } from './kinds.ts';

export interface MailAttachment { filename: string; contentType: string; content: string }

/**
 * Files a message carries, made from its data each time it is sent (a retry sends the same
 * bytes): a receipt for a booking carries the session as booking.ics. DTSTAMP is the payment's
 * time, so the file does not change between tries.
 */
export function attachmentsOf(kind: MailKind, data: unknown, brand: BrandLook): MailAttachment[] {
  if (kind !== 'receipt') return [];
  const d = data as ReceiptData;
  if (!d.booking) return [];
  const ics = bookingIcs({ ...d.booking, brandName: brand.name, description: `Booked with ${brand.name}. Reference ${d.txref}.` }, new Date(d.paidAt));
  return [{ filename: 'booking.ics', contentType: 'text/calendar; charset=utf-8; method=PUBLISH', content: ics }];
}
