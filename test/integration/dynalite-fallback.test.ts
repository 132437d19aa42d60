/**
 * Machines without Java run everything on dynalite. Whatever engine the suite uses, this file checks
 * the repositories' DynamoDB features (conditional puts, GSI queries, paginated scans, updates) on
 * dynalite too, so the fallback cannot silently break.
 */
import { issueApiKey } from '#auth/api-keys';
import { IdempotencyKeyReusedError } from '#contract/domain-errors';
import { claimFor } from '#http/idempotency-key';
import { createDocumentClient } from '#data/dynamodb-client';
import { DynamoApiKeyRepository } from '#data/repositories/api-key-repository';
import { DynamoMessageRepository } from '#data/repositories/message-repository';
import { DynamoPetRepository } from '#data/repositories/pet-repository';
import { startLocalDynamoDb, type LocalDynamoDb } from '#local/engine/dynamodb-engine';
import { localFunctionEnvironment } from '#local/dev/function-environment';
import { prepareTables } from '#local/engine/local-store';
import type { TableNames } from '#local/engine/tables';

let engine: LocalDynamoDb;
let tables: TableNames;
let db: ReturnType<typeof createDocumentClient>;

beforeAll(async () => {
  engine = await startLocalDynamoDb({ engine: 'dynalite' });
  tables = await prepareTables(engine.endpoint, 'fallback-');
  Object.assign(process.env, localFunctionEnvironment({ endpoint: engine.endpoint, tableNames: tables }));
  db = createDocumentClient(engine.endpoint);
});
afterAll(async () => {
  db.destroy();
  await engine.stop();
});

test('pets: create, collision refusal, get, filtered and unfiltered pages reach every pet once', async () => {
  // Tables of its own: the listing must see exactly this test's pets, whichever tests ran before.
  const own = await prepareTables(engine.endpoint, 'fallback-listing-');
  let next = 1;
  const pets = new DynamoPetRepository(db, own.pets, { nextId: () => next++ });
  for (let index = 0; index < 9; index++)
    await pets.create({ name: `p${index}`, categoryId: 1, status: index % 3 === 0 ? 'sold' : 'available' });
  next = 1;
  await expect(new DynamoPetRepository(db, own.pets, { nextId: () => 1 }).create({ name: 'dup', categoryId: 1 })).rejects.toThrow(
    /no free pet id/,
  );
  expect(await pets.get(1)).toEqual({ id: 1, name: 'p0', categoryId: 1, status: 'sold' });

  const readAll = async (status?: 'sold') => {
    const seen: number[] = [];
    let page = await pets.list({ limit: 2, ...(status ? { status } : {}) });
    seen.push(...page.pets.map((pet) => pet.id));
    while (page.next) {
      page = await pets.list({ limit: 2, after: page.next, ...(status ? { status } : {}) });
      seen.push(...page.pets.map((pet) => pet.id));
    }
    return seen;
  };
  expect(await readAll('sold')).toEqual([1, 4, 7]);
  expect((await readAll()).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
});

test('API keys and messages: store, look up, revoke, enqueue', async () => {
  const keys = new DynamoApiKeyRepository(db, tables.apiKeys);
  const issued = issueApiKey({ accountId: 'acct_f' });
  await keys.create(issued.record);
  expect(await keys.findByHash(issued.record.keyHash)).toEqual(issued.record);
  const revoked = await keys.revoke(issued.record.keyId, new Date('2026-01-01T00:00:00Z'));
  expect(revoked?.revokedAt).toBe('2026-01-01T00:00:00.000Z');
  expect((await keys.revoke(issued.record.keyId, new Date()))?.revokedAt).toBe('2026-01-01T00:00:00.000Z');

  const message = await new DynamoMessageRepository(db, tables.messages).enqueue('hello 👋', { accountId: 'acct_f', keyId: 'key_f' });
  expect(message).toMatchObject({ value: { message: 'hello 👋', status: 'queued' }, replayed: false });
});

test('Idempotency-Key writes: claim, repeat, a taken id moved to a fresh one, a refused body', async () => {
  const body = { name: 'keyed', categoryId: 2 };
  const once = claimFor('createPet', 'acct_f', 'fallback-key', body);
  const ids = [101, 101, 102];
  const pets = new DynamoPetRepository(db, tables.pets, { nextId: () => ids.shift() as number, idempotencyTable: tables.idempotency });
  await pets.create({ name: 'holder', categoryId: 2 }); // takes 101
  const keyed = { id: 102, name: 'keyed', categoryId: 2, status: 'available' };
  expect(await pets.create(body, once)).toEqual({ value: keyed, replayed: false });
  expect(await pets.create(body, once)).toEqual({ value: keyed, replayed: true });
  await expect(
    pets.create({ name: 'other', categoryId: 2 }, claimFor('createPet', 'acct_f', 'fallback-key', { name: 'other', categoryId: 2 })),
  ).rejects.toBeInstanceOf(IdempotencyKeyReusedError);
  expect(await pets.get(102)).toMatchObject({ name: 'keyed' });
});
