import { TtlCache } from '#auth/ttl-cache';

describe('the authorizer lookup cache', () => {
  test('forgets an entry once its time-to-live has passed', () => {
    let now = 0;
    const cache = new TtlCache<string>(60_000, 10, () => now);
    cache.set('k', 'v');
    now = 59_999;
    expect(cache.get('k')).toBe('v');
    now = 60_000;
    expect(cache.get('k')).toBeUndefined();
  });

  test('holds at most its maximum number of entries, dropping the oldest', () => {
    const cache = new TtlCache<number>(60_000, 3, () => 0);
    for (const [index, key] of ['a', 'b', 'c', 'd'].entries()) cache.set(key, index);
    expect(['a', 'b', 'c', 'd'].map((key) => cache.get(key))).toEqual([undefined, 1, 2, 3]);
  });
});
