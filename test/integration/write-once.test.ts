/**
 * The write under every `Idempotency-Key` request (lambda/data/repositories/write-once.ts), against
 * the local DynamoDB: exactly one item per claim whatever fails, and the first answer for every repeat.
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { IdempotencyKeyReusedError } from '#contract/domain-errors';
import { claimFor } from '#http/idempotency-key';
import { DynamoMessageRepository } from '#data/repositories/message-repository';
import { DynamoPetRepository } from '#data/repositories/pet-repository';
import type { TableNames } from '#local/engine/tables';
import { freshTables, testDocumentClient, testEndpoint } from '../support/local-dynamodb';
import { startFaultProxy } from '../support/tcp-proxy';

const db = testDocumentClient();
let tables: TableNames;
beforeAll(async () => {
  tables = (await freshTables()).tableNames;
});
afterAll(() => db.destroy());

const scan = async (table: string) => (await db.send(new ScanCommand({ TableName: table, ConsistentRead: true }))).Items ?? [];
const named = async (name: string) => (await scan(tables.pets)).filter((item) => item.name === name);

let nextKey = 0;
const claim = (body: unknown, key = `key-${nextKey++}`) => claimFor('createPet', 'acct_once', key, body);
/** Ids handed out in order, so a test knows which id each attempt drew. */
const idsFrom =
  (...ids: number[]) =>
  () => {
    const id = ids.shift();
    if (id === undefined) throw new Error('test ran out of ids');
    return id;
  };
describe('writeOnce through DynamoPetRepository.create with a claim', () => {
  test('the first request stores the pet and answers; a repeat stores nothing and answers the same, marked as replayed', async () => {
    const body = { name: 'Once', categoryId: 1 };
    const once = claim(body);
    const pets = new DynamoPetRepository(db, tables.pets, { nextId: idsFrom(5_001, 5_002), idempotencyTable: tables.idempotency });
    const first = await pets.create(body, once);
    const again = await pets.create(body, once);
    expect(first).toEqual({ value: { id: 5_001, name: 'Once', categoryId: 1, status: 'available' }, replayed: false });
    expect(again).toEqual({ ...first, replayed: true });
    expect(await named('Once')).toHaveLength(1);
  });

  test('the same key with another body is refused (IdempotencyKeyReusedError, answered 422) and stores nothing', async () => {
    const pets = new DynamoPetRepository(db, tables.pets, { nextId: idsFrom(5_101, 5_102), idempotencyTable: tables.idempotency });
    await pets.create({ name: 'Body A', categoryId: 1 }, claim({ name: 'Body A', categoryId: 1 }, 'reused'));
    const refused = pets.create({ name: 'Body B', categoryId: 1 }, claim({ name: 'Body B', categoryId: 1 }, 'reused'));
    await expect(refused).rejects.toBeInstanceOf(IdempotencyKeyReusedError);
    expect(await named('Body B')).toEqual([]);
  });

  test('a request that failed after claiming its key is finished by its retry: the same pet, once, with the first answer', async () => {
    const body = { name: 'Cut off', categoryId: 2 };
    const once = claim(body);
    // The pet write fails (no such table) after the key's record was written: as if the function died there.
    const broken = new DynamoPetRepository(db, 'no-such-table', { nextId: idsFrom(5_201), idempotencyTable: tables.idempotency });
    await expect(broken.create(body, once)).rejects.toThrow(/resource not found|non-existent table/i);
    expect(await named('Cut off')).toEqual([]);

    const retry = await new DynamoPetRepository(db, tables.pets, { nextId: idsFrom(5_299), idempotencyTable: tables.idempotency }).create(
      body,
      once,
    );
    expect(retry).toEqual({ value: { id: 5_201, name: 'Cut off', categoryId: 2, status: 'available' }, replayed: true });
    expect(await named('Cut off')).toEqual([expect.objectContaining({ id: 5_201 })]);
  });

  test('when the drawn id is taken by another pet, the key moves to a fresh id; repeats answer the fresh one', async () => {
    await new DynamoPetRepository(db, tables.pets, { nextId: idsFrom(5_301) }).create({ name: 'Holder', categoryId: 3 });
    const body = { name: 'Mover', categoryId: 3 };
    const once = claim(body);
    const pets = new DynamoPetRepository(db, tables.pets, { nextId: idsFrom(5_301, 5_302, 5_303), idempotencyTable: tables.idempotency });
    const first = await pets.create(body, once);
    expect(first.value.id).toBe(5_302);
    expect((await pets.create(body, once)).value).toEqual(first.value);
    expect(await named('Mover')).toEqual([expect.objectContaining({ id: 5_302 })]);
    expect(await named('Holder')).toEqual([expect.objectContaining({ id: 5_301 })]);
  });

  test('30 concurrent requests with one key, each drawing its own id: one pet, one answer for all, one of them original', async () => {
    const body = { name: 'Crowd', categoryId: 4 };
    const once = claim(body);
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        new DynamoPetRepository(db, tables.pets, { nextId: idsFrom(5_400 + index), idempotencyTable: tables.idempotency }).create(
          body,
          once,
        ),
      ),
    );
    const stored = await named('Crowd');
    expect(stored).toHaveLength(1);
    for (const result of results) expect(result.value.id).toBe(stored[0]?.id);
    expect(results.filter((result) => !result.replayed)).toHaveLength(1);
  });

  test('an expired record no longer holds its key: the next request is a new one', async () => {
    const body = { name: 'Expired', categoryId: 5 };
    const once = { ...claim(body), windowSeconds: -1 };
    const pets = new DynamoPetRepository(db, tables.pets, { nextId: idsFrom(5_501, 5_502), idempotencyTable: tables.idempotency });
    await pets.create(body, once);
    const later = await pets.create(body, once);
    expect([later.replayed, later.value.id]).toEqual([false, 5_502]);
  });

  test('without a claim, a plain create', async () => {
    const pets = new DynamoPetRepository(db, tables.pets, { nextId: idsFrom(5_601, 5_602), idempotencyTable: tables.idempotency });
    await pets.create({ name: 'Plain', categoryId: 1 });
    await pets.create({ name: 'Plain', categoryId: 1 });
    expect((await named('Plain')).map((item): unknown => item.id)).toEqual(expect.arrayContaining([5_601, 5_602]));
  });
});

test('DynamoMessageRepository.enqueue with a claim: a retry after a failed message write stores that message once', async () => {
  const caller = { accountId: 'acct_once', keyId: 'key_once' };
  const once = claimFor('submitMessage', caller.accountId, 'message-key', { message: 'hello once' });
  const ids = ['01JMSG0000000000000000000A', '01JMSG0000000000000000000B'];
  const nextId = () => ids.shift() as string;
  await expect(
    new DynamoMessageRepository(db, 'no-such-table', { nextId, idempotencyTable: tables.idempotency }).enqueue('hello once', caller, once),
  ).rejects.toThrow();
  const retry = await new DynamoMessageRepository(db, tables.messages, { nextId, idempotencyTable: tables.idempotency }).enqueue(
    'hello once',
    caller,
    once,
  );
  expect(retry).toEqual({ value: expect.objectContaining({ id: '01JMSG0000000000000000000A', message: 'hello once' }), replayed: true });
  expect((await scan(tables.messages)).filter((item) => item.message === 'hello once')).toEqual([
    expect.objectContaining({ id: '01JMSG0000000000000000000A', accountId: 'acct_once', status: 'queued' }),
  ]);
});

describe('a write whose answer is lost and retried by the SDK is recognised as our own', () => {
  test("the first request of a key stays the original when its record write's answer was lost", async () => {
    const proxy = await startFaultProxy(testEndpoint());
    const throughProxy = testDocumentClient(proxy.endpoint);
    try {
      const body = { name: 'Lost record answer', categoryId: 6 };
      const pets = new DynamoPetRepository(throughProxy, tables.pets, { nextId: idsFrom(5_701), idempotencyTable: tables.idempotency });
      proxy.loseNextAnswerTo(tables.idempotency);
      const first = await pets.create(body, claim(body));
      expect(first).toEqual({ value: { id: 5_701, name: 'Lost record answer', categoryId: 6, status: 'available' }, replayed: false });
      expect(await named('Lost record answer')).toHaveLength(1);
    } finally {
      throughProxy.destroy();
      await proxy.close();
    }
  });

  test("a plain create whose item write's answer was lost stores one pet under the id it drew", async () => {
    const proxy = await startFaultProxy(testEndpoint());
    const throughProxy = testDocumentClient(proxy.endpoint);
    try {
      const pets = new DynamoPetRepository(throughProxy, tables.pets, { nextId: idsFrom(5_801, 5_802) });
      proxy.loseNextAnswerTo(tables.pets);
      expect(await pets.create({ name: 'Lost item answer', categoryId: 6 })).toMatchObject({ value: { id: 5_801 }, replayed: false });
      expect(await named('Lost item answer')).toEqual([expect.objectContaining({ id: 5_801 })]);
    } finally {
      throughProxy.destroy();
      await proxy.close();
    }
  });
});
