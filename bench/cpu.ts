/**
 * CPU time of the processes a benchmark measures, read from /proc (Linux): a worker process's own,
 * and the PostgreSQL backends serving one application_name. Per unit of work (a delivery, an
 * imported record) it is what the work costs whatever else shares the machine, unlike a rate.
 */
import { readFileSync } from 'node:fs';
import type { Db } from '../packages/server/src/db/client.ts';

/** CPU time (ms) a process on this machine has used so far: utime + stime from /proc/<pid>/stat, in USER_HZ (100) ticks. */
export function processCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * CPU time (ms) of the database backends whose application_name is `appName` from now until
 * stop(), sampled every 100 ms from /proc/<pid>/stat (utime + stime) while it runs: a backend that
 * closes keeps its last sample, and one that opened later counts whole. A backend already open
 * counts whole too with `whole` (the webhook bench starts sampling just after its worker
 * processes, whose backends are all born in the phase), else from the first sample (the import
 * bench's pool is open and idle before its run). NaN when the backends' /proc entries cannot be
 * read (a database on another machine).
 */
export function databaseCpu(admin: Db, appName: string, whole = false) {
  const used = new Map<number, number>();
  const before = new Map<number, number>();
  let first = true;
  let readable = true;
  const sample = async () => {
    const rows = await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [appName]);
    const firstSample = first;
    first = false;
    for (const { pid } of rows) {
      try {
        const ms = processCpuMs(pid);
        if (firstSample && !whole) before.set(pid, ms);
        used.set(pid, ms - (before.get(pid) ?? 0));
      } catch (err) {
        // A backend that closed between the two reads keeps its last sample.
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') readable = false;
      }
    }
  };
  let timer: NodeJS.Timeout | undefined;
  let sampling = Promise.resolve();
  const loop = () => { timer = setTimeout(() => { sampling = sample().catch(() => {}).then(loop); }, 100); };
  const started = sample().then(loop);
  return {
    async stop(): Promise<number> {
      await started;
      clearTimeout(timer);
      await sampling;
      await sample().catch(() => {});
      clearTimeout(timer);
      if (!readable || !used.size) return NaN;
      return [...used.values()].reduce((a, b) => a + b, 0);
    },
  };
}

