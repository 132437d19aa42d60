import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoMessageRepository } from '#data/repositories/message-repository';
import fc from 'fast-check';
import { newPetId } from '#data/pet-ids';
import { DynamoPetRepository, type PageCursor } from '#data/repositories/pet-repository';
import { statusShards } from '#data/status-shards';
import { putIfAbsent, withWriteToken } from '#data/repositories/conditional-put';
import type { TableNames } from '#local/engine/tables';
import { freshTables, testDocumentClient } from '../support/local-dynamodb';

const db = testDocumentClient();
let tables: TableNames;
let table: string;
beforeAll(async () => {
  tables = (await freshTables()).tableNames;
  table = tables.pets;
});
afterAll(() => db.destroy());

describe('DynamoPetRepository against local DynamoDB', () => {
  test('a create whose id is taken retries with a fresh id and never overwrites', async () => {
    const ids = [1_000, 1_000, 1_001];
    const pets = new DynamoPetRepository(db, table, { nextId: () => ids.shift() as number });
    const { value: first } = await pets.create({ name: 'first', categoryId: 1 });
    const { value: second } = await pets.create({ name: 'second', categoryId: 1 });
    expect([first.id, second.id]).toEqual([1_000, 1_001]);
    expect(await pets.get(1_000)).toEqual({ id: 1_000, name: 'first', categoryId: 1, status: 'available' });
  });

  test('a create that keeps colliding fails after 5 attempts and leaves the stored pet intact', async () => {
    await new DynamoPetRepository(db, table, { nextId: () => 3_000 }).create({ name: 'occupant', categoryId: 1 });
    let attempts = 0;
    const pets = new DynamoPetRepository(db, table, { nextId: () => (attempts++, 3_000) });
    await expect(pets.create({ name: 'intruder', categoryId: 2 })).rejects.toThrow(/no free pet id after 5 attempts/);
    expect(attempts).toBe(5);
    expect(await pets.get(3_000)).toMatchObject({ name: 'occupant' });
  });

  test('get reads strongly consistently, so a pet just created is found at once (DynamoDB would otherwise answer from a replica)', async () => {
    const pets = new DynamoPetRepository(db, table);
    const { value: created } = await pets.create({ name: 'just made', categoryId: 1 });
    const send = jest.spyOn(db, 'send');
    try {
      expect(await pets.get(created.id)).toEqual(created);
      expect(send.mock.calls.map(([command]) => command.input)).toEqual([
        expect.objectContaining({ Key: { id: created.id }, ConsistentRead: true }),
      ]);
    } finally {
      send.mockRestore();
    }
  });

  test('get of a missing id is undefined', async () => {
    expect(await new DynamoPetRepository(db, table).get(424242)).toBeUndefined();
  });
});

describe('putIfAbsent (the write under every create)', () => {
  test('a repeated put of the same item, as an SDK retry after a lost response sends it, counts as stored once', async () => {
    const item = withWriteToken({ id: 77, name: 'retried', categoryId: 1, status: 'sold', createdAt: '2026-01-01T00:00:00.000Z' });
    expect(await putIfAbsent(db, table, 'id', item)).toBe('stored');
    expect(await putIfAbsent(db, table, 'id', { ...item })).toBe('stored');
    expect(await new DynamoPetRepository(db, table).get(77)).toEqual({ id: 77, name: 'retried', categoryId: 1, status: 'sold' });
  });

  test('another item under a taken key is refused and the stored one kept', async () => {
    const item = withWriteToken({ id: 78, name: 'original', categoryId: 1, status: 'sold', createdAt: '2026-01-01T00:00:00.000Z' });
    expect(await putIfAbsent(db, table, 'id', item)).toBe('stored');
    expect(await putIfAbsent(db, table, 'id', withWriteToken({ ...item, name: 'other' }))).toBe('taken');
    expect(await new DynamoPetRepository(db, table).get(78)).toMatchObject({ name: 'original' });
  });

  test("another request's item, equal in every attribute but its write token, is refused, not taken for our own", async () => {
    const { writeToken: _token, ...attributes } = withWriteToken({
      id: 79,
      name: 'twin',
      categoryId: 1,
      status: 'sold',
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    expect(await putIfAbsent(db, table, 'id', withWriteToken(attributes))).toBe('stored');
    expect(await putIfAbsent(db, table, 'id', withWriteToken(attributes))).toBe('taken');
  });
});

describe('two different creates that draw the same key in the same millisecond stay two', () => {
  const clock = () => new Date('2026-11-23T12:00:00.000Z');

  test('two concurrent pet creates with equal bodies and a colliding id store two pets, each readable under its own id', async () => {
    // Both draw 2_000 first (the collision), then ids of their own.
    const draws = [2_000, 2_000, 2_001, 2_002];
    const pets = new DynamoPetRepository(db, table, { nextId: () => draws.shift() as number, now: clock });
    const body = { name: 'Twin', categoryId: 4 };
    const [{ value: one }, { value: two }] = await Promise.all([pets.create(body), pets.create(body)]);
    expect(one.id).not.toBe(two.id);
    expect([one.id, two.id].sort()).toEqual([2_000, 2_001]);
    for (const pet of [one, two]) expect(await pets.get(pet.id)).toEqual({ id: pet.id, name: 'Twin', categoryId: 4, status: 'available' });
  });

  test('two concurrent messages with equal text and a colliding id store two messages', async () => {
    const draws = ['01JTWIN00000000000000000AA', '01JTWIN00000000000000000AA', '01JTWIN00000000000000000AB', '01JTWIN00000000000000000AC'];
    const messages = new DynamoMessageRepository(db, tables.messages, { nextId: () => draws.shift() as string, now: clock });
    const caller = { accountId: 'acct_twin', keyId: 'key_twin' };
    const [{ value: one }, { value: two }] = await Promise.all([messages.enqueue('twin', caller), messages.enqueue('twin', caller)]);
    expect([one.id, two.id].sort()).toEqual(['01JTWIN00000000000000000AA', '01JTWIN00000000000000000AB']);
    const { Items = [] } = await db.send(new ScanCommand({ TableName: tables.messages, ConsistentRead: true }));
    expect(Items.filter((item) => item.message === 'twin')).toHaveLength(2);
  });
});

describe('the status shard count changes on a live stage (shared/status-shards.ts)', () => {
  // Every run's pets come later than the previous run's: one clock for the file, a millisecond per create.
  let clock = Date.parse('2027-01-01T00:00:00.000Z');
  const runs = { numRuns: 25 } as const;

  test('a client paging a status while the count changes and creates go on, on old and new versions at once, sees each pet exactly once', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 4 }), fc.boolean()), { minLength: 1, maxLength: 8 }),
        fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }),
        async (before, after, limit, steps, coins) => {
          const run = `shards-${before}-${after}-${clock}`;
          let coin = 0;
          const toss = () => coins[coin++ % coins.length] === true;
          // The new generation starts a few creates in: the deploy that adds it has ended by then (its rule), so the
          // previous version creates and lists only before it, beside the new version, which already runs.
          const change = clock + 3 + (steps[0]?.[0] ?? 0);
          const oldLayout = [{ shards: before }];
          const newLayout = [...oldLayout, { from: new Date(change).toISOString(), shards: after }];
          const options = { nextId: () => newPetId(clock++) };
          const previous = new DynamoPetRepository(db, table, { ...options, shards: statusShards(oldLayout) });
          const next = new DynamoPetRepository(db, table, { ...options, shards: statusShards(newLayout) });
          const version = () => (clock < change && toss() ? previous : next);
          const created: number[] = [];
          const create = async (count: number) => {
            const made = await Promise.all(
              Array.from({ length: count }, (_, index) =>
                version().create({ name: `${run}-${index}`, categoryId: 1, status: toss() ? 'sold' : 'pending' }),
              ),
            );
            created.push(...made.filter(({ value }) => value.status === 'sold').map(({ value }) => value.id));
          };

          // The client starts where this run's pets begin (a cursor it was given earlier): earlier runs' pets are not its.
          let cursor: PageCursor | undefined = { lastId: newPetId(clock, 0) - 1, status: 'sold' };
          await create(3);
          const listed: number[] = [];
          for (const [count, jump] of [...steps, ...Array.from({ length: 100 }, () => [0, false] as const)]) {
            const page = await version().list({ limit, status: 'sold', after: cursor });
            listed.push(...page.pets.map(({ id }) => id));
            cursor = page.next;
            if (!cursor) break;
            if (jump) clock += 2;
            await create(count);
          }

          expect(cursor).toBeUndefined();
          expect(listed).toEqual([...created].sort((a, b) => a - b));
        },
      ),
      runs,
    );
  }, 120_000);
});
