import { decodeTime, isValid } from 'ulid';
import { newMessageId } from '../../lambda/shared/message-ids';

/** Enough ids to draw the random pool (4 KiB, 16 bytes an id) empty and refill it several times. */
const MANY = 5_000;

describe('message ids', () => {
  test('are ULIDs carrying the time they were made', () => {
    const before = Date.now();
    const id = newMessageId();
    const after = Date.now();
    expect(isValid(id)).toBe(true);
    expect(decodeTime(id)).toBeGreaterThanOrEqual(before);
    expect(decodeTime(id)).toBeLessThanOrEqual(after);
  });

  test('never repeat, across refills of the random pool', () => {
    const ids = Array.from({ length: MANY }, newMessageId);
    expect(new Set(ids).size).toBe(MANY);
  });

  test('use every character of the alphabet in every random position', () => {
    const ids = Array.from({ length: MANY }, newMessageId);
    // Characters 10..25 are the 80 random bits; 5,000 draws leave a uniform choice of 32 no gap.
    for (let position = 10; position < 26; position++) {
      expect(new Set(ids.map((id) => id[position])).size).toBe(32);
    }
  });
});
