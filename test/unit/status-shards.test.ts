import { newPetId } from '#data/pet-ids';
import { statusShards } from '#data/status-shards';
import { readStageOptions } from '#shared/stage-options';
import { CREATE_PET_ROUTE_KEY, routeThrottle, throttlingOf } from '#shared/stage-throttling';
import { STAGES } from '#shared/stages';
import { checkedLayout, STATUS_SHARD_HISTORY, statusShardLayout, statusShardsFor } from '#shared/status-shards';

const createRateOf = (stage: (typeof STAGES)[number]) =>
  routeThrottle(throttlingOf(readStageOptions(stage).options).pets, CREATE_PET_ROUTE_KEY).rateLimit;

describe('how many status shards a stage gets', () => {
  test('one per 500 creates/s of its createPet throttle: prod (1,000/s) 2, staging and dev 1', () => {
    expect([1, 500, 501, 1_000, 1_500, 10_000].map(statusShardsFor)).toEqual([1, 1, 2, 2, 3, 20]);
    expect(Object.fromEntries(STAGES.map((stage) => [stage, statusShardLayout(stage, createRateOf(stage)).at(-1)?.shards]))).toEqual({
      dev: 1,
      staging: 1,
      prod: 2,
    });
  });

  test('a createPet rate its newest generation does not fit is refused, naming the generation to append', () => {
    expect(() => statusShardLayout('prod', 3_000, new Date('2026-11-28T23:00:00Z'))).toThrow(
      "createPet at 3000 creates/s needs 6 status shards (one per 500/s); prod writes 2: append { from: '2026-11-30T00:00:00.000Z', shards: 6 }",
    );
    expect(() => statusShardLayout('prod', 100)).toThrow(/needs 1 status shard .*prod writes 2/);
  });

  test.each([
    [[]],
    [[{ shards: 0 }]],
    [[{ from: '2026-01-01T00:00:00Z', shards: 2 }]],
    [[{ shards: 2 }, { shards: 3 }]],
    [[{ shards: 2 }, { from: '2026-02-01T00:00:00Z', shards: 3 }, { from: '2026-01-01T00:00:00Z', shards: 4 }]],
    [[{ shards: 2 }, { from: 'soon', shards: 3 }]],
    [[{ shards: 2.5 }]],
    [[{ shards: 2, until: 'never' }]],
  ])('a layout a function could not key pets by is refused: %j', (layout) => {
    expect(() => checkedLayout(layout)).toThrow(/status shard layout/);
  });

  test('the committed layouts are valid', () => {
    for (const layout of Object.values(STATUS_SHARD_HISTORY)) expect(checkedLayout(layout)).toBe(layout);
  });
});

describe('the keys of a layout with generations', () => {
  const change = '2026-12-01T00:00:00.000Z';
  const firstNewId = newPetId(Date.parse(change), 0);
  const shrink = statusShards([{ shards: 6 }, { from: change, shards: 2 }]);
  const grow = statusShards([{ shards: 2 }, { from: change, shards: 6 }]);

  test('a pet keeps the key of the generation its id falls in', () => {
    expect(shrink.keyOf('sold', firstNewId - 1)).toBe(`sold#${(firstNewId - 1) % 6}`);
    expect(shrink.keyOf('sold', firstNewId + 3)).toBe(`sold#${(firstNewId + 3) % 2}`);
    expect(grow.keyOf('sold', firstNewId + 3)).toBe(`sold#${(firstNewId + 3) % 6}`);
  });

  test('a page reads the keys of every generation that can still hold a later id, and only the newest once past the change', () => {
    const keys = (count: number) => Array.from({ length: count }, (_, shard) => `sold#${shard}`);
    expect(shrink.keysAfter('sold')).toEqual(keys(6));
    expect(shrink.keysAfter('sold', firstNewId - 2)).toEqual(keys(6));
    expect(shrink.keysAfter('sold', firstNewId - 1)).toEqual(keys(2));
    expect(grow.keysAfter('sold')).toEqual(keys(6));
    expect(grow.keysAfter('sold', firstNewId + 10)).toEqual(keys(6));
  });
});
