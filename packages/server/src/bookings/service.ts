import { appOf, type Mode, type Principal } from '../auth/principal.ts';
import { modeNow } from '../clock/repository.ts';
import type { Queryable } from '../db/client.ts';
import { pageRequest, toPage } from '../db/paging.ts';
import { AppError, invalid, invalidAll, notFound, type ErrorDetail } from '../errors.ts';
import { recordEvent } from '../events/service.ts';
import { newId } from '../ids.ts';
import { findProduct } from '../products/repository.ts';
import { gridSlots, isZone, localIso, localIsoIn, placesLeft, ruleProblem, timingProblem, withDefaults, type Settings } from './availability.ts';
import { bookableType } from './product-settings.ts';
import * as repo from './repository.ts';
import type { BookingRow, BookingWithTxref } from './repository.ts';
import type { Booking, BookingRequest, ProductAvailability } from './schemas.ts';

/**
 * Bookings (docs/bookings.md), in the caller's transaction. A slot's places are taken and moved
 * only under the product's calendar lock (repository.lockCalendar), and counted again there, so
 * concurrent buyers, on any number of API processes, can never take more places than a session
 * has. Times come from the mode's clock (clock/), so a test clock moves holds and notice too.
 */


/** How long a slot is held for a payment link that is not paid yet; paying starts a new hold. */
export const holdMinutes = 30;

const maxRangeDays = 62;

async function settingsOf(db: Queryable, brandId: string, productId: string): Promise<Settings | undefined> {
  const a = await repo.findAvailability(db, brandId, productId);
  return a && withDefaults(a);
}

const taken = async (db: Queryable, q: Parameters<typeof repo.takenPlaces>[1]) =>
  (await repo.takenPlaces(db, q)).map((r) => ({ start: r.starts_at, end: r.ends_at, places: r.places }));

/** GET /products/{id}/availability. */
export async function productAvailability(
  db: Queryable, principal: Principal, productId: string, query: { from?: string; to?: string; timezone?: string },
): Promise<ProductAvailability> {
  const product = await findProduct(db, principal.brandId, productId);
  if (!product) throw notFound('product');
  const settings = await settingsOf(db, principal.brandId, productId);
  if (product.type !== bookableType || !settings) {
    throw invalid('id', `is not a bookable product: only products of type ${bookableType} with availability have slots`, 'path parameter');
  }
  const now = await modeNow(db, principal.brandId, principal.mode);
  const from = query.from ? new Date(query.from) : now;
  const to = query.to ? new Date(query.to) : new Date(from.getTime() + 7 * 86_400_000);
  const problems: ErrorDetail[] = [];
  if (to <= from) problems.push({ field: 'to', message: 'must be after from' });
  else if (to.getTime() - from.getTime() > maxRangeDays * 86_400_000) problems.push({ field: 'to', message: `must be at most ${maxRangeDays} days after from` });
  const zone = query.timezone ?? settings.timezone;
  if (!isZone(zone)) problems.push({ field: 'timezone', message: `"${zone}" is not an IANA time zone (e.g. America/New_York)` });
  if (problems.length) throw invalidAll(problems, 'query parameter');

  const reach = (settings.sessionMinutes + settings.bufferMinutes) * 60_000 * 2;
  const booked = await taken(db, {
    brandId: principal.brandId, mode: principal.mode, productId, now,
    from: new Date(from.getTime() - reach), to: new Date(to.getTime() + reach),
  });
  const shown = localIsoIn(zone);
  const slots = gridSlots(settings, from, to).flatMap((slot) => {
    // Grid slots are on the grid by construction: only the timing rules apply (the grid check re-walks days per slot).
    if (timingProblem(settings, slot.start, now)) return [];
    const left = placesLeft(settings, slot, booked);
    return left > 0 ? [{ startsAt: slot.start.toISOString(), endsAt: slot.end.toISOString(), localStart: shown(slot.start), placesLeft: left }] : [];
  });
  return { productID: productId, timezone: zone, productTimezone: settings.timezone, from: from.toISOString(), to: to.toISOString(), slots };
}

/** A slot a payment link asks for, checked against the product's rules (not yet against what is taken). */
export interface SlotRequest {
  productId: string;
  tierId: string;
  places: number;
  start: Date;
  end: Date;
  timezone: string;
}

/**
 * What POST /payment-links (and the web checkout) checks about `booking`: present exactly when
 * an item is a bookable product, one bookable item per link, an open slot of it. Problems go to
 * `problems` by field; the slot asked for comes back for holdSlot.
 */
export async function checkBooking(
  db: Queryable, principal: Principal, booking: BookingRequest | undefined,
  items: { index: number; productId: string; productType: string; tierId: string; count: number }[],
  problems: ErrorDetail[],
): Promise<SlotRequest | undefined> {
  const bookable = items.filter((i) => i.productType === bookableType);
  if (!bookable.length) {
    if (booking !== undefined) problems.push({ field: 'booking', message: 'is only for a bookable (appointment) product, and no item is one' });
    return undefined;
  }
  if (bookable.length > 1) {
    problems.push({ field: `items[${bookable[1].index}]`, index: bookable[1].index, message: 'a payment link books one slot: buy one bookable product per link' });
    return undefined;
  }
  if (booking === undefined) {
    problems.push({ field: 'booking', message: 'is required: the product is bookable; give booking.startsAt, an open slot from GET /products/{id}/availability' });
    return undefined;
  }
  const [item] = bookable;
  const settings = await settingsOf(db, principal.brandId, item.productId);
  if (!settings) {
    problems.push({ field: `items[${item.index}].id`, index: item.index, message: 'this bookable product has no availability set yet, so it cannot be booked' });
    return undefined;
  }
  const timezone = booking.timezone ?? settings.timezone;
  if (!isZone(timezone)) problems.push({ field: 'booking.timezone', message: `"${timezone}" is not an IANA time zone (e.g. America/New_York)` });
  const start = new Date(booking.startsAt);
  const now = await modeNow(db, principal.brandId, principal.mode);
  const rule = ruleProblem(settings, start, now);
  if (rule) {
    problems.push({ field: 'booking.startsAt', message: rule });
    return undefined;
  }
  if (item.count > settings.capacity) {
    problems.push({ field: `items[${item.index}].count`, index: item.index, message: `a session has ${settings.capacity} place${settings.capacity === 1 ? '' : 's'}` });
    return undefined;
  }
  const request = { productId: item.productId, tierId: item.tierId, places: item.count, start, end: new Date(start.getTime() + settings.sessionMinutes * 60_000), timezone };
  // Read without the lock, to tell the buyer early; holdSlot counts again under it.
  const left = placesLeft(settings, request, await taken(db, { brandId: principal.brandId, mode: principal.mode, productId: item.productId, now, ...window(settings, request) }));
  if (left < item.count) problems.push({ field: 'booking.startsAt', message: takenMessage(left) });
  return request;
}

const takenMessage = (left: number) => (left > 0 ? `is taken: only ${left} place${left === 1 ? '' : 's'} left in that session` : 'is taken: that slot is no longer open');

/** The stretch of the calendar whose bookings can touch a session. */
function window(s: Settings, slot: { start: Date; end: Date }) {
  const reach = (s.sessionMinutes + s.bufferMinutes) * 60_000;
  return { from: new Date(slot.start.getTime() - reach), to: new Date(slot.end.getTime() + reach) };
}

/** Under the calendar lock: are `places` still free at this slot? Throws 400 naming booking.startsAt if not. */
async function claim(tx: Queryable, brandId: string, mode: Mode, slot: SlotRequest, now: Date, field: string, except?: string) {
  await repo.lockCalendar(tx, brandId, mode, slot.productId);
  const settings = await settingsOf(tx, brandId, slot.productId);
  if (!settings) throw invalid(field, 'this product has no availability any more');
  const left = placesLeft(settings, slot, await taken(tx, { brandId, mode, productId: slot.productId, now, except, ...window(settings, slot) }));
  if (left < slot.places) throw invalid(field, takenMessage(left));
}

/** POST /payment-links, after the link is stored: holds the slot for it (holdMinutes). */
export async function holdSlot(tx: Queryable, principal: Principal, linkId: string, slot: SlotRequest, buyer: { name: string; email: string }) {
  const now = await modeNow(tx, principal.brandId, principal.mode);
  await claim(tx, principal.brandId, principal.mode, slot, now, 'booking.startsAt');
  await repo.insertHold(tx, {
    brand_id: principal.brandId, id: newId('bkg'), mode: principal.mode, product_id: slot.productId, tier_id: slot.tierId, payment_link_id: linkId,
    places: slot.places, starts_at: slot.start, ends_at: slot.end, timezone: slot.timezone, buyer_name: buyer.name, buyer_email: buyer.email,
    hold_expires_at: new Date(now.getTime() + holdMinutes * 60_000),
  });
}

/**
 * When a payment of a link starts (checkout/flows.ts, step 1): the link's slot is held again for
 * holdMinutes, so a buyer who comes back after the hold ran out, or after a failed card, gets the
 * slot only if it is still open. A slot taken meanwhile refuses the payment before any charge.
 */
export async function renewHold(tx: Queryable, link: { brand_id: string; mode: Mode; id: string }): Promise<void> {
  const held = await repo.findByLink(tx, link.brand_id, link.id);
  if (!held || (held.status !== 'held' && held.status !== 'released')) return;
  const now = await modeNow(tx, link.brand_id, link.mode);
  const slot = { productId: held.product_id, tierId: held.tier_id, places: held.places, start: held.starts_at, end: held.ends_at, timezone: held.timezone };
  try {
    await claim(tx, link.brand_id, link.mode, slot, now, 'booking.startsAt', held.id);
  } catch (err) {
    if (err instanceof AppError) throw new AppError('conflict', `Sold out: the booked slot was taken while this link waited (${err.details?.[0]?.message ?? err.message}). Nothing was charged.`);
    throw err;
  }
  await repo.setHold(tx, link.brand_id, held.id, new Date(now.getTime() + holdMinutes * 60_000));
}

/**
 * When a link's payment settles (checkout/service.ts settlePayment): a paid hold becomes a
 * confirmed booking, with booking.confirmed; a failed payment releases it.
 */
export async function settleBooking(tx: Queryable, payment: { brand_id: string; mode: Mode; id: string; status: string; payment_link_id: string | null; app_id?: string | null }) {
  if (!payment.payment_link_id) return;
  const held = await repo.findByLink(tx, payment.brand_id, payment.payment_link_id);
  if (!held || (held.status !== 'held' && held.status !== 'released')) return;
  if (payment.status === 'failed') {
    await repo.release(tx, payment.brand_id, held.id);
    return;
  }
  await repo.confirm(tx, payment.brand_id, held.id, payment.id);
  await announce(tx, 'booking.confirmed', payment.brand_id, payment.mode, held.id, payment.app_id ?? null);
}

async function announce(tx: Queryable, type: 'booking.confirmed' | 'booking.cancelled' | 'booking.rescheduled', brandId: string, mode: Mode, id: string, appId: string | null) {
  const row = await repo.findBooking(tx, brandId, mode, id);
  await recordEvent(tx, { brandId, mode, appId, type, data: renderBooking(row!) });
}

export function renderBooking(row: BookingWithTxref): Booking {
  return {
    id: row.id,
    productID: row.product_id,
    tierID: row.tier_id,
    status: row.status as Booking['status'],
    startsAt: row.starts_at.toISOString(),
    endsAt: row.ends_at.toISOString(),
    timezone: row.timezone,
    places: row.places,
    customer: { name: row.buyer_name, email: row.buyer_email },
    txref: row.txref,
    paymentLinkID: row.payment_link_id,
    ...(row.previous_starts_at ? { previousStartsAt: row.previous_starts_at.toISOString() } : {}),
    ...(row.cancelled_at ? { cancelledAt: row.cancelled_at.toISOString() } : {}),
    ...(row.cancel_reason ? { cancelReason: row.cancel_reason } : {}),
    mode: row.mode,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export async function listBookings(
  db: Queryable, principal: Principal, query: { limit?: number; cursor?: string; status?: string; productID?: string; upcoming?: boolean },
) {
  const filter = { status: query.status, productId: query.productID };
  if (query.upcoming) {
    if (query.cursor) throw invalid('cursor', 'upcoming lists one page, soonest first; it takes no cursor', 'query parameter');
    const now = await modeNow(db, principal.brandId, principal.mode);
    const rows = await repo.upcomingBookings(db, principal.brandId, principal.mode, now, query.limit ?? 20, filter);
    return { items: rows.map(renderBooking), hasMore: false, nextCursor: '' };
  }
  const page = pageRequest('bookings', query);
  return toPage('bookings', page, await repo.listBookings(db, principal.brandId, principal.mode, page, filter), renderBooking);
}

export async function getBooking(db: Queryable, principal: Principal, id: string): Promise<Booking> {
  const row = await repo.findBooking(db, principal.brandId, principal.mode, id);
  if (!row) throw notFound('booking');
  return renderBooking(row);
}

/** A paid booking that is still on, locked, with its product's settings; or the reason it cannot change. */
async function changeable(tx: Queryable, principal: Principal, id: string, what: 'cancelled' | 'rescheduled') {
  const found = await repo.findBooking(tx, principal.brandId, principal.mode, id);
  if (!found) throw notFound('booking');
  await repo.lockCalendar(tx, principal.brandId, principal.mode, found.product_id);
  const row = (await repo.lockBooking(tx, principal.brandId, id)) as BookingRow;
  if (row.status === 'cancelled') throw new AppError('conflict', `This booking was cancelled already; it cannot be ${what}.`);
  const now = await modeNow(tx, principal.brandId, principal.mode);
  const settings = await settingsOf(tx, principal.brandId, row.product_id);
  const notice = settings?.changeNoticeMinutes ?? 0;
  if (row.starts_at.getTime() - now.getTime() < notice * 60_000) {
    throw new AppError('conflict', row.starts_at <= now
      ? `This booking has started already; it cannot be ${what}.`
      : `This booking can no longer be ${what}: the product allows changes until ${notice} minutes before the start (changeNoticeMinutes).`);
  }
  return { row, now, settings };
}

/** POST /bookings/{id}/cancel: frees the place, records booking.cancelled. */
export async function cancelBooking(tx: Queryable, principal: Principal, id: string, body: { reason?: string }): Promise<Booking> {
  const { now } = await changeable(tx, principal, id, 'cancelled');
  await repo.cancel(tx, principal.brandId, id, now, body.reason ?? null);
  await announce(tx, 'booking.cancelled', principal.brandId, principal.mode, id, appOf(principal));
  return getBooking(tx, principal, id);
}

/** POST /bookings/{id}/reschedule: moves the booking to another open slot of its product, records booking.rescheduled. */
export async function rescheduleBooking(tx: Queryable, principal: Principal, id: string, body: { startsAt: string; timezone?: string }): Promise<Booking> {
  const { row, now, settings } = await changeable(tx, principal, id, 'rescheduled');
  if (!settings) throw invalid('startsAt', 'the product has no availability any more, so the booking cannot move');
  const timezone = body.timezone ?? row.timezone;
  if (!isZone(timezone)) throw invalid('timezone', `"${timezone}" is not an IANA time zone (e.g. America/New_York)`);
  const start = new Date(body.startsAt);
  if (start.getTime() === row.starts_at.getTime()) throw invalid('startsAt', 'is the booking\'s current start');
  const rule = ruleProblem(settings, start, now);
  if (rule) throw invalid('startsAt', rule);
  const slot = { productId: row.product_id, tierId: row.tier_id, places: row.places, start, end: new Date(start.getTime() + settings.sessionMinutes * 60_000), timezone };
  await claim(tx, principal.brandId, principal.mode, slot, now, 'startsAt', row.id);
  await repo.move(tx, principal.brandId, id, { start: slot.start, end: slot.end, timezone });
  await announce(tx, 'booking.rescheduled', principal.brandId, principal.mode, id, appOf(principal));
  return getBooking(tx, principal, id);
}

/** The booking a paid transaction made, for its receipt (event-mail.ts). */
export async function bookingOfTransaction(db: Queryable, brandId: string, transactionId: string) {
  return repo.findByTransaction(db, brandId, transactionId);
}
