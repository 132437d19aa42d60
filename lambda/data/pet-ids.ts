import { randomInt } from 'node:crypto';

/**
 * Time-ordered pet ids without a counter item (one hot item would serialise every create): ms since ID_EPOCH_MS,
 * then random low bits; the conditional put retries a collision. Below 2^53 until 2094.
 */
export const ID_EPOCH_MS = Date.UTC(2025, 0, 1);
export const ID_RANDOM_BITS = 12;
const RANDOM_SPAN = 2 ** ID_RANDOM_BITS;

export function newPetId(nowMs: number = Date.now(), random: number = randomInt(RANDOM_SPAN)): number {
  const id = (nowMs - ID_EPOCH_MS) * RANDOM_SPAN + random;
  if (!Number.isSafeInteger(id) || id < 1) throw new Error(`clock outside the pet id range: ${nowMs}`);
  return id;
}
