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

  test('reading an entry never extends its time-to-live', () => {
    let now = 0;
    const cache = new TtlCache<string>(60_000, 10, () => now);
    cache.set('k', 'v');
    for (now = 0; now < 60_000; now += 5_000) expect(cache.get('k')).toBe('v');
    now = 60_000;
    expect(cache.get('k')).toBeUndefined();
  });

  test('holds at most its maximum number of entries, dropping the least recently used', () => {
    const cache = new TtlCache<number>(60_000, 3, () => 0);
    for (const [index, key] of ['a', 'b', 'c', 'd'].entries()) cache.set(key, index);
    expect(['a', 'b', 'c', 'd'].map((key) => cache.get(key))).toEqual([undefined, 1, 2, 3]);
  });

  test('an entry read since keeps its place: the least recently read goes, not the first written', () => {
    const cache = new TtlCache<number>(60_000, 3, () => 0);
    cache.set('a', 0);
    cache.set('b', 1);
    cache.set('c', 2);
    expect(cache.get('a')).toBe(0);
    cache.set('d', 3);
    expect(cache.get('b')).toBeUndefined();
    expect(['a', 'c', 'd'].map((key) => cache.get(key))).toEqual([0, 2, 3]);
  });

  test('an expired entry frees its place instead of pushing out a live one', () => {
    let now = 0;
    const cache = new TtlCache<number>(60_000, 2, () => now);
    cache.set('old', 0);
    now = 30_000;
    cache.set('live', 1);
    now = 60_000;
    expect(cache.get('old')).toBeUndefined();
    cache.set('new', 2);
    expect([cache.get('live'), cache.get('new')]).toEqual([1, 2]);
  });
});
