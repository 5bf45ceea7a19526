import type { FastifyBaseLogger } from 'fastify';
import type { Queryable } from '../db/client.ts';
import { touchKeys } from './repository.ts';

/**
 * A key's "last used" time without a database write per request (issue 12): each use is noted in
 * memory (a Map.set on the request path), and a timer writes the noted uses in one statement,
 * each key at most once per `granularityMs` (a minute) per process. So `lastUsedAt` is accurate
 * to about a minute, the first use of a key shows within one flush tick, and a busy key costs one
 * row update a minute per API process however many requests it makes.
 */
export class LastUsedRecorder {
  /** Uses noted and not yet written, by key id (the latest use wins). */
  private readonly pending = new Map<string, { brandId: string; id: string; at: Date }>();
  /** When this process last wrote each key. */
  private readonly writtenAt = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> | undefined;

  private readonly db: Queryable;
  private readonly options: { granularityMs?: number; tickMs?: number; log?: FastifyBaseLogger };

  constructor(db: Queryable, options: { granularityMs?: number; tickMs?: number; log?: FastifyBaseLogger } = {}) {
    this.db = db;
    this.options = options;
    this.timer = setInterval(() => void this.flush(), options.tickMs ?? 2000);
    this.timer.unref();
  }

  private get granularityMs() { return this.options.granularityMs ?? 60_000; }

  used(brandId: string, id: string): void {
    this.pending.set(id, { brandId, id, at: new Date() });
  }

  /** Writes every noted use whose key was not written within the last minute. */
  flush(): Promise<void> {
    this.flushing ??= this.write().finally(() => { this.flushing = undefined; });
    return this.flushing;
  }

  private async write() {
    const now = Date.now();
    const due = [...this.pending.values()].filter((u) => now - (this.writtenAt.get(u.id) ?? -Infinity) >= this.granularityMs);
    for (const [id, at] of this.writtenAt) if (now - at >= this.granularityMs) this.writtenAt.delete(id);
    if (!due.length) return;
    for (const u of due) {
      this.pending.delete(u.id);
      this.writtenAt.set(u.id, now);
    }
    try {
      await touchKeys(this.db, due);
    } catch (err) {
      // Only a display value is lost (the database is down or closing); the next use notes it again.
      this.options.log?.warn({ err: (err as Error).message }, 'could not record API keys\' last use');
    }
  }

  /** Stops the timer and writes what is left (the process is stopping). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
