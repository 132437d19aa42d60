/**
 * A small time-bounded, size-bounded cache for the authorizer's key lookups, least recently used out
 * first: a key in steady use keeps its entry however many others pass through, so a full cache costs
 * reads for the keys seen once rather than for the busiest callers. Hand-written because it is a dozen
 * lines and a dependency would only add cold-start weight. Map order is insertion order, so a hit
 * re-inserts its entry at the back and the first key is the least recently used.
 *
 * A hit never extends an entry's time-to-live: what a lookup answered (a key revoked since, say)
 * is reused for at most `ttlMs` after the lookup, however often it is read.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expiresAt <= this.now()) return undefined;
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const leastRecentlyUsed = this.entries.keys().next();
      if (!leastRecentlyUsed.done) this.entries.delete(leastRecentlyUsed.value);
    }
    this.entries.set(key, { value, expiresAt: this.now() + this.ttlMs });
  }
}
