import type { Queryable } from '../../db/client.ts';

/**
 * Records that a provider's event is being acted on, in the caller's transaction. False when it
 * was recorded before: a redelivery, which must change nothing. Of two deliveries racing, the
 * second waits on the first's row and then sees it.
 */
export async function claimProviderEvent(db: Queryable, event: { provider: string; id: string; type: string; brandId: string | null }): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO provider_events (provider, event_id, type, brand_id) VALUES ($1, $2, $3, $4)
     ON CONFLICT (provider, event_id) DO NOTHING RETURNING event_id`,
    [event.provider, event.id, event.type, event.brandId],
  );
  return rows.length > 0;
}

/** Forgets provider events recorded before `cutoff` (with the events' retention; Stripe redelivers for 3 days at most). */
export async function purgeProviderEventsBefore(db: Queryable, cutoff: Date): Promise<number> {
  const rows = await db.query('DELETE FROM provider_events WHERE received_at < $1 RETURNING event_id', [cutoff]);
  return rows.length;
}
