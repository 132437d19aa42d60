import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoMessageRepository } from '#data/repositories/message-repository';
import { DynamoPetRepository } from '#data/repositories/pet-repository';
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
