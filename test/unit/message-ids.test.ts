import { decodeTime, isValid } from 'ulid';
import { newMessageId } from '#data/message-ids';

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

  test('never repeat', () => {
    const ids = Array.from({ length: MANY }, newMessageId);
    expect(new Set(ids).size).toBe(MANY);
  });
});
