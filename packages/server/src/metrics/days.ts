/**
 * Calendar days in a brand's time zone, as instants: the home counts "today" and "the last 7
 * days" the way the creator's own calendar does, not UTC's. Computed here with Intl (the zone
 * names are the ones brands/profile.ts accepts) so the SQL needs no time zone data.
 */

export interface LocalDay {
  /** `YYYY-MM-DD` in the zone. */
  date: string;
  starts: Date;
  /** The next day's start, or for today the end of the counted range. */
  ends: Date;
}

const partsFormat = (timeZone: string) => new Intl.DateTimeFormat('en-US', {
  timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
});

/** The zone's wall clock at `instant`, as if that wall clock were UTC (ms). */
function wallClock(instant: number, format: Intl.DateTimeFormat): number {
  const p = Object.fromEntries(format.formatToParts(new Date(instant)).map((x) => [x.type, x.value]));
  return Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
}

/** The instant a wall-clock midnight (as UTC ms) happens in the zone; on a DST change at midnight, the first instant of that day. */
function midnightIn(wallMidnight: number, format: Intl.DateTimeFormat): number {
  let guess = wallMidnight;
  for (let i = 0; i < 3; i++) {
    const offset = wallClock(guess, format) - guess;
    const next = wallMidnight - offset;
    if (next === guess) break;
    guess = next;
  }
  return guess;
}

const isoDate = (wallMs: number) => new Date(wallMs).toISOString().slice(0, 10);

/**
 * The last `count` local days up to `now`, oldest first; the last is today, which ends just after
 * `now` (a sale recorded at `now` counts).
 */
export function lastLocalDays(now: Date, timeZone: string, count: number): LocalDay[] {
  const format = partsFormat(timeZone);
  const nowWall = wallClock(now.getTime() - (now.getTime() % 1000), format);
  const todayWall = Date.UTC(new Date(nowWall).getUTCFullYear(), new Date(nowWall).getUTCMonth(), new Date(nowWall).getUTCDate());
  const dayMs = 86_400_000;
  const days: LocalDay[] = [];
  for (let back = count - 1; back >= 0; back--) {
    const wall = todayWall - back * dayMs;
    const starts = new Date(midnightIn(wall, format));
    const ends = back === 0 ? new Date(now.getTime() + 1) : new Date(midnightIn(wall + dayMs, format));
    days.push({ date: isoDate(wall), starts, ends });
  }
  return days;
}
