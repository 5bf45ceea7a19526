import { isConnectionError } from '../db/client.ts';
import type { Deps } from '../deps.ts';
import type { WorkSource } from '../worker/loop.ts';
import * as claims from './claim.ts';
import { createDeliverer } from './delivery.ts';

/**
 * The worker's webhook source. Keeps up to `concurrency` deliveries being sent: each runOnce
 * waits for free slots, claims as many due deliveries as there are free slots in one statement
 * and starts them without waiting for them, so a slow receiver never holds up the others. A
 * delivery's slot is free again as soon as its receiver has answered; its attempt is recorded
 * with others in one statement while the slot is already sending the next one (the claim keeps
 * it from being sent again meanwhile). At most `unrecordedLimit` answered attempts wait for the
 * database, so a slow database slows claiming instead of piling up answers. stop() stops
 * claiming and waits for the in-flight ones (each bounded by the timeout) to be recorded, so
 * nothing stays claimed.
 *
 * No noisy neighbours: at most `maxInFlightPerEndpoint` deliveries to one endpoint and
 * `maxInFlightPerBrand` for one brand are being sent by this worker. Busy endpoints and brands are
 * left out of the next claim, and what one claim takes beyond a cap is given back at once, so a
 * receiver that hangs holds only its own slots. (Counted per worker: a claim that counted every
 * worker's deliveries halved the delivery rate.)
 */
export function deliverySource(deps: Pick<Deps, 'db' | 'config' | 'log' | 'lookup' | 'secrets'>): WorkSource {
  const settings = deps.config.webhooks;
  const deliverer = createDeliverer({ db: deps.db, settings, key: deps.secrets.webhookKey, log: deps.log, lookup: deps.lookup });
  const sending = new Set<Promise<void>>();
  const recording = new Set<Promise<void>>();
  const unrecordedLimit = settings.concurrency * 4;
  const perEndpoint = new Map<string, number>();
  const perBrand = new Map<string, number>();
  const bump = (map: Map<string, number>, key: string, by: number) => {
    const n = (map.get(key) ?? 0) + by;
    if (n > 0) map.set(key, n);
    else map.delete(key);
  };
  const busy = () => ({
    endpoints: [...perEndpoint].filter(([, n]) => n >= settings.maxInFlightPerEndpoint).map(([id]) => id),
    brands: [...perBrand].filter(([, n]) => n >= settings.maxInFlightPerBrand).map(([id]) => id),
  });
  let stopping = false;

  const failedToRecord = (d: claims.ClaimedDelivery) => (err: unknown) => (isConnectionError(err)
    // The database is away: the claim lapses and the delivery goes out again (at least once).
    ? deps.log.warn({ delivery: d.id, reason: (err as Error).message }, 'webhook delivery not recorded: the database is unreachable')
    : deps.log.error({ err, delivery: d.id }, 'webhook delivery failed to record'));

  const track = (d: claims.ClaimedDelivery) => {
    bump(perEndpoint, d.endpoint_id, 1);
    bump(perBrand, d.brand_id, 1);
    const sent = deliverer.send(d)
      .then(({ recorded }) => {
        const r = recorded.catch(failedToRecord(d)).finally(() => recording.delete(r));
        recording.add(r);
      }, failedToRecord(d))
      .finally(() => {
        sending.delete(sent);
        bump(perEndpoint, d.endpoint_id, -1);
        bump(perBrand, d.brand_id, -1);
      });
    sending.add(sent);
  };

  return {
    name: 'webhook-deliveries',
    async runOnce() {
      // Claim in batches: once the slots are full, wait until half are free again, so each
      // claim statement takes many deliveries instead of one per finished delivery.
      if (sending.size >= settings.concurrency) {
        while (!stopping && sending.size > settings.concurrency / 2) await Promise.race(sending);
      }
      while (!stopping && recording.size >= unrecordedLimit) await Promise.race(recording);
      if (stopping) return 0;
      const free = settings.concurrency - sending.size;
      const claimed = await claims.claimDue(deps.db, Math.min(free, 100), settings.claimLeaseMs, deliverer.claimToken(), busy());
      const giveBack: claims.ClaimedDelivery[] = [];
      for (const d of claimed) {
        const full = (perEndpoint.get(d.endpoint_id) ?? 0) >= settings.maxInFlightPerEndpoint
          || (perBrand.get(d.brand_id) ?? 0) >= settings.maxInFlightPerBrand;
        if (stopping || full) giveBack.push(d);
        else track(d);
      }
      await claims.releaseClaims(deps.db, giveBack);
      return claimed.length;
    },
    async stop() {
      stopping = true;
      await Promise.allSettled([...sending]);
      await Promise.allSettled([...recording]);
      deliverer.close();
    },
  };
}
