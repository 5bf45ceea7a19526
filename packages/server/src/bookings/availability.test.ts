import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DateTime } from 'luxon';
import { gridSlots, localIso, localIsoIn, withDefaults } from './availability.ts';

/**
 * The slot grid's fast paths (one zone look-up per opening, one offset per shown time) give what
 * building each session with luxon gives, on the days a zone changes its clocks too.
 */

const zones = ['Europe/London', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kolkata', 'Africa/Casablanca', 'America/Santiago', 'Pacific/Chatham', 'UTC', 'Etc/UTC', 'Europe/Kyiv'];

describe('the slot grid in a zone', () => {
  it('writes each instant as luxon does, every 47 minutes of 2027, in zones with odd offsets and changes', () => {
    for (const zone of zones) {
      const shown = localIsoIn(zone);
      for (let at = Date.UTC(2027, 0, 1); at < Date.UTC(2028, 0, 1); at += 47 * 60_000) {
        const d = new Date(at);
        if (shown(d) !== localIso(d, zone)) assert.equal(shown(d), localIso(d, zone), `${zone} ${d.toISOString()}`);
      }
    }
  });

  it('starts every session at its wall-clock time, through every clock change of 2027, and skips times that do not exist', () => {
    const hours = [{ start: '00:30', end: '04:00' }, { start: '09:00', end: '24:00' }];
    for (const timezone of ['Europe/London', 'America/New_York', 'Australia/Lord_Howe', 'Africa/Casablanca', 'America/Santiago']) {
      const s = withDefaults({
        timezone, sessionMinutes: 25, bufferMinutes: 5,
        weeklyHours: { monday: hours, tuesday: hours, wednesday: hours, thursday: hours, friday: hours, saturday: hours, sunday: hours },
      });
      const slots = gridSlots(s, new Date(Date.UTC(2027, 0, 1)), new Date(Date.UTC(2028, 0, 1)));
      const starts = new Set(slots.map((x) => x.start.getTime()));
      assert.equal(starts.size, slots.length, `${timezone}: no two sessions at one instant`);
      // What each day's sessions must be, built one by one with luxon.
      let expected = 0;
      // From the local day before (a zone ahead of or behind UTC has sessions of 2026's or 2028's local dates in 2027).
      for (let day = DateTime.fromObject({ year: 2026, month: 12, day: 31 }, { zone: timezone }); day.year < 2028 || day.ordinal === 1; day = day.plus({ days: 1 })) {
        for (const h of hours) {
          const [sh, sm] = h.start.split(':').map(Number), [eh, em] = h.end.split(':').map(Number);
          for (let m = sh! * 60 + sm!; m + 25 <= eh! * 60 + em!; m += 30) {
            const local = DateTime.fromObject({ year: day.year, month: day.month, day: day.day, hour: Math.floor(m / 60), minute: m % 60 }, { zone: timezone });
            if (local.hour * 60 + local.minute !== m || local.day !== day.day) continue;
            const at = local.toMillis();
            if (at < Date.UTC(2027, 0, 1) || at >= Date.UTC(2028, 0, 1)) continue;
            expected++;
            if (!starts.has(at)) assert.fail(`${timezone}: the session at ${local.toISO()} is missing`);
          }
        }
      }
      assert.equal(slots.length, expected, timezone);
    }
  });
});
