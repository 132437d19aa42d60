/**
 * The authorizer's time- and size-bounded cache, least recently used out first (a hit moves its entry to the back of
 * the Map). A hit never extends the entry's life: a lookup's answer is reused for at most `ttlMs`.
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
