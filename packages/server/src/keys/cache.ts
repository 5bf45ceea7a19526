import type { Principal } from '../auth/principal.ts';

/**
 * Verified keys, remembered for a short time so the hot path costs no database round trip.
 *
 * Revocation: the process that revokes a key forgets it at once (`forget`); every other process
 * stops trusting its copy after `ttlMs` (at most 1 s, see config), when it asks the database again.
 * Unknown keys are never remembered, so a freshly created key works on its first request.
 * A rolled key is remembered no later than its `expires_at`, so it is refused from that instant.
 */
export class KeyCache {
  private readonly entries = new Map<string, { principal: Principal; expiresAt: number }>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;

  constructor(ttlMs: number, maxEntries = 10_000) {
    this.ttlMs = ttlMs;
    this.maxEntries = maxEntries;
  }

  get(keyHash: string): Principal | undefined {
    const entry = this.entries.get(keyHash);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      this.entries.delete(keyHash);
      return undefined;
    }
    return entry.principal;
  }

  set(keyHash: string, principal: Principal, notAfter?: Date | null): void {
    if (this.ttlMs <= 0) return;
    const expiresAt = Math.min(Date.now() + this.ttlMs, notAfter ? notAfter.getTime() : Infinity);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(keyHash, { principal, expiresAt });
  }

  forget(keyHash: string): void {
    this.entries.delete(keyHash);
  }
}
