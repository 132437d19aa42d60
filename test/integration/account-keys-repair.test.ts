/**
 * A key creation whose function ended between its claim and its key's write (Lambda's timeout, a crash), so that
 * even its undo never ran, against the local DynamoDB with a clock given to each call: once no create could still
 * store that key (a minute on), the day's count it took is given back when it stands in the way.
 */
import { DynamoAccountKeys } from '#data/repositories/account-keys';
import { DynamoApiKeyRepository } from '#data/repositories/api-key-repository';
import type { TableNames } from '#local/engine/tables';
import { freshTables, testDocumentClient } from '../support/local-dynamodb';

const db = testDocumentClient();
let tables: TableNames;
beforeAll(async () => {
  tables = (await freshTables()).tableNames;
});
afterAll(() => db.destroy());

const DAILY = 2;
const at = (seconds: number): Date => new Date(Date.UTC(2030, 0, 1, 12, 0, seconds));

test('a create ended after its claim gives its count back a minute later, when the day is otherwise full', async () => {
  const keys = new DynamoApiKeyRepository(db, tables.apiKeys);
  const accountKeys = new DynamoAccountKeys(db, keys, tables.accounts, 10, DAILY);
  // Its key's write never ends: the function was ended there.
  let claimed: () => void = () => undefined;
  const ended = new Proxy(keys, {
    get: (target, property, receiver) =>
      property === 'create' ? () => (claimed(), new Promise<never>(() => undefined)) : (Reflect.get(target, property, receiver) as unknown),
  });
  await new Promise<void>((resolve) => {
    claimed = resolve;
    void new DynamoAccountKeys(db, ended, tables.accounts, 10, DAILY).create('acct_cut', 'cut', at(0));
  });

  expect(typeof (await accountKeys.create('acct_cut', 'second', at(1)))).toBe('object');
  // Within the minute the cut create might still be storing its key: its count stands.
  expect(await accountKeys.create('acct_cut', 'too soon', at(30))).toBe('daily_limit_reached');
  expect(typeof (await accountKeys.create('acct_cut', 'after the minute', at(61)))).toBe('object');
  expect(await accountKeys.create('acct_cut', 'the day full', at(62))).toBe('daily_limit_reached');
  expect((await keys.activeForAccount('acct_cut')).map((key) => key.description).sort()).toEqual(['after the minute', 'second']);
});
