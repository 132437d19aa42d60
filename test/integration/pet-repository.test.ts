import { DynamoPetRepository } from '../../lambda/shared/repositories/pet-repository';
import { putIfAbsent } from '../../lambda/shared/repositories/put-if-absent';
import { freshTables, testDocumentClient } from '../support/local-dynamodb';

const db = testDocumentClient();
let table: string;
beforeAll(async () => {
  table = (await freshTables()).tableNames.pets;
});
afterAll(() => db.destroy());

describe('DynamoPetRepository against local DynamoDB', () => {
  test('a create whose id is taken retries with a fresh id and never overwrites', async () => {
    const ids = [1_000, 1_000, 1_001];
    const pets = new DynamoPetRepository(db, table, { nextId: () => ids.shift() as number });
    const first = await pets.create({ name: 'first', categoryId: 1 });
    const second = await pets.create({ name: 'second', categoryId: 1 });
    expect([first.id, second.id]).toEqual([1_000, 1_001]);
    expect(await pets.get(1_000)).toEqual({ id: 1_000, name: 'first', categoryId: 1, status: 'available' });
  });

  test('a create that keeps colliding fails after 5 attempts and leaves the stored pet intact', async () => {
    let attempts = 0;
    const pets = new DynamoPetRepository(db, table, { nextId: () => (attempts++, 1_000) });
    await expect(pets.create({ name: 'intruder', categoryId: 2 })).rejects.toThrow(/no free pet id after 5 attempts/);
    expect(attempts).toBe(5);
    expect(await pets.get(1_000)).toMatchObject({ name: 'first' });
  });

  test('get of a missing id is undefined', async () => {
    expect(await new DynamoPetRepository(db, table).get(424242)).toBeUndefined();
  });
});

describe('putIfAbsent (the write under every create)', () => {
  test('a repeated put of the same item, as an SDK retry after a lost response sends it, counts as stored once', async () => {
    const item = { id: 77, name: 'retried', categoryId: 1, status: 'sold', createdAt: '2026-01-01T00:00:00.000Z' };
    expect(await putIfAbsent(db, table, 'id', item)).toBe('stored');
    expect(await putIfAbsent(db, table, 'id', { ...item })).toBe('stored');
    expect(await new DynamoPetRepository(db, table).get(77)).toEqual({ id: 77, name: 'retried', categoryId: 1, status: 'sold' });
  });

  test('another item under a taken key is refused and the stored one kept', async () => {
    const item = { id: 78, name: 'original', categoryId: 1, status: 'sold', createdAt: '2026-01-01T00:00:00.000Z' };
    expect(await putIfAbsent(db, table, 'id', item)).toBe('stored');
    expect(await putIfAbsent(db, table, 'id', { ...item, name: 'other' })).toBe('taken');
    expect(await new DynamoPetRepository(db, table).get(78)).toMatchObject({ name: 'original' });
  });
});
