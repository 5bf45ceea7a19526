import { DateTime, IANAZone, Info } from 'luxon';
import type { ErrorDetail } from '../errors.ts';
import { weekdays, type Availability } from './schemas.ts';

/**
 * The slot grid of a bookable product, in its own time zone (docs/bookings.md). Pure: no
 * database, no clock; service.ts adds what is booked and what time it is.
 *
 * Sessions start at each opening's `start` and then every session + buffer, by the wall clock of
 * the product's zone, as long as the session ends by `end`. Wall-clock times are turned into
 * instants by luxon with the zone's rules on that date, so a 09:00 slot stays 09:00 local across a
 * daylight-saving change; a wall time that does not exist that day (inside a spring-forward gap)
 * is skipped rather than moved, so no two slots collide.
 */

export const isZone = (zone: string) => IANAZone.isValidZone(zone);

/** The settings with their defaults filled in. */
export interface Settings {
  timezone: string;
  sessionMinutes: number;
  bufferMinutes: number;
  minNoticeMinutes: number;
  maxDaysAhead: number;
  capacity: number;
  changeNoticeMinutes: number;
  weeklyHours: Availability['weeklyHours'];
  exceptions: NonNullable<Availability['exceptions']>;
}

export function withDefaults(a: Availability): Settings {
  return {
    timezone: a.timezone,
    sessionMinutes: a.sessionMinutes,
    bufferMinutes: a.bufferMinutes ?? 0,
    minNoticeMinutes: a.minNoticeMinutes ?? 0,
    maxDaysAhead: a.maxDaysAhead ?? 60,
    capacity: a.capacity ?? 1,
    changeNoticeMinutes: a.changeNoticeMinutes ?? 1440,
    weeklyHours: a.weeklyHours,
    exceptions: a.exceptions ?? [],
  };
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** What the schema cannot say: a real zone, hours that end after they start and do not overlap, real and distinct dates. */
export function checkAvailability(a: Availability, path: string, problems: ErrorDetail[]) {
  if (!isZone(a.timezone)) problems.push({ field: `${path}timezone`, message: `"${a.timezone}" is not an IANA time zone (e.g. Europe/London)` });
  const checkHours = (hours: { start: string; end: string }[], at: string) => {
    const sorted = hours.map((h, i) => ({ i, s: minutesOf(h.start), e: minutesOf(h.end) })).sort((x, y) => x.s - y.s);
    for (const h of sorted) {
      if (h.e <= h.s) problems.push({ field: `${at}[${h.i}].end`, message: 'must be after start' });
      else if (h.e - h.s < a.sessionMinutes) problems.push({ field: `${at}[${h.i}]`, message: `is shorter than one session (${a.sessionMinutes} minutes)` });
    }
    for (let k = 1; k < sorted.length; k++) {
      if (sorted[k].s < sorted[k - 1].e) problems.push({ field: `${at}[${sorted[k].i}]`, message: 'overlaps other hours of the same day' });
    }
  };
  for (const day of weekdays) checkHours(a.weeklyHours[day] ?? [], `${path}weeklyHours.${day}`);
  const seen = new Set<string>();
  (a.exceptions ?? []).forEach((x, i) => {
    if (!DateTime.fromISO(x.date, { zone: 'UTC' }).isValid) problems.push({ field: `${path}exceptions[${i}].date`, message: `"${x.date}" is not a date` });
    else if (seen.has(x.date)) problems.push({ field: `${path}exceptions[${i}].date`, message: `${x.date} is listed twice` });
    seen.add(x.date);
    checkHours(x.hours, `${path}exceptions[${i}].hours`);
  });
}

export interface GridSlot { start: Date; end: Date }

/** Every session of the grid starting in [from, to), earliest first, before bookings and notice rules. */
export function gridSlots(s: Settings, from: Date, to: Date): GridSlot[] {
  const exceptions = new Map(s.exceptions.map((x) => [x.date, x.hours]));
  const out: GridSlot[] = [];
  // A day's sessions start on that local date, whose span in UTC may begin up to 14 hours either side.
  let day = DateTime.fromJSDate(from, { zone: s.timezone }).startOf('day').minus({ days: 1 });
  const last = DateTime.fromJSDate(to, { zone: s.timezone }).startOf('day').plus({ days: 1 });
  const step = s.sessionMinutes + s.bufferMinutes;
  while (day <= last) {
    const hours = exceptions.get(day.toISODate()!) ?? s.weeklyHours[weekdays[day.weekday - 1]] ?? [];
    for (const h of hours) {
      const first = minutesOf(h.start);
      const end = minutesOf(h.end);
      const open = wallClock(day, first, s.timezone);
      const close = wallClock(day, Math.min(end, 24 * 60 - 1), s.timezone); // `24:00`: its last minute
      // The zone's offset is the same at both ends of the hours (no daylight-saving change inside
      // them, which is every day but two a year): each session is the opening instant plus its
      // minutes, with no zone arithmetic per session (that was most of a listing's cost).
      const steady = open && close && open.offset === close.offset ? open.toMillis() : undefined;
      for (let m = first; m + s.sessionMinutes <= end; m += step) {
        const at = steady !== undefined ? steady + (m - first) * 60_000 : wallClock(day, m, s.timezone)?.toMillis();
        if (at === undefined) continue;
        const start = new Date(at);
        if (start < from || start >= to) continue;
        out.push({ start, end: new Date(at + s.sessionMinutes * 60_000) });
      }
    }
    day = day.plus({ days: 1 });
  }
  return out.sort((x, y) => x.start.getTime() - y.start.getTime());
}

/**
 * Minute `m` of a local day in the zone, or undefined when that wall time does not exist that day
 * (in a spring-forward gap luxon moves it, which the fields then show). The fields are compared,
 * not hasSame(day, 'day'): that builds the day's bounds in the zone each time.
 */
function wallClock(day: DateTime, m: number, zone: string): DateTime | undefined {
  const local = DateTime.fromObject({ year: day.year, month: day.month, day: day.day, hour: Math.floor(m / 60), minute: m % 60 }, { zone });
  return local.hour * 60 + local.minute !== m || local.day !== day.day || local.month !== day.month || local.year !== day.year ? undefined : local;
}

/** A taken place: held, confirmed or rescheduled. */
export interface Taken { start: Date; end: Date; places: number }

/**
 * Places left in a session: none if a session starting at another time overlaps it (buffer
 * included), else the capacity less the places taken in this very session.
 */
export function placesLeft(s: Settings, slot: GridSlot, taken: Taken[]): number {
  const buffer = s.bufferMinutes * 60_000;
  let same = 0;
  for (const t of taken) {
    if (t.start.getTime() === slot.start.getTime()) same += t.places;
    else if (t.start.getTime() < slot.end.getTime() + buffer && slot.start.getTime() < t.end.getTime() + buffer) return 0;
  }
  return Math.max(s.capacity - same, 0);
}

/** Why a start is too early, too soon or too far ahead now, or undefined: for slots that come from the grid, which need no grid check. */
export function timingProblem(s: Settings, start: Date, now: Date): string | undefined {
  if (start.getTime() <= now.getTime()) return 'is in the past';
  if (start.getTime() < now.getTime() + s.minNoticeMinutes * 60_000) return `is too soon: bookings need ${s.minNoticeMinutes} minutes' notice`;
  if (start.getTime() > now.getTime() + s.maxDaysAhead * 86_400_000) return `is too far ahead: bookings open ${s.maxDaysAhead} days ahead`;
  return undefined;
}

/** Why a start is not bookable now by the product's rules (not counting what is taken), or undefined. */
export function ruleProblem(s: Settings, start: Date, now: Date): string | undefined {
  const timing = timingProblem(s, start, now);
  if (timing) return timing;
  const onGrid = gridSlots(s, start, new Date(start.getTime() + 1)).some((g) => g.start.getTime() === start.getTime());
  if (!onGrid) return 'is outside the product\'s hours (not the start of one of its sessions)';
  return undefined;
}

/** An instant shown in a zone, ISO 8601 with its offset. */
export const localIso = (at: Date, zone: string) => DateTime.fromJSDate(at, { zone }).toISO()!;

/**
 * localIso for many instants in one zone, as luxon writes them (`…T05:00:00.000-04:00`, `Z` for
 * UTC itself) but with only the zone's offset looked up per instant rather than a DateTime
 * built and formatted: a listing shows a hundred or more sessions.
 */
export function localIsoIn(zone: string): (at: Date) => string {
  const z = Info.normalizeZone(zone);
  return (at) => {
    const offset = z.offset(at.getTime());
    const shifted = new Date(at.getTime() + offset * 60_000).toISOString();
    if (offset === 0 && z.isUniversal) return shifted;
    const abs = Math.abs(offset);
    return `${shifted.slice(0, -1)}${offset < 0 ? '-' : '+'}${String(Math.trunc(abs / 60)).padStart(2, '0')}:${String(Math.trunc(abs % 60)).padStart(2, '0')}`;
  };
}
