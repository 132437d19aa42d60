import { randomInt } from 'node:crypto';

/**
 * Pet ids are time-ordered and need no counter item (a counter would serialise every create on one
 * hot DynamoDB item): milliseconds since ID_EPOCH_MS, times 2^RANDOM_BITS, plus random low bits.
 * Uniqueness is enforced by the conditional put (`attribute_not_exists(id)`), which retries with a
 * fresh id on the rare collision. 41 bits of time last until 2094 below 2^53 (safe in JSON clients).
 */
export const ID_EPOCH_MS = Date.UTC(2025, 0, 1);
export const ID_RANDOM_BITS = 12;
const RANDOM_SPAN = 2 ** ID_RANDOM_BITS;

export function newPetId(nowMs: number = Date.now(), random: number = randomInt(RANDOM_SPAN)): number {
  const id = (nowMs - ID_EPOCH_MS) * RANDOM_SPAN + random;
  if (!Number.isSafeInteger(id) || id < 1) throw new Error(`clock outside the pet id range: ${nowMs}`);
  return id;
}
