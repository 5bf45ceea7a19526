import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';
import { dropLogDaysBefore, ensureLogPartitionsAround } from '../db/partitions.ts';
import type { WorkSource } from '../worker/loop.ts';
import { periodic } from '../worker/periodic.ts';
import { purgeProviderEventsBefore } from '../payments/stripe/repository.ts';

export interface RetentionSettings {
  /** EVENT_RETENTION: events are kept this long at least (GET /events promises 30 days). */
  eventRetentionMs: number;
  /** DELIVERY_LOG_RETENTION: deliveries and their attempts, at most as long as events. */
  deliveryLogRetentionMs: number;
}

/**
 * Retention (DESIGN.md, Data; docs/performance.md "Daily partitions, retention by DROP"): whole
 * days go, never rows. Events' days that ended more than EVENT_RETENTION ago, and deliveries' and
 * attempts' days that ended more than DELIVERY_LOG_RETENTION ago, are detached and dropped
 * (db/partitions.ts): one statement or two a day and table, whatever the number of brands or
 * rows, where the per-brand DELETE it replaces was a statement per brand and a thousand rows. So
 * a row is kept at least its retention and at most a day more. Stripe's events (provider_events,
 * deduplication of incoming webhooks) are still deleted by time with the events' cutoff.
 */
export async function dropExpiredDays(db: Db, settings: RetentionSettings, now = new Date()) {
  // Deliveries first: a run that stops half-way never leaves deliveries whose event is gone.
  const deliveries = await dropLogDaysBefore(db, ['webhook_deliveries', 'webhook_attempts'], new Date(now.getTime() - settings.deliveryLogRetentionMs));
  const events = await dropLogDaysBefore(db, ['events'], new Date(now.getTime() - settings.eventRetentionMs));
  const providerEvents = await purgeProviderEventsBefore(db, new Date(now.getTime() - settings.eventRetentionMs));
  return { dropped: [...events.dropped, ...deliveries.dropped], failed: [...events.failed, ...deliveries.failed], providerEvents };
}

/**
 * Once an hour (`everyMs`) in each worker process (worker/periodic.ts): the delivery log's days
 * from yesterday to two days ahead are made where missing, and the expired ones dropped.
 */
export function retentionSource(deps: { db: Db; log: FastifyBaseLogger; settings: RetentionSettings; everyMs?: number }): WorkSource {
  return periodic('event-retention', deps.everyMs ?? 3_600_000, async () => {
    const made = await ensureLogPartitionsAround(deps.db);
    if (made) deps.log.info({ made }, 'delivery log partitions made ahead');
    const { dropped, failed } = await dropExpiredDays(deps.db, deps.settings);
    if (dropped.length) deps.log.info({ dropped }, 'expired days of events and deliveries dropped');
    if (failed.length) deps.log.warn({ failed }, 'expired days left for the next run');
  });
}
