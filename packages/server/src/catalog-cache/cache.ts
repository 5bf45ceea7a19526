import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { catalogChangesIn, catalogChannel, catalogVersion } from './version.ts';

export interface CatalogCacheSettings {
  /** Memory the cached answers may take, in bytes; 0 turns the cache off. */
  maxBytes: number;
  /** How often, at most, a brand's catalog version is compared with the database's (the safety net). */
  checkMs: number;
}

/** One brand's cached answers, all read from the catalog as it was at one version. */
interface BrandEntries {
  /** Bumped on every drop: a read started before it must not store what it read. */
  generation: number;
  /** The brand's catalog version at the last check (undefined before the first). */
  version?: number;
  checkedAt: number;
  checking?: Promise<void>;
  answers: Map<string, Answer>;
  bytes: number;
}

/**
 * A cached answer: the response's bytes (what the API caches, so a hit is written to the socket
 * without encoding it again) or a string.
 */
export type Answer = string | Buffer;

// A JavaScript string takes two bytes a character; the key and the map's own overhead are
// counted roughly too, so the bound holds for many small answers as well as for a few large ones.
const sizeOf = (key: string, value: Answer) =>
  2 * key.length + (typeof value === 'string' ? 2 * value.length : value.byteLength) + 64;
/** What a brand's entry takes with no answers, so that many brands read once stay bounded too. */
const brandOverhead = 256;

/**
 * The catalog (products, their tiers, items and checkout fields, hubs and their tiers), as the
 * API answers it, remembered per brand by this process: storefronts read it far more often than
 * it changes. Never anything mode-scoped (memberships, transactions, deliveries): those are read
 * from the database every time. docs/catalog.md states the staleness bounds:
 *
 * - a write made by this process is dropped from the cache when its transaction commits
 *   (Db.onCommit with catalog-cache/version.ts), so the writer's next request reads it;
 * - every catalog write NOTIFYs the brand id on `catalog_changed`, and every process drops the
 *   brand on the notification (and everything when its listening connection comes back, since
 *   notifications sent meanwhile are lost);
 * - as a safety net against a notification lost some other way, a brand's version is compared
 *   with catalog_versions before serving from the cache when the last comparison is older than
 *   `checkMs`.
 *
 * A read that started before a drop never stores its answer (the brand's generation moved on), so
 * a slow read of the old catalog cannot refill the cache after the write. Memory is bounded by
 * `maxBytes`, evicting the least recently used brand whole.
 */
export class CatalogCache {
  private readonly brands = new Map<string, BrandEntries>();
  private readonly inFlight = new Map<string, Promise<Answer>>();
  private bytes = 0;
  private stopListening?: () => Promise<void>;
  private stopCommits?: () => void;
  private readonly db: Db;
  private readonly settings: CatalogCacheSettings;
  private readonly log?: Logger;
  private readonly now: () => number;

  constructor(db: Db, settings: CatalogCacheSettings, log?: Logger, now: () => number = () => performance.now()) {
    this.db = db;
    this.settings = settings;
    this.log = log;
    this.now = now;
    if (this.enabled) {
      this.stopCommits = db.onCommit((tx) => {
        for (const brandId of catalogChangesIn(tx)) this.drop(brandId);
      });
    }
  }

  get enabled(): boolean {
    return this.settings.maxBytes > 0;
  }

  /** Memory the cached answers take now, in bytes (as counted for the bound). */
  get usedBytes(): number {
    return this.bytes;
  }

  /** The brands that have answers cached, least recently used first. */
  cachedBrands(): string[] {
    return [...this.brands].filter(([, b]) => b.answers.size > 0).map(([id]) => id);
  }

  /**
   * LISTENs for other processes' catalog writes. Until it is called (or when it fails) the cache
   * still heals within checkMs; the composition root calls it before serving.
   */
  async start(): Promise<void> {
    if (!this.enabled || this.stopListening) return;
    this.stopListening = await this.db.listen(catalogChannel, (brandId) => {
      // An empty payload is the listener coming back after a lost connection: anything may have changed.
      if (brandId) this.drop(brandId);
      else this.clear();
    });
  }

  async stop(): Promise<void> {
    this.stopCommits?.();
    this.stopCommits = undefined;
    const stop = this.stopListening;
    this.stopListening = undefined;
    await stop?.();
    this.clear();
  }

  /**
   * The answer cached under key for the brand, or load()'s, which is cached when the brand's
   * catalog did not change while it ran. Errors are not cached. Identical concurrent misses share
   * one load.
   */
  async read<A extends Answer>(brandId: string, key: string, load: () => Promise<A>): Promise<A> {
    if (!this.enabled) return load();
    let brand = this.touch(brandId);
    if (this.now() - brand.checkedAt >= this.settings.checkMs) {
      await this.check(brandId, brand);
      brand = this.touch(brandId);
    }
    // One key is only ever loaded by one route, so what it holds is what that route's load() gives.
    const hit = brand.answers.get(key) as A | undefined;
    if (hit !== undefined) return hit;

    const generation = brand.generation;
    const flightKey = `${brandId}\u0000${generation}\u0000${key}`;
    const pending = this.inFlight.get(flightKey) as Promise<A> | undefined;
    if (pending) return pending;
    const loading = load();
    this.inFlight.set(flightKey, loading);
    try {
      const answer = await loading;
      this.store(brandId, brand, generation, key, answer);
      return answer;
    } finally {
      this.inFlight.delete(flightKey);
    }
  }

  /** Forgets the brand's answers; reads in flight for it will not store theirs. */
  drop(brandId: string): void {
    const brand = this.brands.get(brandId);
    if (!brand) return;
    brand.generation += 1;
    this.bytes -= brand.bytes - brandOverhead;
    brand.bytes = brandOverhead;
    brand.answers.clear();
  }

  /** Forgets every brand's answers and versions (the next read of each checks its version first). */
  clear(): void {
    for (const brand of this.brands.values()) {
      brand.generation += 1;
      brand.answers.clear();
      brand.bytes = brandOverhead;
      brand.checkedAt = -Infinity;
    }
    this.bytes = brandOverhead * this.brands.size;
  }

  /** The brand's entry, made the most recently used. */
  private touch(brandId: string): BrandEntries {
    let brand = this.brands.get(brandId);
    if (brand) {
      this.brands.delete(brandId);
    } else {
      brand = { generation: 0, checkedAt: -Infinity, answers: new Map(), bytes: brandOverhead };
      this.bytes += brandOverhead;
    }
    this.brands.set(brandId, brand);
    this.evict(brand);
    return brand;
  }

  /** Compares the brand's version with the database's (one check at a time per brand). */
  private check(brandId: string, brand: BrandEntries): Promise<void> {
    brand.checking ??= (async () => {
      const startedAt = this.now();
      try {
        const version = await catalogVersion(this.db, brandId);
        if (brand.version !== undefined && version !== brand.version) {
          this.log?.debug({ brandId, cached: brand.version, version }, 'catalog cache: version moved without a notification');
          this.drop(brandId);
        }
        brand.version = version;
        brand.checkedAt = startedAt;
      } finally {
        brand.checking = undefined;
      }
    })();
    return brand.checking;
  }

  private store(brandId: string, brand: BrandEntries, generation: number, key: string, answer: Answer): void {
    // The brand changed (or was evicted) while this was read: the answer may be older than the change.
    // Nor is anything stored that no version check vouches for (an entry evicted and made again mid-read).
    if (brand.generation !== generation || this.brands.get(brandId) !== brand || brand.version === undefined) return;
    const size = sizeOf(key, answer);
    if (size > this.settings.maxBytes) return;
    const previous = brand.answers.get(key);
    if (previous !== undefined) {
      const old = sizeOf(key, previous);
      brand.bytes -= old;
      this.bytes -= old;
    }
    brand.answers.set(key, answer);
    brand.bytes += size;
    this.bytes += size;
    this.evict(brand, key);
  }

  /** Back under the bound: whole brands go, least recently used first, then keep's oldest answers but keepKey. */
  private evict(keep: BrandEntries, keepKey?: string): void {
    for (const [id, other] of this.brands) {
      if (this.bytes <= this.settings.maxBytes) return;
      if (other === keep) continue;
      this.bytes -= other.bytes;
      other.generation += 1;
      this.brands.delete(id);
    }
    // Alone over the bound (many pages of one brand): its oldest answers go.
    for (const [k, v] of keep.answers) {
      if (this.bytes <= this.settings.maxBytes) return;
      if (k === keepKey) continue;
      const s = sizeOf(k, v);
      keep.answers.delete(k);
      keep.bytes -= s;
      this.bytes -= s;
    }
  }
}

/** The cache the settings ask for (CATALOG_CACHE_MB, CATALOG_CACHE_CHECK_MS); the app starts and stops it. */
export function catalogCacheFromConfig(db: Db, config: Pick<Config, 'catalogCacheMb' | 'catalogCacheCheckMs'>, log?: Logger): CatalogCache {
  return new CatalogCache(db, { maxBytes: config.catalogCacheMb * 1024 * 1024, checkMs: config.catalogCacheCheckMs }, log);
}
