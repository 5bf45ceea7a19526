import { isConnectionError } from '../db/client.ts';
import type { Deps } from '../deps.ts';
import type { WorkSource } from '../worker/loop.ts';
import * as claims from './claim.ts';
import { createDeliverer } from './delivery.ts';
import { queueStatements } from './queue-plans.ts';

/**
 * How many in-flight caps' worth a flowing endpoint (or brand) may hold at most: its slots and the
 * ready ones behind them. A claim is a commit, several milliseconds on an ordinary disk and many
 * more on a busy machine, and one endpoint's slots turn over in about a millisecond each, so the
 * ready ones must last a whole claim: with one cap behind the slots (2) one endpoint's drain was
 * bounded by 16 deliveries a claim; with three (4) each claim takes about twice as many, and its
 * claims cost the database about a third less per delivery (docs/performance.md, issue 20). Only
 * while few endpoints share the worker (`ahead` below). The in-flight caps themselves do not change.
 */
const heldRounds = 4;

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
 * `maxInFlightPerBrand` for one brand are being sent by this worker at once. An endpoint (and
 * brand) whose receiver has answered may also hold up to `heldRounds - 1` times as many claimed
 * and ready behind those, so a freed slot starts its next delivery at once instead of after a claim
 * statement (issue 20: with claims only up to the in-flight cap, every slot of one endpoint waited
 * for a claim round trip and one endpoint drained at about 1,100 deliveries/s). A claim takes only
 * what fits, and when an answer frees room for an endpoint or brand that was at its limit, the
 * source asks the loop to run it again at once, naming that brand so the claim need not wait for
 * the pick to find it (claim.ts). An endpoint that never answered yet, or whose ready deliveries
 * waited so long they were given back (its receiver is slow or hangs), holds no more claims than
 * it has slots until it answers again, so it holds only its own slots and does not churn claims.
 * (Counted per worker: a claim that counted every worker's deliveries halved the delivery rate.)
 */
export function deliverySource(deps: Pick<Deps, 'db' | 'config' | 'log' | 'lookup' | 'secrets'>): WorkSource {
  const settings = deps.config.webhooks;
  // Every statement of the worker's on the queue plans without bitmap scans (queue-plans.ts says why).
  const queue = queueStatements(deps.db);
  const deliverer = createDeliverer({ db: queue, settings, key: deps.secrets.webhookKey, log: deps.log, lookup: deps.lookup });
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
  // Held: claimed by this worker, being sent or ready; sending: being sent.
  const perEndpoint = new Map<string, number>();
  const perBrand = new Map<string, number>();
  const sendingToEndpoint = new Map<string, number>();
  const sendingForBrand = new Map<string, number>();
  // Endpoints and brands whose receivers have answered since their ready deliveries last went
  // back unsent: only those may hold ready deliveries beyond their in-flight cap, so a receiver
  // that hangs (or never answered yet) holds no more claims than it has slots.
  const flowingEndpoints = new Set<string>();
  const flowingBrands = new Set<string>();
  const bump = (map: Map<string, number>, key: string, by: number) => {
    const n = (map.get(key) ?? 0) + by;
    if (n > 0) map.set(key, n);
    else map.delete(key);
  };
  const hold = (d: claims.ClaimedDelivery, by: 1 | -1) => {
    bump(perEndpoint, d.endpoint_id, by);
    bump(perBrand, d.brand_id, by);
  };
  /**
   * How many a flowing endpoint (or brand) may hold ready behind its in-flight cap: one cap, and up
   * to `heldRounds - 1` caps while few share the worker. The ready ones of all of them together
   * stay about one `concurrency`: ready deliveries an endpoint cannot start yet (its slots are
   * full) would otherwise fill the worker's room, and the other endpoints would have none ready.
   */
  const ahead = (cap: number, holders: Map<string, number>) => Math.max(cap, Math.min((heldRounds - 1) * cap, Math.floor(settings.concurrency / Math.max(1, holders.size))));
  type Ahead = { endpoint: number; brand: number };
  const aheadNow = (): Ahead => ({ endpoint: ahead(settings.maxInFlightPerEndpoint, perEndpoint), brand: ahead(settings.maxInFlightPerBrand, perBrand) });
  /**
   * The claim counts against the in-flight caps; a flowing endpoint or brand counts what it may
   * hold ahead less. The same `a` judges what the claim brings back, so the claim and that check
   * agree even when the claim adds endpoints (and shrinks what each may hold ahead).
   */
  const caps = (a: Ahead): claims.ClaimCaps => {
    const credited = (held: Map<string, number>, flowing: Set<string>, extra: number) => {
      if (!flowing.size) return held;
      const out = new Map(held);
      for (const id of flowing) out.set(id, (out.get(id) ?? 0) - extra);
      return out;
    };
    return {
      heldByEndpoint: credited(perEndpoint, flowingEndpoints, a.endpoint),
      heldByBrand: credited(perBrand, flowingBrands, a.brand),
      perEndpoint: settings.maxInFlightPerEndpoint, perBrand: settings.maxInFlightPerBrand,
    };
  };
  const atHoldCap = (d: claims.ClaimedDelivery, a = aheadNow()) =>
    (perEndpoint.get(d.endpoint_id) ?? 0) >= settings.maxInFlightPerEndpoint + (flowingEndpoints.has(d.endpoint_id) ? a.endpoint : 0)
    || (perBrand.get(d.brand_id) ?? 0) >= settings.maxInFlightPerBrand + (flowingBrands.has(d.brand_id) ? a.brand : 0);
  const canSend = (d: claims.ClaimedDelivery) => (sendingToEndpoint.get(d.endpoint_id) ?? 0) < settings.maxInFlightPerEndpoint
    && (sendingForBrand.get(d.brand_id) ?? 0) < settings.maxInFlightPerBrand;
  const flowing = (d: claims.ClaimedDelivery, yes: boolean) => {
    // Bounded: a worker that has seen very many endpoints starts them over as not yet flowing.
    if (yes && flowingEndpoints.size >= 10_000) flowingEndpoints.clear();
    if (yes && flowingBrands.size >= 10_000) flowingBrands.clear();
    for (const [set, id] of [[flowingEndpoints, d.endpoint_id], [flowingBrands, d.brand_id]] as const) {
      if (yes) set.add(id);
      else set.delete(id);
    }
  };
  let stopping = false;
  // The worker loop's wake-up for this source alone (loop.ts, attach), given after a millisecond
  // so that the answers arriving meanwhile free their slots too and one claim takes them all
  // (and so that, on PGlite, the receivers' I/O runs between claims on this thread).
  let wakeSelf = () => {};
  const freedBrands = new Set<string>();
  let wakeSoon: NodeJS.Timeout | undefined;
  const wakeForFreedSlot = () => {
    wakeSoon ??= setTimeout(() => { wakeSoon = undefined; wakeSelf(); }, 1);
  };

  const failedToRecord = (d: claims.ClaimedDelivery) => (err: unknown) => (isConnectionError(err)
    // The database is away: the claim lapses and the delivery goes out again (at least once).
    ? deps.log.warn({ delivery: d.id, reason: (err as Error).message }, 'webhook delivery not recorded: the database is unreachable')
    : deps.log.error({ err, delivery: d.id }, 'webhook delivery failed to record'));

  const start = (d: claims.ClaimedDelivery) => {
    bump(sendingToEndpoint, d.endpoint_id, 1);
    bump(sendingForBrand, d.brand_id, 1);
    const sent = deliverer.send(d)
      .then(({ recorded }) => {
        const r = recorded.catch(failedToRecord(d)).finally(() => recording.delete(r));
        recording.add(r);
      }, failedToRecord(d))
      .finally(() => {
        sending.delete(sent);
        bump(sendingToEndpoint, d.endpoint_id, -1);
        bump(sendingForBrand, d.brand_id, -1);
        // Room freed on an endpoint or brand that was at its holding cap: the claims left its
        // due deliveries out, so claim again now rather than at the next poll (one endpoint with
        // a backlog otherwise drained at the pace of notifications and polls).
        const wasAtCap = atHoldCap(d);
        flowing(d, true);
        hold(d, -1);
        pump();
        if (wasAtCap && !stopping) {
          freedBrands.add(d.brand_id);
          wakeForFreedSlot();
        }
      });
    sending.add(sent);
  };
  /**
   * Fills free slots from the ready deliveries whose endpoint and brand have a slot free; those
   * claimed at `fresh` go whatever the clock says, others that waited too long go back.
   */
  const pump = (fresh?: number) => {
    for (let i = 0; i < ready.length && sending.size < settings.concurrency;) {
      const { d, claimedAt } = ready[i];
      if (stopping || (claimedAt !== fresh && Date.now() - claimedAt > startBy)) {
        ready.splice(i, 1);
        hold(d, -1);
        if (!stopping) flowing(d, false);
        giveBack.push(d);
      } else if (canSend(d)) {
        ready.splice(i, 1);
        start(d);
      } else i++;
    }
  };
  /** Ready deliveries that could start now if a global slot were free. */
  const startable = () => ready.reduce((n, r) => n + (canSend(r.d) ? 1 : 0), 0);
  const release = async () => {
    const back = giveBack;
    giveBack = [];
    await claims.releaseClaims(queue, back);
  };

  return {
    name: 'webhook-deliveries',
    attach(wake) {
      wakeSelf = wake;
    },
    async runOnce() {
      // Claim in batches: wait until the ready deliveries are down to half a round, so each
      // claim statement takes many deliveries instead of one per finished delivery.
      while (!stopping && sending.size && startable() >= settings.concurrency / 2) await Promise.race(sending);
      while (!stopping && recording.size >= unrecordedLimit) await Promise.race(recording);
      if (giveBack.length) await release();
      if (stopping) return 0;
      const room = 2 * settings.concurrency - sending.size - ready.length;
      const knownDue = [...freedBrands];
      freedBrands.clear();
      const a = aheadNow();
      // Each brand's deliveries go as soon as they are claimed, not when every brand's claim is done.
      const take = (brandsDeliveries: claims.ClaimedDelivery[]) => {
        const claimedAt = Date.now();
        for (const d of brandsDeliveries) {
          // The claim took only what fits (a slot can only have freed since), so this gives back
          // nothing unless the worker is stopping.
          if (stopping || atHoldCap(d, a)) giveBack.push(d);
          else {
            hold(d, 1);
            ready.push({ d, claimedAt });
          }
        }
        pump(claimedAt);
      };
      const claimed = await claims.claimDue(queue, Math.min(room, 200), settings.claimLeaseMs, deliverer.claimToken(), caps(a), knownDue,
        new Date(Date.now() - settings.eventRetentionMs), take);
      await release();
      return claimed.length;
    },
    async stop() {
      stopping = true;
      clearTimeout(wakeSoon);
      pump();
      await Promise.allSettled([...sending]);
      for (const { d } of ready.splice(0)) giveBack.push(d);
      await release().catch((err) => deps.log.warn({ err }, 'webhook claims not given back; they expire with their lease'));
      await Promise.allSettled([...recording]);
      deliverer.close();
    },
  };
}
