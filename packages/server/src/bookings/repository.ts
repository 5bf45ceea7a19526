import type { Mode } from '../auth/principal.ts';
import type { Queryable } from '../db/client.ts';
import type { PageRequest } from '../db/paging.ts';
import type { Availability } from './schemas.ts';

/** The SQL of booking_availability, booking_calendars and bookings (migration 029). */

export async function findAvailability(db: Queryable, brandId: string, productId: string): Promise<Availability | undefined> {
  const [row] = await db.query<{ settings: Availability }>('SELECT settings FROM booking_availability WHERE brand_id = $1 AND product_id = $2', [brandId, productId]);
  return row?.settings;
}

export async function availabilityOf(db: Queryable, brandId: string, productIds: string[]): Promise<Map<string, Availability>> {
  if (!productIds.length) return new Map();
  const rows = await db.query<{ product_id: string; settings: Availability }>(
    'SELECT product_id, settings FROM booking_availability WHERE brand_id = $1 AND product_id = ANY($2::text[])', [brandId, productIds]);
  return new Map(rows.map((r) => [r.product_id, r.settings]));
}

export async function saveAvailability(db: Queryable, brandId: string, productId: string, settings: Availability): Promise<void> {
  await db.query(
    `INSERT INTO booking_availability (brand_id, product_id, settings) VALUES ($1, $2, $3::text::jsonb)
     ON CONFLICT (brand_id, product_id) DO UPDATE SET settings = EXCLUDED.settings, updated_at = date_trunc('milliseconds', clock_timestamp())`,
    [brandId, productId, JSON.stringify(settings)],
  );
}

export async function deleteAvailability(db: Queryable, brandId: string, productId: string): Promise<void> {
  await db.query('DELETE FROM booking_availability WHERE brand_id = $1 AND product_id = $2', [brandId, productId]);
}

/** Locks the product's calendar in this mode until the transaction ends (see migration 029). */
export async function lockCalendar(tx: Queryable, brandId: string, mode: Mode, productId: string): Promise<void> {
  await tx.query('INSERT INTO booking_calendars (brand_id, mode, product_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [brandId, mode, productId]);
  await tx.query('SELECT 1 FROM booking_calendars WHERE brand_id = $1 AND mode = $2 AND product_id = $3 FOR UPDATE', [brandId, mode, productId]);
}

export interface BookingRow {
  brand_id: string;
  id: string;
  mode: Mode;
  product_id: string;
  tier_id: string;
  payment_link_id: string;
  transaction_id: string | null;
  status: 'held' | 'released' | 'confirmed' | 'rescheduled' | 'cancelled';
  places: number;
  starts_at: Date;
  ends_at: Date;
  timezone: string;
  buyer_name: string;
  buyer_email: string;
  hold_expires_at: Date | null;
  previous_starts_at: Date | null;
  cancelled_at: Date | null;
  cancel_reason: string | null;
  created_at: Date;
  updated_at: Date;
}

export type BookingWithTxref = BookingRow & { txref: string | null };

const withTxref = `SELECT b.*, t.txref FROM bookings b LEFT JOIN transactions t ON t.brand_id = b.brand_id AND t.id = b.transaction_id`;

/**
 * Places taken in [from, to) of a product in one mode at `now` (the mode's time): paid bookings
 * that are on, and holds that have not expired. `except` leaves one booking out (a reschedule
 * does not compete with itself).
 */
export async function takenPlaces(db: Queryable, q: { brandId: string; mode: Mode; productId: string; from: Date; to: Date; now: Date; except?: string }) {
  return db.query<{ starts_at: Date; ends_at: Date; places: number }>(
    `SELECT starts_at, ends_at, places FROM bookings
     WHERE brand_id = $1 AND mode = $2 AND product_id = $3 AND starts_at < $5 AND ends_at > $4
       AND (status IN ('confirmed', 'rescheduled') OR (status = 'held' AND hold_expires_at > $6))
       AND id <> $7`,
    [q.brandId, q.mode, q.productId, q.from, q.to, q.now, q.except ?? ''],
  );
}

export type NewBooking = Pick<BookingRow, 'brand_id' | 'id' | 'mode' | 'product_id' | 'tier_id' | 'payment_link_id' | 'places' | 'starts_at' | 'ends_at'
  | 'timezone' | 'buyer_name' | 'buyer_email' | 'hold_expires_at'>;

export async function insertHold(db: Queryable, b: NewBooking): Promise<BookingRow> {
  const [row] = await db.query<BookingRow>(
    `INSERT INTO bookings (brand_id, id, mode, product_id, tier_id, payment_link_id, status, places, starts_at, ends_at, timezone, buyer_name, buyer_email, hold_expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, 'held', $7, $8, $9, $10, $11, $12, $13) RETURNING *`,
    [b.brand_id, b.id, b.mode, b.product_id, b.tier_id, b.payment_link_id, b.places, b.starts_at, b.ends_at, b.timezone, b.buyer_name, b.buyer_email, b.hold_expires_at],
  );
  return row;
}

export async function findByLink(db: Queryable, brandId: string, linkId: string): Promise<BookingRow | undefined> {
  const [row] = await db.query<BookingRow>('SELECT * FROM bookings WHERE brand_id = $1 AND payment_link_id = $2', [brandId, linkId]);
  return row;
}

export async function findByTransaction(db: Queryable, brandId: string, transactionId: string): Promise<BookingRow | undefined> {
  const [row] = await db.query<BookingRow>('SELECT * FROM bookings WHERE brand_id = $1 AND transaction_id = $2', [brandId, transactionId]);
  return row;
}

/** A paid booking of the brand in one mode (held and released ones are not bookings yet). */
export async function findBooking(db: Queryable, brandId: string, mode: Mode, id: string): Promise<BookingWithTxref | undefined> {
  const [row] = await db.query<BookingWithTxref>(
    `${withTxref} WHERE b.brand_id = $1 AND b.mode = $2 AND b.id = $3 AND b.status IN ('confirmed', 'rescheduled', 'cancelled')`, [brandId, mode, id]);
  return row;
}

export async function lockBooking(db: Queryable, brandId: string, id: string): Promise<BookingRow | undefined> {
  const [row] = await db.query<BookingRow>('SELECT * FROM bookings WHERE brand_id = $1 AND id = $2 FOR UPDATE', [brandId, id]);
  return row;
}

export async function setHold(db: Queryable, brandId: string, id: string, expiresAt: Date): Promise<void> {
  await db.query(`UPDATE bookings SET status = 'held', hold_expires_at = $3, updated_at = date_trunc('milliseconds', clock_timestamp())
    WHERE brand_id = $1 AND id = $2`, [brandId, id, expiresAt]);
}

export async function confirm(db: Queryable, brandId: string, id: string, transactionId: string): Promise<BookingRow> {
  const [row] = await db.query<BookingRow>(
    `UPDATE bookings SET status = 'confirmed', transaction_id = $3, hold_expires_at = NULL, updated_at = date_trunc('milliseconds', clock_timestamp())
     WHERE brand_id = $1 AND id = $2 RETURNING *`, [brandId, id, transactionId]);
  return row;
}

export async function release(db: Queryable, brandId: string, id: string): Promise<void> {
  await db.query(`UPDATE bookings SET status = 'released', updated_at = date_trunc('milliseconds', clock_timestamp())
    WHERE brand_id = $1 AND id = $2 AND status = 'held'`, [brandId, id]);
}

export async function cancel(db: Queryable, brandId: string, id: string, at: Date, reason: string | null): Promise<void> {
  await db.query(`UPDATE bookings SET status = 'cancelled', cancelled_at = $3, cancel_reason = $4, updated_at = date_trunc('milliseconds', clock_timestamp())
    WHERE brand_id = $1 AND id = $2`, [brandId, id, at, reason]);
}

export async function move(db: Queryable, brandId: string, id: string, to: { start: Date; end: Date; timezone: string }): Promise<void> {
  await db.query(`UPDATE bookings SET status = 'rescheduled', previous_starts_at = starts_at, starts_at = $3, ends_at = $4, timezone = $5,
      updated_at = date_trunc('milliseconds', clock_timestamp())
    WHERE brand_id = $1 AND id = $2`, [brandId, id, to.start, to.end, to.timezone]);
}

export interface BookingFilter { status?: string; productId?: string }

/** Paid bookings, newest first, keyset paged on (created_at, id). */
export async function listBookings(db: Queryable, brandId: string, mode: Mode, page: PageRequest, filter: BookingFilter): Promise<BookingWithTxref[]> {
  return db.query<BookingWithTxref>(
    `${withTxref} WHERE b.brand_id = $1 AND b.mode = $2 AND b.status <> 'held' AND b.status <> 'released'
       AND ($3::text IS NULL OR b.status = $3) AND ($4::text IS NULL OR b.product_id = $4)
       AND ($5::timestamptz IS NULL OR (b.created_at, b.id) < ($5, $6))
     ORDER BY b.created_at DESC, b.id DESC LIMIT $7`,
    [brandId, mode, filter.status ?? null, filter.productId ?? null, page.after?.createdAt ?? null, page.after?.id ?? '', page.limit + 1],
  );
}

/** Bookings that are on and have not ended at `now`, soonest first. */
export async function upcomingBookings(db: Queryable, brandId: string, mode: Mode, now: Date, limit: number, filter: BookingFilter): Promise<BookingWithTxref[]> {
  return db.query<BookingWithTxref>(
    `${withTxref} WHERE b.brand_id = $1 AND b.mode = $2 AND b.ends_at > $3
       AND b.status IN ('confirmed', 'rescheduled') AND ($4::text IS NULL OR b.status = $4) AND ($5::text IS NULL OR b.product_id = $5)
     ORDER BY b.starts_at, b.id LIMIT $6`,
    [brandId, mode, now, filter.status ?? null, filter.productId ?? null, limit],
  );
}
