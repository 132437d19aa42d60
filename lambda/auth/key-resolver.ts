import type { AuthorizerContext } from '#contract/caller';
import { hashApiKey, isWellFormedApiKey } from './api-keys';
import type { ApiKeyRecord } from './key-record';
import { TtlCache } from './ttl-cache';

export interface KeyResolverOptions {
  /** How long a lookup's answer is reused: a revoked key stops working within this time. */
  readonly ttlMs: number;
  /** Entries for keys the table knows (active or revoked). */
  readonly knownMax: number;
  /** Entries for well-formed keys the table does not know. */
  readonly unknownMax: number;
  readonly now?: () => number;
}

/**
 * Who a presented API key belongs to, at most one table read per key and TTL. Known and unknown keys are cached
 * apart, so a flood of made-up keys can never evict a real caller's entry.
 */
export class KeyResolver {
  readonly #known: TtlCache<AuthorizerContext>;
  readonly #unknown: TtlCache<AuthorizerContext>;

  constructor(
    private readonly lookup: (keyHash: string) => Promise<ApiKeyRecord | undefined>,
    { ttlMs, knownMax, unknownMax, now = Date.now }: KeyResolverOptions,
  ) {
    this.#known = new TtlCache(ttlMs, knownMax, now);
    this.#unknown = new TtlCache(ttlMs, unknownMax, now);
  }

  async resolve(key: string): Promise<AuthorizerContext> {
    if (!isWellFormedApiKey(key)) return { authenticated: false, reason: 'unknown_key' };
    const keyHash = hashApiKey(key);
    const cached = this.#known.get(keyHash) ?? this.#unknown.get(keyHash);
    if (cached) return cached;
    const record = await this.lookup(keyHash);
    if (!record) {
      const unknown: AuthorizerContext = { authenticated: false, reason: 'unknown_key' };
      this.#unknown.set(keyHash, unknown);
      return unknown;
    }
    const known: AuthorizerContext = record.revokedAt
      ? { authenticated: false, reason: 'revoked' }
      : { authenticated: true, accountId: record.accountId, keyId: record.keyId };
    this.#known.set(keyHash, known);
    return known;
  }
}
