/**
 * Closing an account while one of its keys is being created (lambda/data/repositories/account-keys.ts),
 * against the local DynamoDB, with the interleaving forced rather than hoped for: the create has claimed
 * its slot and is held just before it stores the key's record, the account is closed, then the record's
 * write goes on. Whatever the order, the key must not work afterwards.
 */
import { hashApiKey } from '#auth/api-keys';
import { KeyResolver } from '#auth/key-resolver';
import { DynamoAccountKeys } from '#data/repositories/account-keys';
import { DynamoApiKeyRepository, type ApiKeyRepository } from '#data/repositories/api-key-repository';
import type { TableNames } from '#local/engine/tables';
import { freshTables, testDocumentClient } from '../support/local-dynamodb';

const db = testDocumentClient();
let tables: TableNames;
beforeAll(async () => {
  tables = (await freshTables()).tableNames;
});
afterAll(() => db.destroy());

/** The real repository, with each record's creation held until `release` is called. */
function heldCreates(keys: ApiKeyRepository) {
  let held: () => void = () => undefined;
  let reached: () => void = () => undefined;
  const creating = new Promise<void>((resolve) => (reached = resolve));
  const released = new Promise<void>((resolve) => (held = resolve));
  const repository = new Proxy(keys, {
    get(target, property, receiver) {
      if (property !== 'create') return Reflect.get(target, property, receiver) as unknown;
      return async (...args: Parameters<ApiKeyRepository['create']>) => {
        reached();
        await released;
        return target.create(...args);
      };
    },
  });
  return { repository, creating, release: held };
}

const resolver = (keys: ApiKeyRepository) => new KeyResolver((hash) => keys.findByHash(hash), { ttlMs: 0, knownMax: 10, unknownMax: 10 });

test('a create whose record is stored after the account was closed is refused, and its key never works', async () => {
  const keys = new DynamoApiKeyRepository(db, tables.apiKeys);
  const held = heldCreates(keys);
  const accountKeys = new DynamoAccountKeys(db, held.repository, tables.accounts);

  const create = accountKeys.create('acct_race_late', 'late', new Date());
  await held.creating;
  await accountKeys.close('acct_race_late', new Date());
  held.release();
  const created = await create;

  expect(created).toBe('closed');
  // The authorizer reads the record by hash: revoked, so refused.
  const stored = (await keys.list()).filter((record) => record.accountId === 'acct_race_late');
  expect(stored).toHaveLength(1);
  expect(stored[0]?.revokedAt).toEqual(expect.any(String));
});

test('a key stored just before the account is closed is revoked by the closing, though no index read has seen it yet', async () => {
  const keys = new DynamoApiKeyRepository(db, tables.apiKeys);
  const accountKeys = new DynamoAccountKeys(db, keys, tables.accounts);
  const created = await accountKeys.create('acct_race_early', 'early', new Date());
  if (typeof created === 'string') throw new Error(`not created: ${created}`);

  expect(await accountKeys.close('acct_race_early', new Date())).toBe(1);
  expect(await resolver(keys).resolve(created.key)).toEqual({ authenticated: false, reason: 'revoked' });
  expect((await keys.findByHash(hashApiKey(created.key)))?.revokedAt).toEqual(expect.any(String));
});
