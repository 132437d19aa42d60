import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DynamoPetRepository } from '../../lambda/shared/repositories/pet-repository';
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
    const pets = new DynamoPetRepository(db, table, () => ids.shift() as number);
    const first = await pets.create({ name: 'first', categoryId: 1 });
    const second = await pets.create({ name: 'second', categoryId: 1 });
    expect([first.id, second.id]).toEqual([1_000, 1_001]);
    expect(await pets.get(1_000)).toEqual({ id: 1_000, name: 'first', categoryId: 1, status: 'available' });
  });

  test('a create that keeps colliding fails after 5 attempts and leaves the stored pet intact', async () => {
    let attempts = 0;
    const pets = new DynamoPetRepository(db, table, () => (attempts++, 1_000));
    await expect(pets.create({ name: 'intruder', categoryId: 2 })).rejects.toBeInstanceOf(ConditionalCheckFailedException);
    expect(attempts).toBe(5);
    expect(await pets.get(1_000)).toMatchObject({ name: 'first' });
  });

  test('get of a missing id is undefined', async () => {
    expect(await new DynamoPetRepository(db, table).get(424242)).toBeUndefined();
  });
});
