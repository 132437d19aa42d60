/**
 * Property-based: the status filter reads a write-sharded index (shared/status-shards.ts) and merges its shards,
 * and a client paging through it sees exactly what one unsharded index would give — every pet of that
 * status once, in id order, whatever the page size, the statuses and the ids, and while other clients keep
 * creating pets. Through the HTTP API, following the `Link` header as a client does.
 */
import fc from 'fast-check';
import { PET_STATUSES, type PetStatus } from '#contract/schemas/pet-status';
import { STATUS_SHARDS_ENV } from '#shared/status-shards';
import { useTestApi } from '../support/test-api';

// More shards than a local stage has, in two generations: pages merge several keys, the first page both generations'.
const api = useTestApi({
  functionEnvironment: { [STATUS_SHARDS_ENV]: JSON.stringify([{ shards: 5 }, { from: '2026-01-01T00:00:00.000Z', shards: 3 }]) },
});

// No interruptAfterTimeLimit: fast-check counts an interrupted property as passed; jest's timeout is the hang ceiling.
const RUNS = { numRuns: 12 } as const;

interface Listed {
  readonly id: number;
  readonly status: PetStatus;
}

async function create(name: string, status: PetStatus): Promise<number> {
  const answer = await api.call('POST', '/v1/pets', { json: { name, categoryId: 1, status } });
  expect(answer.status).toBe(201);
  return (answer.json as { id: number }).id;
}

/** Every page of `status`, by the `Link` header; `between` runs after each page (e.g. other clients' creates). */
async function pageThrough(status: PetStatus, limit: number, between: () => Promise<void> = () => Promise.resolve()) {
  const pages: Listed[][] = [];
  let url: string | undefined = `/v1/pets?status=${status}&limit=${limit}`;
  while (url) {
    const answer = await api.call('GET', url);
    expect(answer.status).toBe(200);
    const page = answer.json as Listed[];
    pages.push(page);
    url = /^<([^>]+)>; rel="next"$/.exec(answer.headers.get('link') ?? '')?.[1];
    if (url) expect(page).toHaveLength(limit);
    await between();
  }
  return pages;
}

test('pages of a status filter hold every pet of that status exactly once, in id order, with no empty trailing page', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.constantFrom(...PET_STATUSES), { minLength: 0, maxLength: 30 }),
      fc.integer({ min: 2, max: 9 }),
      fc.constantFrom(...PET_STATUSES),
      async (statuses, limit, wanted) => {
        // Each run lists under a status of its own making: a name no other run uses marks its pets.
        const run = `run-${Math.random().toString(36).slice(2)}`;
        const ids = await Promise.all(statuses.map((status, index) => create(`${run}-${index}`, status)));
        const mine = new Set(ids);
        const expected = ids.filter((_, index) => statuses[index] === wanted).sort((a, b) => a - b);

        const pages = await pageThrough(wanted, limit);
        const listed = pages.flat();
        expect(listed.every((pet) => pet.status === wanted)).toBe(true);
        const listedIds = listed.map((pet) => pet.id);
        expect(listedIds).toEqual([...listedIds].sort((a, b) => a - b));
        expect(new Set(listedIds).size).toBe(listedIds.length);
        expect(listedIds.filter((id) => mine.has(id))).toEqual(expected);
        if (pages.length > 1) expect(pages.at(-1)?.length).toBeGreaterThan(0);
      },
    ),
    RUNS,
  );
}, 60_000);

test('while other clients create pets of the same status, paging never repeats a pet nor skips one that existed before it began', async () => {
  const before = await Promise.all(Array.from({ length: 30 }, (_, index) => create(`concurrent-before-${index}`, 'pending')));
  let created = 0;
  const pages = await pageThrough('pending', 4, async () => {
    await Promise.all(Array.from({ length: 2 }, () => create(`concurrent-during-${created++}`, 'pending')));
  });
  const ids = pages.flat().map((pet) => pet.id);
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids).toEqual([...ids].sort((a, b) => a - b));
  const listed = new Set(ids);
  expect(before.filter((id) => !listed.has(id))).toEqual([]);
});
