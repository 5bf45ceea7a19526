import { isConnectionError } from '../db/client.ts';
import type { Deps } from '../deps.ts';
import type { WorkSource } from '../worker/loop.ts';
import { createDeliverer } from './delivery.ts';
import * as repo from './repository.ts';

/**
 * The worker's webhook source. Keeps up to `concurrency` deliveries in flight: each runOnce waits
 * for a free slot, claims as many due deliveries as there are free slots and starts them without
 * waiting for them, so a slow receiver never holds up the others. stop() stops claiming and waits
 * for the in-flight ones (each bounded by the timeout) to be recorded, so nothing stays claimed.
 */
export function deliverySource(deps: Pick<Deps, 'db' | 'config' | 'log' | 'lookup' | 'secrets'>): WorkSource {
  const settings = deps.config.webhooks;
  const deliverer = createDeliverer({ db: deps.db, settings, key: deps.secrets.webhookKey, log: deps.log, lookup: deps.lookup });
  const inFlight = new Set<Promise<void>>();
  let stopping = false;

  const track = (d: repo.ClaimedDelivery) => {
    const p = deliverer.deliver(d)
      .catch((err) => (isConnectionError(err)
        // The database is away: the claim lapses and the delivery goes out again (at least once).
        ? deps.log.warn({ delivery: d.id, reason: (err as Error).message }, 'webhook delivery not recorded: the database is unreachable')
        : deps.log.error({ err, delivery: d.id }, 'webhook delivery failed to record')))
      .finally(() => { inFlight.delete(p); });
    inFlight.add(p);
  };

  return {
    name: 'webhook-deliveries',
    async runOnce() {
      // Claim in batches: once the slots are full, wait until half are free again, so each
      // claim statement takes many deliveries instead of one per finished delivery.
      if (inFlight.size >= settings.concurrency) {
        while (!stopping && inFlight.size > settings.concurrency / 2) await Promise.race(inFlight);
      }
      if (stopping) return 0;
      const free = settings.concurrency - inFlight.size;
      const claimed = await repo.claimDue(deps.db, Math.min(free, 100), settings.claimLeaseMs, deliverer.claimToken(),
        { perEndpoint: settings.maxInFlightPerEndpoint, perBrand: settings.maxInFlightPerBrand });
      for (const d of claimed) {
        if (stopping) await repo.releaseClaim(deps.db, d);
        else track(d);
      }
      return claimed.length;
    },
    async stop() {
      stopping = true;
      await Promise.allSettled([...inFlight]);
      deliverer.close();
    },
  };
}
