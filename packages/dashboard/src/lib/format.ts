/**
 * A timestamp as a person reads it, in their own locale and time zone, to the minute: the one date
 * format of the dashboard. No date reads as a dash ("never"), or as `none` where a blank reads better.
 */
export function formatDate(iso: string | null | undefined, none = '—'): string {
  if (!iso) return none;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** "in 3 minutes", "in 2 hours": how long until a time, for retry and expiry messages. */
export function fromNow(seconds: number): string {
  if (seconds < 60) return `in ${Math.max(1, Math.round(seconds))} seconds`;
  if (seconds < 3600) return `in ${Math.round(seconds / 60)} minutes`;
  if (seconds < 86400) return `in ${Math.round(seconds / 3600)} hours`;
  return `in ${Math.round(seconds / 86400)} days`;
}

/** The safe same-origin path to return to after signing in, or the dashboard's home. */
export function safeReturnTo(value: string | null): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/dashboard/';
  return value;
}
