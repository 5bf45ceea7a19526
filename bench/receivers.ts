/**
 * The benches' webhook receivers: forks bench/webhook-receivers.ts (`count` local HTTP servers
 * answering 200, in their own process so receiving does not share the bench's event loop) and
 * gathers what they report: the first receipt time of each event id, duplicates and connections.
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

export interface Receivers {
  urls: string[];
  /** Receipt time per event id (first receipt), this phase. */
  receivedAt: Map<string, number>;
  duplicates: number;
  /** Connections the senders opened to the receivers, this phase. */
  connections: number;
  /** Forgets this phase's receipts (in the child too). */
  reset(): Promise<void>;
  waitFor(n: number, limitMs: number): Promise<boolean>;
  close(): Promise<void>;
}

export async function startReceivers(count: number): Promise<Receivers> {
  const child = fork(fileURLToPath(new URL('./webhook-receivers.ts', import.meta.url)), [String(count)]);
  const receivedAt = new Map<string, number>();
  let duplicates = 0;
  let connections = 0;
  let wake = () => {};
  let resetDone = () => {};
  const urls = await new Promise<string[]>((resolve, reject) => {
    child.once('error', reject);
    child.on('message', (m: { urls?: string[]; received?: [string, number][]; duplicates?: number; connections?: number; resetDone?: boolean }) => {
      if (m.urls) resolve(m.urls);
      if (m.resetDone) resetDone();
      if (m.received) {
        for (const [id, at] of m.received) receivedAt.set(id, at);
        duplicates = m.duplicates ?? duplicates;
        connections = m.connections ?? connections;
        wake();
      }
    });
  });
  return {
    urls,
    receivedAt,
    get duplicates() { return duplicates; },
    get connections() { return connections; },
    async reset() {
      const done = new Promise<void>((resolve) => { resetDone = resolve; });
      child.send({ reset: true });
      await done;
      receivedAt.clear();
      duplicates = 0;
      connections = 0;
    },
    waitFor(n, limitMs) {
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(false), limitMs);
        wake = () => { if (receivedAt.size >= n) { clearTimeout(timer); resolve(true); } };
        wake();
      });
    },
    async close() {
      child.disconnect();
      if (child.exitCode === null) await once(child, 'exit');
    },
  };
}
