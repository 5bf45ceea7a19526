// Words every server-rendered page (storefront, checkout, checkout links) writes the same way.

/** "Saturday 14 March 2027, 15:00 GMT" in the brand's time zone (UTC when it has none). */
export function dateTimeWords(at: Date, timeZone: string | null): string {
  return new Intl.DateTimeFormat('en-GB', {
    weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit',
    timeZone: timeZone ?? 'UTC', timeZoneName: 'short',
  }).format(at);
}
