import type { FastifyBaseLogger } from 'fastify';
import { isConnectionError, type Db } from '../db/client.ts';
import { workChannel } from './notify.ts';

/**
 * One kind of queued work (webhook deliveries, imports, schedules). `runOnce` claims what is due
 * (FOR UPDATE SKIP LOCKED, so any number of workers can run), does it, and says how much it did.
 */
export interface WorkSource {
  name: string;
  runOnce(): Promise<number>;
  /** Lets in-flight work finish or hands it back (SIGTERM). */
  stop?(): Promise<void>;
  /**
   * Given this source's own wake-up: calling it runs this source again now instead of at the
   * next NOTIFY or poll (the delivery source calls it when a receiver's answer frees a slot its
   * caps were holding back; other sources are not woken by it).
   */
  attach?(wakeSelf: () => void): void;
}

export interface Worker {
  /** Runs every source now instead of at the next poll. */
  wake(): void;
  stop(): Promise<void>;
}

/**
 * Runs each source until it finds nothing to do, then sleeps until NOTIFY on the work channel
 * (sent by commits that create work) or the poll interval, whichever comes first. Polling covers
 * retries that fall due with no commit to announce them.
 */
export async function startWorker(db: Db, sources: WorkSource[], log: FastifyBaseLogger, pollMs = 1000): Promise<Worker> {
  let stopping = false;
  // Per source: bumped by every wake-up, so a NOTIFY (or the source's own wake-up) that lands
  // while the source is busy is not slept through.
  const states = sources.map(() => ({ generation: 0, sleeper: undefined as (() => void) | undefined }));
  const wakeOne = (st: (typeof states)[number]) => {
    st.generation++;
    st.sleeper?.();
  };
  const wake = () => states.forEach(wakeOne);
  sources.forEach((source, i) => source.attach?.(() => wakeOne(states[i])));
  const unlisten = await db.listen(workChannel, wake);

  // A database outage is logged once (a warning, no stack) when the first source meets it, and
  // its end once every source that met it has run cleanly again (a source that did not need the
  // database this round says nothing either way); each source then sleeps its poll interval
  // between tries, as when idle.
  const failing = new Set<string>();
  const loop = async (source: WorkSource, st: (typeof states)[number]) => {
    while (!stopping) {
      const seen = st.generation;
      let did = 0;
      try {
        did = await source.runOnce();
        if (failing.delete(source.name) && failing.size === 0) log.info('worker: database reachable again');
      } catch (err) {
        if (!isConnectionError(err)) log.error({ err, source: source.name }, 'worker source failed');
        else {
          if (failing.size === 0) {
            log.warn({ source: source.name, cause: { code: (err as { code?: unknown }).code, message: (err as Error).message } }, 'worker: database unavailable; retrying');
          }
          failing.add(source.name);
        }
        if (st.generation !== seen) await new Promise((resolve) => setTimeout(resolve, pollMs));
      }
      if (did > 0 || st.generation !== seen) continue;
      await new Promise<void>((resolve) => {
        const done = () => { clearTimeout(timer); st.sleeper = undefined; resolve(); };
        const timer = setTimeout(done, pollMs);
        st.sleeper = done;
      });
    }
  };
  const running = sources.map((source, i) => loop(source, states[i]));

  return {
    wake,
    async stop() {
      stopping = true;
      wake();
      await Promise.all(sources.map((s) => s.stop?.()));
      await Promise.all(running);
      await unlisten();
    },
  };
}
