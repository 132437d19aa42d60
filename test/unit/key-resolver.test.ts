import { generateApiKey, hashApiKey } from '#auth/api-keys';
import { KeyResolver } from '#auth/key-resolver';
import type { ApiKeyRecord } from '#auth/key-record';

const TTL_MS = 60_000;

/** A key table in memory standing in for DynamoDB's answers, counting the reads the resolver makes. */
function keyTable() {
  const records = new Map<string, ApiKeyRecord>();
  const reads: string[] = [];
  return {
    reads,
    add(key: string, extra: Partial<ApiKeyRecord> = {}): void {
      const keyHash = hashApiKey(key);
      records.set(keyHash, { keyHash, keyId: `key_${records.size}`, accountId: 'acct_1', createdAt: '2026-01-01T00:00:00.000Z', ...extra });
    },
    revoke(key: string): void {
      const record = records.get(hashApiKey(key));
      if (record) records.set(record.keyHash, { ...record, revokedAt: '2026-01-02T00:00:00.000Z' });
    },
    lookup: (keyHash: string): Promise<ApiKeyRecord | undefined> => {
      reads.push(keyHash);
      return Promise.resolve(records.get(keyHash));
    },
  };
}

function setup(options: { knownMax?: number; unknownMax?: number } = {}) {
  let now = 0;
  const table = keyTable();
  const resolver = new KeyResolver(table.lookup, {
    ttlMs: TTL_MS,
    knownMax: options.knownMax ?? 1_000,
    unknownMax: options.unknownMax ?? 10_000,
    now: () => now,
  });
  return { table, resolver, at: (ms: number) => (now = ms) };
}

describe('the authorizer resolving keys', () => {
  test('a key that fails its checksum is refused without a read', async () => {
    const { table, resolver } = setup();
    const key = generateApiKey();
    table.add(key);
    const mistyped = `${key.slice(0, 10)}${key[10] === 'x' ? 'y' : 'x'}${key.slice(11)}`;
    expect(await resolver.resolve(mistyped)).toEqual({ authenticated: false, reason: 'unknown_key' });
    expect(table.reads).toEqual([]);
  });

  test('a known key is read once per time-to-live, an unknown well-formed key too', async () => {
    const { table, resolver, at } = setup();
    const known = generateApiKey();
    const unknown = generateApiKey();
    table.add(known);
    for (const time of [0, 1_000, TTL_MS - 1]) {
      at(time);
      expect(await resolver.resolve(known)).toMatchObject({ authenticated: true });
      expect(await resolver.resolve(unknown)).toEqual({ authenticated: false, reason: 'unknown_key' });
    }
    expect(table.reads).toHaveLength(2);
    at(TTL_MS);
    await resolver.resolve(known);
    expect(table.reads).toHaveLength(3);
  });

  test('10,000 distinct unknown keys evict no known key and leave its revocation window as it was', async () => {
    const { table, resolver, at } = setup();
    const known = generateApiKey();
    table.add(known);
    at(0);
    expect(await resolver.resolve(known)).toMatchObject({ authenticated: true, keyId: 'key_0' });
    table.revoke(known);

    at(1_000);
    for (let index = 0; index < 10_000; index++) await resolver.resolve(generateApiKey());
    expect(table.reads).toHaveLength(10_001);

    // Still the cached answer, with no read: the flood evicted nothing…
    at(TTL_MS - 1);
    expect(await resolver.resolve(known)).toMatchObject({ authenticated: true });
    expect(table.reads).toHaveLength(10_001);
    // …and the revocation shows exactly when the entry's time-to-live ends, as without the flood.
    at(TTL_MS);
    expect(await resolver.resolve(known)).toEqual({ authenticated: false, reason: 'revoked' });
  });

  test('memory is bounded for both kinds: the least recently used entry of each kind goes first', async () => {
    const { table, resolver } = setup({ knownMax: 2, unknownMax: 3 });
    const known = [generateApiKey(), generateApiKey(), generateApiKey()];
    for (const key of known) table.add(key);
    for (const key of known) await resolver.resolve(key);
    const unknown = Array.from({ length: 4 }, generateApiKey);
    for (const key of unknown) await resolver.resolve(key);
    table.reads.length = 0;
    // known[0] was dropped for known[2]; unknown[0] for unknown[3]. The newest are asked first, so
    // that a re-read of a dropped entry cannot itself push out one still to be checked.
    const [k0, k1, k2] = known as [string, string, string];
    const [u0, u1, u2, u3] = unknown as [string, string, string, string];
    for (const key of [k2, k1, u3, u2, u1, k0, u0]) await resolver.resolve(key);
    expect(table.reads).toEqual([hashApiKey(k0), hashApiKey(u0)]);
  });

  test('a key in steady use keeps its entry while keys seen once pass through', async () => {
    const { table, resolver, at } = setup({ knownMax: 2 });
    const busy = generateApiKey();
    const once = Array.from({ length: 5 }, generateApiKey);
    for (const key of [busy, ...once]) table.add(key);
    at(0);
    for (const key of once) {
      await resolver.resolve(busy);
      await resolver.resolve(key);
    }
    // One read for the busy key, however many others came and went; with eviction in arrival order
    // it was pushed out by every second new key and read again.
    expect(table.reads.filter((hash) => hash === hashApiKey(busy))).toHaveLength(1);
    expect(table.reads).toHaveLength(1 + once.length);
  });

  test('a revoked key stops working when its time-to-live ends, however often it was used meanwhile', async () => {
    const { table, resolver, at } = setup({ knownMax: 2 });
    const busy = generateApiKey();
    table.add(busy);
    at(0);
    expect(await resolver.resolve(busy)).toMatchObject({ authenticated: true });
    table.revoke(busy);
    for (let time = 1_000; time < TTL_MS; time += 1_000) {
      at(time);
      expect(await resolver.resolve(busy)).toMatchObject({ authenticated: true });
    }
    at(TTL_MS);
    expect(await resolver.resolve(busy)).toEqual({ authenticated: false, reason: 'revoked' });
  });
});
