import { randomFillSync } from 'node:crypto';
import { ulid } from 'ulid';

/**
 * Message ids are ULIDs: sortable by creation time, 80 random bits per millisecond, no coordination
 * needed. ulid's own random source makes one `crypto.getRandomValues` call for each of the 16 random
 * characters; this one takes the same bytes from the same CSPRNG 4 KiB at a time and maps them the
 * same way (byte / 256), so a ULID costs one array read per character (`npm run bench`, part 2, submitMessage).
 */
const pool = new Uint8Array(4096);
let next = pool.length;

function pooledRandom(): number {
  if (next === pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  return (pool[next++] as number) / 256;
}

export const newMessageId = (): string => ulid(undefined, pooledRandom);
