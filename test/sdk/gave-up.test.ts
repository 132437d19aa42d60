/**
 * A create that gives up after its write happened: a fault proxy in front of the local server lets every request
 * through to the service but answers it with API Gateway's 500 (a function that ran out of time after its write)
 * or cuts the connection, until the SDK runs out of attempts. The error carries the `Idempotency-Key` the call
 * used; calling again with it stores nothing new and answers the item stored the first time.
 */
import { PetStoreClient, PetStoreError } from '../../clients/typescript/src/index.ts';
import { contractCheckedFetch, expectNoContractProblems } from './support/contract-checked-fetch';
import { startFaultProxy, type Fault, type FaultProxy } from './support/fault-proxy';
import { useTestApi } from '../support/test-api';

const api = useTestApi();
afterEach(expectNoContractProblems);

const GIVE_UP: readonly Fault[] = ['lose-answer-500', 'reset', 'lose-answer-500'];
let proxy: FaultProxy;
beforeAll(async () => {
  proxy = await startFaultProxy(api.origin, () => GIVE_UP);
});
afterAll(() => proxy.close());

const client = (): PetStoreClient =>
  new PetStoreClient({
    petsBaseUrl: `${proxy.origin}/v1`,
    messagesBaseUrl: proxy.origin,
    apiKey: api.key,
    fetch: contractCheckedFetch,
    retry: { maxAttempts: GIVE_UP.length, baseDelayMs: 1 },
  });

const failureOf = (call: Promise<unknown>): Promise<PetStoreError> =>
  call.then(
    () => {
      throw new Error('the call succeeded');
    },
    (error: unknown) => {
      if (!(error instanceof PetStoreError)) throw error;
      return error;
    },
  );

test("createPet that gives up after the gateway's 500s carries its key; calling again with it stores one pet", async () => {
  const name = `gave-up-${Date.now()}`;
  const error = await failureOf(client().createPet({ name, categoryId: 1 }));
  expect(error).toMatchObject({ operation: 'createPet', status: 500, attempts: GIVE_UP.length });
  expect(error.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
  expect(proxy.hits.get(error.idempotencyKey ?? '')).toBe(GIVE_UP.length);

  const pet = await client().createPet({ name, categoryId: 1 }, { idempotencyKey: error.idempotencyKey ?? '' });
  const stored = (await api.scan('pets')).filter((item) => item.name === name);
  expect(stored.map((item) => item.id)).toEqual([pet.id]);
});

test("submitMessage that gives up carries the caller's own key; calling again with it stores one message", async () => {
  const idempotencyKey = `gave-up-${Date.now()}`;
  const text = `message ${idempotencyKey}`;
  const error = await failureOf(client().submitMessage(text, { idempotencyKey }));
  expect(error).toMatchObject({ operation: 'submitMessage', idempotencyKey, status: 500 });

  const message = await client().submitMessage(text, { idempotencyKey });
  const stored = (await api.scan('messages')).filter((item) => item.message === text);
  expect(stored.map((item) => item.id)).toEqual([message.id]);
});
