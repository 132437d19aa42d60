import { ID_EPOCH_MS, ID_RANDOM_BITS, newPetId } from '#data/pet-ids';

describe('pet ids', () => {
  test('are positive safe integers that grow with time', () => {
    const early = newPetId(ID_EPOCH_MS + 1_000, 4095);
    const later = newPetId(ID_EPOCH_MS + 1_001, 0);
    expect(early).toBeGreaterThan(0);
    expect(later).toBeGreaterThan(early);
  });

  test('stay below 2^53 until 2094', () => {
    const lastMillisecond = ID_EPOCH_MS + 2 ** (53 - ID_RANDOM_BITS) - 1;
    expect(new Date(lastMillisecond).getUTCFullYear()).toBe(2094);
    expect(Number.isSafeInteger(newPetId(lastMillisecond, 2 ** ID_RANDOM_BITS - 1))).toBe(true);
    expect(() => newPetId(lastMillisecond + 1, 2 ** ID_RANDOM_BITS - 1)).toThrow(/outside the pet id range/);
  });

  test('differ within one millisecond through their random low bits', () => {
    const now = Date.now();
    const ids = new Set(Array.from({ length: 200 }, () => newPetId(now)));
    expect(ids.size).toBeGreaterThan(180); // 200 draws from 4096 values: a few collisions at most
  });
});
