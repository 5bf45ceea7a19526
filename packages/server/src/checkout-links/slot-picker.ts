import type { Principal } from '../auth/principal.ts';
import { isZone } from '../bookings/availability.ts';
import { bookableType } from '../bookings/product-settings.ts';
import { productAvailability } from '../bookings/service.ts';
import { modeNow } from '../clock/repository.ts';
import type { Queryable } from '../db/client.ts';
import { esc } from '../pages/html.ts';

/**
 * The web checkout's slot picker for a bookable (appointment) product (issue 25): the buyer picks
 * a time zone and a day, then one open slot of that day, as radio buttons named `booking.startsAt`.
 * It works without scripts: "Show times" posts the form back (nothing is checked or made) and the
 * server lists the chosen day's slots. The slots come from GET /products/{id}/availability's
 * service, so a slot that is held for a payment under way or booked is not offered.
 */

/** How far ahead the picker lists days (the product's own maxDaysAhead still applies). */
const daysListed = 14;

export interface SlotPicker {
  /** The zone the times are shown in: the buyer's choice, else the product's. */
  timezone: string;
  productTimezone: string;
  /** Local dates (YYYY-MM-DD in `timezone`) that have an open slot, earliest first. */
  days: { date: string; words: string }[];
  day?: string;
  /** The open slots of `day`. */
  slots: { startsAt: string; words: string; left: number }[];
  /** A session's places (more than 1: a group class, so the places left are shown). */
  capacity: number;
  /** When the zones' short names are read (summer or winter time): the first slot listed. */
  at: Date;
}

// Making an Intl.DateTimeFormat costs far more than using one: one of each kind per zone, kept.
const formats = new Map<string, { day: Intl.DateTimeFormat; time: Intl.DateTimeFormat }>();
const formatsOf = (timeZone: string) => {
  let f = formats.get(timeZone);
  if (!f) {
    f = {
      day: new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long', timeZone }),
      time: new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZone }),
    };
    if (formats.size < 1000) formats.set(timeZone, f);
  }
  return f;
};
const dayWords = (at: Date, timeZone: string) => formatsOf(timeZone).day.format(at);
const timeWords = (at: Date, timeZone: string) => formatsOf(timeZone).time.format(at);
/** "Europe/Lisbon (WEST)": the zone's name and its short name on that day. */
export const zoneWords = (zone: string, at = new Date()) => {
  const short = new Intl.DateTimeFormat('en-GB', { timeZone: zone, timeZoneName: 'short' }).formatToParts(at).find((p) => p.type === 'timeZoneName')?.value;
  return short && short !== zone ? `${zone.replace(/_/g, ' ')} (${short})` : zone.replace(/_/g, ' ');
};

/** What the picker needs of an offer (form-page.ts's Offer; typed here by shape so the two files do not import each other). */
interface Offered { product?: { id: string; type: string } }

export const isBookable = (offer: Offered) => offer.product?.type === bookableType;

/** The picker for the offer shown, from the form's values (`booking.timezone`, `booking.day`, `booking.startsAt`); undefined when the product is not bookable. */
export async function slotPickerOf(db: Queryable, principal: Principal, offer: Offered, values: Record<string, string>): Promise<SlotPicker | undefined> {
  if (!isBookable(offer) || !offer.product) return undefined;
  const asked = values['booking.timezone'];
  const from = await modeNow(db, principal.brandId, principal.mode);
  let availability;
  try {
    availability = await productAvailability(db, principal, offer.product.id, {
      from: from.toISOString(), to: new Date(from.getTime() + daysListed * 86_400_000).toISOString(), ...(asked && isZone(asked) ? { timezone: asked } : {}),
    });
  } catch {
    // A bookable product without availability yet: no slots (the service says why on submit).
    return { timezone: asked && isZone(asked) ? asked : 'UTC', productTimezone: 'UTC', days: [], slots: [], capacity: 1, at: from };
  }
  const zone = availability.timezone;
  const byDay = new Map<string, typeof availability.slots>();
  for (const s of availability.slots) {
    const date = s.localStart.slice(0, 10);
    byDay.set(date, [...(byDay.get(date) ?? []), s]);
  }
  const days = [...byDay.entries()].map(([date, slots]) => ({ date, words: dayWords(new Date(slots[0].startsAt), zone) }));
  const chosen = values['booking.startsAt'];
  const chosenDay = availability.slots.find((s) => s.startsAt === chosen)?.localStart.slice(0, 10);
  const day = [values['booking.day'], chosenDay].find((d) => d && byDay.has(d)) ?? days[0]?.date;
  const slots = (day ? byDay.get(day)! : []).map((s) => ({
    startsAt: s.startsAt, words: `${timeWords(new Date(s.startsAt), zone)} to ${timeWords(new Date(s.endsAt), zone)}`, left: s.placesLeft,
  }));
  const capacity = Math.max(1, ...availability.slots.map((s) => s.placesLeft));
  const at = new Date(slots[0]?.startsAt ?? from);
  return { timezone: zone, productTimezone: availability.productTimezone, days, ...(day ? { day } : {}), slots, capacity, at };
}

let zoneOptions: { zones: Set<string>; html: string } | undefined;
/** Every IANA zone the runtime knows as <option>s, made once (the list is the same on every page; only the selected one differs). */
function zoneList() {
  if (!zoneOptions) {
    const zones = Intl.supportedValuesOf('timeZone');
    zoneOptions = { zones: new Set(zones), html: zones.map((z) => `<option value="${esc(z)}">${esc(z.replace(/_/g, ' '))}</option>`).join('') };
  }
  return zoneOptions;
}
const zoneSelect = (selected: string) => {
  const { zones, html } = zoneList();
  const option = `<option value="${esc(selected)}">`;
  return zones.has(selected) ? html.replace(option, `<option value="${esc(selected)}" selected>`) : `<option value="${esc(selected)}" selected>${esc(selected)}</option>${html}`;
};

/** The picker's fieldset; `error` is the problem with `booking.startsAt` (or the zone), shown beside the times. */
export function slotPickerHtml(p: SlotPicker, values: Record<string, string>, errors: Record<string, string>): string {
  const error = errors['booking.startsAt'] ?? errors['booking.timezone'];
  const chosen = values['booking.startsAt'];
  const dayName = p.days.find((d) => d.date === p.day)?.words;
  return `<fieldset id="booking"><legend>Choose a time</legend>
<p class="hint" id="booking-zone-hint">Times are shown in ${esc(zoneWords(p.timezone, p.at))}${p.timezone !== p.productTimezone ? `; the host is in ${esc(zoneWords(p.productTimezone, p.at))}` : ''}. Choose your time zone and day, then press Show times.</p>
<div class="field"><label for="booking.timezone">Your time zone</label>
<select id="booking.timezone" name="booking.timezone" aria-describedby="booking-zone-hint">${zoneSelect(p.timezone)}</select></div>
${p.days.length ? `<div class="field"><label for="booking.day">Day</label>
<select id="booking.day" name="booking.day">${p.days.map((d) => `<option value="${esc(d.date)}"${d.date === p.day ? ' selected' : ''}>${esc(d.words)}</option>`).join('')}</select></div>
<button type="submit" name="choose" value="1" formnovalidate class="secondary">Show times</button>
<div role="radiogroup" aria-labelledby="slots-h"${error ? ' aria-describedby="booking.startsAt-error"' : ''} id="booking.startsAt">
<p id="slots-h" style="font-weight:600;margin:1rem 0 .25rem">Open times on ${esc(dayName ?? '')}</p>
${p.slots.map((s, i) => `<div class="option"><input type="radio" id="slot-${i}" name="booking.startsAt" value="${esc(s.startsAt)}"${s.startsAt === chosen ? ' checked' : ''} required>
<label for="slot-${i}">${esc(s.words)}${p.capacity > 1 ? ` <span class="optional">(${s.left} place${s.left === 1 ? '' : 's'} left)</span>` : ''}</label></div>`).join('\n')}
</div>` : `<p class="notice error" role="status">No times are open in the next ${daysListed} days. Ask the seller when more open up.</p>`}
${error ? `<p class="error-text" id="booking.startsAt-error">${esc(error)}</p>` : ''}
</fieldset>`;
}
