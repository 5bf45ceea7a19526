import { isConnectionError } from '../db/client.ts';
import type { Deps } from '../deps.ts';
import type { WorkSource } from '../worker/loop.ts';
import * as claims from './claim.ts';
import { createDeliverer } from './delivery.ts';

/**
 * The worker's webhook source. Keeps up to `concurrency` deliveries being sent, and about as many
 * more claimed and ready, so a slot that frees starts the next delivery at once instead of
 * waiting for a claim statement: each runOnce tops the claimed work up in one statement once the
 * ready ones run low, and starts deliveries without waiting for them, so a slow receiver never
 * holds up the others. A slot is free again as soon as its receiver has answered; the attempt is
 * recorded with others in one statement while the slot sends the next one (the claim keeps it
 * from being sent again meanwhile). At most `unrecordedLimit` answered attempts wait for the
 * database, so a slow database slows claiming instead of piling up answers. A ready delivery
 * that waited so long that its lease could run out before its timeout is given back unsent.
 * stop() stops claiming, gives back what is not sent yet and waits for the in-flight ones (each
 * bounded by the timeout) to be recorded, so nothing stays claimed.
 *
 * No noisy neighbours: at most `maxInFlightPerEndpoint` deliveries to one endpoint and
 * `maxInFlightPerBrand` for one brand are claimed by this worker (being sent or ready). A claim
 * takes only what fits under those caps, and when an answer frees a slot of an endpoint or brand
 * that was at its cap the source asks the loop to run it again at once, so a receiver that hangs
 * holds only its own slots and a fast one is kept busy. (Counted per worker: a claim that counted
 * every worker's deliveries halved the delivery rate.)
 */
export function deliverySource(deps: Pick<Deps, 'db' | 'config' | 'log' | 'lookup' | 'secrets'>): WorkSource {
  const settings = deps.config.webhooks;
  const deliverer = createDeliverer({ db: deps.db, settings, key: deps.secrets.webhookKey, log: deps.log, lookup: deps.lookup });
  const sending = new Set<Promise<void>>();
  const recording = new Set<Promise<void>>();
  const ready: { d: claims.ClaimedDelivery; claimedAt: number }[] = [];
  let giveBack: claims.ClaimedDelivery[] = [];
  const unrecordedLimit = settings.concurrency * 4;
  // Started later than this after its claim, a delivery could outlive its lease while the
  // receiver still has time to answer (and another worker could send it too). Those a claim
  // starts at once always go, as before there was a ready queue.
  const spare = settings.claimLeaseMs - settings.timeoutMs;
  const startBy = Math.max(spare - 1000, spare / 2);
  const perEndpoint = new Map<string, number>();
  const perBrand = new Map<string, number>();
  const bump = (map: Map<string, number>, key: string, by: number) => {
    const n = (map.get(key) ?? 0) + by;
    if (n > 0) map.set(key, n);
    else map.delete(key);
  };
  const hold = (d: claims.ClaimedDelivery, by: 1 | -1) => {
    bump(perEndpoint, d.endpoint_id, by);
    bump(perBrand, d.brand_id, by);
  };
  const caps = (): claims.ClaimCaps => ({
    heldByEndpoint: perEndpoint, heldByBrand: perBrand,
    perEndpoint: settings.maxInFlightPerEndpoint, perBrand: settings.maxInFlightPerBrand,
  });
  const atCap = (d: claims.ClaimedDelivery) => (perEndpoint.get(d.endpoint_id) ?? 0) >= settings.maxInFlightPerEndpoint
    || (perBrand.get(d.brand_id) ?? 0) >= settings.maxInFlightPerBrand;
  let stopping = false;
  // The worker loop's wake-up for this source alone (loop.ts, attach).
  let wakeSelf = () => {};

  const failedToRecord = (d: claims.ClaimedDelivery) => (err: unknown) => (isConnectionError(err)
    // The database is away: the claim lapses and the delivery goes out again (at least once).
    ? deps.log.warn({ delivery: d.id, reason: (err as Error).message }, 'webhook delivery not recorded: the database is unreachable')
    : deps.log.error({ err, delivery: d.id }, 'webhook delivery failed to record'));

  const start = (d: claims.ClaimedDelivery) => {
    const sent = deliverer.send(d)
      .then(({ recorded }) => {
        const r = recorded.catch(failedToRecord(d)).finally(() => recording.delete(r));
        recording.add(r);
      }, failedToRecord(d))
      .finally(() => {
        sending.delete(sent);
        // A slot freed on an endpoint or brand that was at its cap: the claims left its due
        // deliveries out, so claim again now rather than at the next poll (one endpoint with a
        // backlog otherwise drained at the pace of notifications and polls).
        const wasAtCap = atCap(d);
        hold(d, -1);
        pump();
        if (wasAtCap && !stopping) wakeSelf();
      });
    sending.add(sent);
  };
  /** Fills free slots from the ready deliveries; those claimed at `fresh` go whatever the clock says. */
  const pump = (fresh?: number) => {
    while (sending.size < settings.concurrency && ready.length) {
      const { d, claimedAt } = ready.shift()!;
      if (stopping || (claimedAt !== fresh && Date.now() - claimedAt > startBy)) {
        hold(d, -1);
        giveBack.push(d);
      } else start(d);
    }
  };
  const release = async () => {
    const back = giveBack;
    giveBack = [];
    await claims.releaseClaims(deps.db, back);
  };

  return {
    name: 'webhook-deliveries',
    attach(wake) {
      wakeSelf = wake;
    },
    async runOnce() {
      // Claim in batches: wait until the ready deliveries are down to half a round, so each
      // claim statement takes many deliveries instead of one per finished delivery.
      while (!stopping && sending.size && ready.length >= settings.concurrency / 2) await Promise.race(sending);
      while (!stopping && recording.size >= unrecordedLimit) await Promise.race(recording);
      if (giveBack.length) await release();
      if (stopping) return 0;
      const room = 2 * settings.concurrency - sending.size - ready.length;
      const claimed = await claims.claimDue(deps.db, Math.min(room, 200), settings.claimLeaseMs, deliverer.claimToken(), caps());
      const claimedAt = Date.now();
      for (const d of claimed) {
        // The claim took only what fits (a slot can only have freed since), so this gives back
        // nothing unless the worker is stopping.
        if (stopping || atCap(d)) giveBack.push(d);
        else {
          hold(d, 1);
          ready.push({ d, claimedAt });
        }
      }
      pump(claimedAt);
      await release();
      return claimed.length;
    },
    async stop() {
      stopping = true;
      pump();
      await Promise.allSettled([...sending]);
      for (const { d } of ready.splice(0)) giveBack.push(d);
      await release().catch((err) => deps.log.warn({ err }, 'webhook claims not given back; they expire with their lease'));
      await Promise.allSettled([...recording]);
      deliverer.close();
    },
  };
}
