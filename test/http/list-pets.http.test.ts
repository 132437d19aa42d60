import type { PetStatus } from '#contract/schemas/pet-status';
import { useTestApi, expectError, type ApiAnswer } from '../support/test-api';

interface Pet {
  id: number;
  name: string;
  categoryId: number;
  status: PetStatus;
}

const api = useTestApi();
const created: Pet[] = [];
const STATUS_OF = (index: number): PetStatus => (['available', 'sold', 'pending', 'sold'] as const)[index % 4] as PetStatus;

beforeAll(async () => {
  // 45 pets: 11 available, 23 sold (indexes 1, 3, 5 … mod 4 in {1,3}), 11 pending.
  for (let index = 0; index < 45; index++) {
    const answer = await api.call('POST', '/v1/pets', {
      json: { name: `pet-${index}`, categoryId: 1 + (index % 3), status: STATUS_OF(index) },
    });
    expect(answer.status).toBe(201);
    created.push(answer.json as Pet);
  }
});

const nextLink = (answer: ApiAnswer): string | undefined => {
  const header = answer.headers.get('link');
  if (header === null) return undefined;
  const match = /^<([^>]+)>; rel="next"$/.exec(header);
  if (!match?.[1]) throw new Error(`unexpected Link header: ${header}`);
  return match[1];
};

/** Follows `Link: rel="next"` from the first page to the last, checking each page's size. */
async function readAllPages(firstPath: string, limit: number): Promise<{ pets: Pet[]; pages: number }> {
  const pets: Pet[] = [];
  let url: string | undefined = firstPath;
  let pages = 0;
  while (url) {
    const answer = await api.call('GET', url);
    expect(answer.status).toBe(200);
    const page = answer.json as Pet[];
    url = nextLink(answer);
    if (url) expect(page).toHaveLength(limit);
    else expect(page.length).toBeLessThanOrEqual(limit);
    pets.push(...page);
    pages++;
    if (pages > 100) throw new Error('pagination does not end');
  }
  return { pets, pages };
}

const byId = (a: Pet, b: Pet): number => a.id - b.id;

describe('GET /v1/pets', () => {
  test('answers 200 with a JSON array of at most 20 pets by default, and a next link', async () => {
    const answer = await api.call('GET', '/v1/pets');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.json).toHaveLength(20);
    for (const pet of answer.json as Pet[]) expect(created).toContainEqual(pet);
    expect(nextLink(answer)).toMatch(new RegExp(`^${api.petsBaseUrl}/pets\\?limit=20&cursor=[A-Za-z0-9_-]+$`));
  });

  test('paging with limit=7 through the whole list reaches every pet exactly once', async () => {
    const { pets, pages } = await readAllPages('/v1/pets?limit=7', 7);
    expect(pets.sort(byId)).toEqual([...created].sort(byId));
    expect(pages).toBe(7); // 45 = 6 × 7 + 3
  });

  test('limit=100 returns everything in one page without a next link', async () => {
    const answer = await api.call('GET', '/v1/pets?limit=100');
    expect((answer.json as Pet[]).sort(byId)).toEqual([...created].sort(byId));
    expect(answer.headers.get('link')).toBeNull();
  });

  test('a page that ends exactly at the last pet has no next link (no empty trailing page)', async () => {
    const answer = await api.call('GET', '/v1/pets?limit=45');
    expect(answer.json).toHaveLength(45);
    expect(answer.headers.get('link')).toBeNull();
  });

  test('status=sold returns only sold pets, oldest first', async () => {
    const answer = await api.call('GET', '/v1/pets?status=sold&limit=100');
    const sold = created.filter((pet) => pet.status === 'sold');
    expect(answer.json).toEqual(sold.sort(byId));
  });

  test('paging through status=sold with limit=4 reaches every sold pet exactly once, in id order', async () => {
    const { pets } = await readAllPages('/v1/pets?status=sold&limit=4', 4);
    expect(pets).toEqual(created.filter((pet) => pet.status === 'sold').sort(byId));
  });

  test('the next link keeps the status filter and the limit', async () => {
    const answer = await api.call('GET', '/v1/pets?limit=2&status=pending');
    expect(nextLink(answer)).toMatch(new RegExp(`^${api.petsBaseUrl}/pets\\?limit=2&status=pending&cursor=`));
  });

  test('limit=1 and limit=100 are accepted (bounds)', async () => {
    expect((await api.call('GET', '/v1/pets?limit=1')).json).toHaveLength(1);
    expect((await api.call('GET', '/v1/pets?limit=100')).status).toBe(200);
  });
});

describe('GET /v1/pets refuses bad query parameters with 400 naming the parameter', () => {
  const cases: [string, string, RegExp][] = [
    ['limit=0', '?limit=0', /'limit' must be an integer from 1 to 100/],
    ['limit=101', '?limit=101', /'limit'/],
    ['limit=abc', '?limit=abc', /'limit'/],
    ['limit=2.5', '?limit=2.5', /'limit'/],
    ['limit=-1', '?limit=-1', /'limit'/],
    ['an empty limit', '?limit=', /'limit'/],
    ['limit=1e1', '?limit=1e1', /'limit'/],
    ['a repeated limit', '?limit=1&limit=2', /^query parameter 'limit' is given more than once; send it once$/],
    ['a repeated status, even the same', '?status=sold&status=sold', /^query parameter 'status' is given more than once/],
    ['an unknown status', '?status=lost', /'status' must be one of: available, pending, sold/],
    ['an upper-case status', '?status=SOLD', /'status'/],
    ['an unknown parameter', '?stauts=sold', /unknown query parameter 'stauts'/],
    ['__proto__, unknown like any other name', '?__proto__=x', /unknown query parameter '__proto__'/],
    ['constructor, unknown like any other name', '?constructor=x', /unknown query parameter 'constructor'/],
    ['a garbage cursor', '?cursor=%%%', /'cursor' is not a cursor issued by this API/],
    ['a cursor that is not base64url JSON', '?cursor=bm90LWpzb24', /'cursor'/],
    ['an oversized cursor', `?cursor=${'A'.repeat(300)}`, /'cursor'/],
  ];

  test.each(cases)('%s', async (_label, query, message) => {
    const answer = await api.call('GET', `/v1/pets${query}`);
    expectError(answer, 400, 'invalid_request');
    expect((answer.json as { message: string }).message).toMatch(message);
  });

  test('a tampered cursor answers 400', async () => {
    const link = nextLink(await api.call('GET', '/v1/pets?limit=3')) as string;
    const cursor = new URL(link).searchParams.get('cursor') as string;
    const decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as Record<string, unknown>;
    const forged = [
      cursor.slice(0, -2), // truncated
      `${cursor}A`, // extended
      Buffer.from(JSON.stringify({ ...decoded, id: 'x' })).toString('base64url'), // wrong type
      Buffer.from(JSON.stringify({ ...decoded, v: 2 })).toString('base64url'), // unknown version
      Buffer.from(JSON.stringify({ ...decoded, extra: 1 })).toString('base64url'), // extra field
    ];
    for (const text of forged) {
      const answer = await api.call('GET', `/v1/pets?limit=3&cursor=${text}`);
      expectError(answer, 400, 'invalid_request');
    }
  });

  test('a cursor edited into another well-formed position lists from there: cursors are checked, not signed', async () => {
    const sold = created.filter((pet) => pet.status === 'sold').sort(byId);
    const edited = Buffer.from(JSON.stringify({ v: 1, id: (sold[9] as Pet).id, s: 'sold' })).toString('base64url');
    const answer = await api.call('GET', `/v1/pets?limit=3&status=sold&cursor=${edited}`);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual(sold.slice(10, 13));
  });

  test('a cursor from one filter is refused for another', async () => {
    const link = nextLink(await api.call('GET', '/v1/pets?limit=2&status=sold')) as string;
    const cursor = new URL(link).searchParams.get('cursor') as string;
    expectError(await api.call('GET', `/v1/pets?limit=2&status=pending&cursor=${cursor}`), 400, 'invalid_request');
    expectError(await api.call('GET', `/v1/pets?limit=2&cursor=${cursor}`), 400, 'invalid_request');
  });
});
