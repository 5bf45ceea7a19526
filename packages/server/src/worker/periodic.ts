import type { WorkSource } from './loop.ts';

/**
 * Work a worker process does on a clock rather than from a queue (purges, retention): `run` once
 * per `everyMs`, the first time `everyMs` after start, so short-lived processes and tests never
 * run it. Several processes each run it; the work must be harmless to repeat. Never reports
 * work done, so the loop sleeps between polls as when idle.
 */
export function periodic(name: string, everyMs: number, run: () => Promise<void>): WorkSource {
  let lastRun = Date.now();
  return {
    name,
    async runOnce() {
      if (Date.now() - lastRun < everyMs) return 0;
      lastRun = Date.now();
      await run();
      return 0;
    },
  };
}
