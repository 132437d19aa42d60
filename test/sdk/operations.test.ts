/**
 * Every operation of the pets and messages APIs through the SDK, against the local server (each API on its own
 * base URL), with every answer held to the OpenAPI documents: creates, listings followed page by page, the
 * deprecated getPet and its one warning, and the service's errors as typed, narrowable `ServiceError`s.
 */
import { GatewayError, isServiceError, PetStoreClient, PetStoreError, ServiceError, type Pet } from '../../clients/typescript/src/index.ts';
import { contractCheckedFetch, expectNoContractProblems } from './support/contract-checked-fetch';
import { failureOf, petStoreClient } from './support/local-clients';
import { useTestApi } from '../support/test-api';

const api = useTestApi();
afterEach(expectNoContractProblems);

// getPet's deprecation warning, kept out of the test output; the test about it reads what was emitted.
let warnings: jest.SpyInstance;
beforeEach(() => {
  warnings = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
});
afterEach(() => warnings.mockRestore());

const client = (apiKey = api.key): PetStoreClient => petStoreClient(api, apiKey);

test('createPet answers the stored pet; status defaults to available; the pet is stored once', async () => {
  const name = `sdk-create-${Date.now()}`;
  const pet = await client().createPet({ name, categoryId: 3 });
  expect(pet).toEqual({ id: expect.any(Number), name, categoryId: 3, status: 'available' });
  const sold = await client().createPet({ name: `${name}-sold`, categoryId: 3, status: 'sold' });
  expect(sold.status).toBe('sold');
  expect((await api.scan('pets')).filter((item) => item.name === name)).toHaveLength(1);
});

test('createPet with an idempotencyKey given twice stores one pet and answers it both times', async () => {
  const idempotencyKey = `sdk-key-${Date.now()}`;
  const name = `sdk-replay-${Date.now()}`;
  const first = await client().createPet({ name, categoryId: 1 }, { idempotencyKey });
  const again = await client().createPet({ name, categoryId: 1 }, { idempotencyKey });
  expect(again).toEqual(first);
  expect((await api.scan('pets')).filter((item) => item.name === name)).toHaveLength(1);
});

test('listPets iterates every page, following Link; listPetsPage hands out the cursor', async () => {
  const created: Pet[] = [];
  for (let index = 0; index < 7; index++)
    created.push(await client().createPet({ name: `sdk-paged-${index}`, categoryId: 9, status: 'pending' }));

  const listed: Pet[] = [];
  for await (const pet of client().listPets({ status: 'pending', pageSize: 2 })) listed.push(pet);
  // A filtered listing is in creation order; other files' pets live in other tables.
  expect(listed).toEqual(created);

  const first = await client().listPetsPage({ status: 'pending', pageSize: 3 });
  expect(first.pets).toEqual(created.slice(0, 3));
  expect(first.nextCursor).toEqual(expect.any(String));
  const second = await client().listPetsPage({ status: 'pending', pageSize: 3, ...(first.nextCursor ? { cursor: first.nextCursor } : {}) });
  expect(second.pets).toEqual(created.slice(3, 6));
  const last = await client().listPetsPage({ status: 'pending', pageSize: 100 });
  expect(last).toEqual({ pets: created, nextCursor: undefined });
});

test('getPet answers the pet and, deprecated, warns once per process with the Sunset date', async () => {
  const pet = await client().createPet({ name: 'sdk-get', categoryId: 2 });
  // A fresh copy of the SDK: the warning is once per process, and other tests of this file may have had it.
  let Fresh: typeof PetStoreClient | undefined;
  await jest.isolateModulesAsync(async () => {
    ({ PetStoreClient: Fresh } = await import('../../clients/typescript/src/index.ts'));
  });
  if (!Fresh) throw new Error('the SDK did not load');
  const fresh = new Fresh({ petsBaseUrl: api.petsBaseUrl, messagesBaseUrl: api.origin, apiKey: api.key, fetch: contractCheckedFetch });
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- the deprecated call is what this test is about
  expect(await fresh.getPet(pet.id)).toEqual(pet);
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- again: no second warning
  expect(await fresh.getPet(pet.id)).toEqual(pet);
  const another = new Fresh({ petsBaseUrl: api.petsBaseUrl, messagesBaseUrl: api.origin, apiKey: api.key, fetch: contractCheckedFetch });
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- nor on another client
  await expect(another.getPet(pet.id)).resolves.toEqual(pet);
  expect(warnings.mock.calls).toEqual([
    [
      expect.stringMatching(/getPet\(\) is deprecated: .*2030-12-05 \(Sunset: Thu, 05 Dec 2030 00:00:00 GMT\)/),
      { type: 'DeprecationWarning', code: 'PETSTORE_DEPRECATED_OPERATION' },
    ],
  ]);
});

test('submitMessage goes to the messages base URL and answers the queued message, stored once', async () => {
  const text = `hello from the SDK ${Date.now()}`;
  const message = await client().submitMessage(text);
  expect(message).toEqual({
    id: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/),
    message: text,
    status: 'queued',
    createdAt: expect.any(String),
  });
  expect((await api.scan('messages')).filter((item) => item.id === message.id)).toHaveLength(1);
});

test('fromStackOutputs takes the outputs as an object or as DescribeStacks lists them', async () => {
  const fromObject = PetStoreClient.fromStackOutputs(
    { PetsBaseUrl: api.petsBaseUrl, MessagesBaseUrl: api.origin, TableName: 'x' },
    api.key,
    {
      fetch: contractCheckedFetch,
    },
  );
  const fromList = PetStoreClient.fromStackOutputs(
    [
      { OutputKey: 'PetsBaseUrl', OutputValue: `${api.petsBaseUrl}/` },
      { OutputKey: 'MessagesBaseUrl', OutputValue: api.origin },
    ],
    api.key,
    { fetch: contractCheckedFetch },
  );
  const pet = await fromObject.createPet({ name: 'sdk-outputs', categoryId: 1 });
  await expect(fromList.submitMessage(`pet ${pet.id} added`)).resolves.toMatchObject({ status: 'queued' });
  expect(() => PetStoreClient.fromStackOutputs({ PetsBaseUrl: api.petsBaseUrl }, api.key)).toThrow(
    'the stack outputs have no MessagesBaseUrl',
  );
});

describe("the service's errors, typed", () => {
  test('400 invalid_request for a page size out of range, narrowed to the codes listPets can answer', async () => {
    const error = await failureOf(client().listPetsPage({ pageSize: 0 }));
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toBeInstanceOf(PetStoreError);
    if (!isServiceError(error, 'listPets')) throw new Error('expected a listPets error');
    expect({ status: error.status, code: error.code, attempts: error.attempts }).toEqual({
      status: 400,
      code: 'invalid_request',
      attempts: 1,
    });
    expect(error.message).toMatch(/limit/);
    expect(error.requestId).toEqual(expect.any(String));
  });

  test('400 invalid_request names the field of a NewPet the service refuses', async () => {
    const error = await failureOf(client().createPet({ name: ' ', categoryId: 1 }));
    expect(isServiceError(error, 'createPet') && error.code === 'invalid_request').toBe(true);
    expect((error as ServiceError).message).toMatch(/name/);
  });

  test('401 unauthorized for an unknown key, on both APIs', async () => {
    const stranger = client('pst_unknownunknownunknownunknownunknownunknownunknown1');
    for (const error of [await failureOf(stranger.createPet({ name: 'x', categoryId: 1 })), await failureOf(stranger.submitMessage('x'))]) {
      expect(error).toBeInstanceOf(ServiceError);
      expect(error).toMatchObject({ status: 401, code: 'unauthorized', attempts: 1 });
    }
  });

  test('404 not_found for a pet that does not exist', async () => {
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- getPet is the operation that answers not_found
    const error = await failureOf(client().getPet(9_007_199_254_740_991));
    if (!isServiceError(error, 'getPet')) throw new Error('expected a getPet error');
    switch (error.code) {
      case 'not_found':
        expect(error.status).toBe(404);
        break;
      default:
        throw new Error(`unexpected code ${error.code}`);
    }
    expect(isServiceError(error, 'listPets')).toBe(false);
    expect(error).not.toBeInstanceOf(GatewayError);
  });

  test('422 idempotency_key_reused: the same key with another body', async () => {
    const idempotencyKey = `sdk-reused-${Date.now()}`;
    await client().submitMessage('first', { idempotencyKey });
    const error = await failureOf(client().submitMessage('second', { idempotencyKey }));
    expect(isServiceError(error, 'submitMessage') && error.code === 'idempotency_key_reused').toBe(true);
    expect(error).toMatchObject({ status: 422, attempts: 1 });
  });
});
