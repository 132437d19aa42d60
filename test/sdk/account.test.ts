/**
 * The account API through `AccountClient`, for users signed up and signed in through the Cognito emulator as the
 * portal does it: keys listed, created (and then working with `PetStoreClient`), revoked (and then refused), the
 * account deleted; the gateway's 401 for a bad token as a `GatewayError`; the service's codes narrowed.
 *
 * The pets API's authorizer caches key lookups for 60 s per instance; as in test/http/account.http.test.ts, every
 * request's authorizer runs as a fresh instance (`freshAuthorizer`), so a revoked key is refused at once.
 */
import { MAX_ACTIVE_KEYS_PER_ACCOUNT } from '#contract/account-limits';
import { AccountClient, GatewayError, isServiceError, ServiceError, type AccessTokenSource } from '../../clients/typescript/src/index.ts';
import { contractCheckedFetch, expectNoContractProblems } from './support/contract-checked-fetch';
import { failureOf, petStoreClient } from './support/local-clients';
import { claimsOf, expectKeyCreatedThenListed, newUser, signIn, tokenSignedByEmulator } from '../support/cognito-users';
import { useTestApi } from '../support/test-api';

const api = useTestApi({ accounts: true, freshAuthorizer: true });
afterEach(expectNoContractProblems);

const accounts = () => {
  if (!api.accounts) throw new Error('the test API runs without accounts');
  return api.accounts;
};

const accountClient = (accessToken: AccessTokenSource): AccountClient =>
  new AccountClient({ accountBaseUrl: api.origin, accessToken, fetch: contractCheckedFetch });

test('a key created through AccountClient is listed (without the key) and works with PetStoreClient; revoked, it is refused', async () => {
  const user = await newUser(accounts());
  const account = accountClient(user.accessToken);

  const created = await account.createKey('SDK test');
  const listed = await account.listKeys();
  expectKeyCreatedThenListed(created, listed, 'SDK test');

  const pets = petStoreClient(api, created.key);
  const pet = await pets.createPet({ name: 'made with a portal key', categoryId: 1 });
  await expect(pets.submitMessage(`added ${pet.id}`)).resolves.toMatchObject({ status: 'queued' });

  const revoked = await account.revokeKey(created.keyId);
  expect(revoked).toMatchObject({ keyId: created.keyId, status: 'revoked', revokedAt: expect.any(String) });
  const refused = await failureOf(pets.listPetsPage());
  expect(isServiceError(refused, 'listPets') && refused.code === 'unauthorized').toBe(true);
  expect(refused).toMatchObject({ status: 401, message: expect.stringContaining('revoked') });
  // Revoking again answers the first revocation.
  await expect(account.revokeKey(created.keyId)).resolves.toEqual(revoked);
}, 30_000);

test('the access token may come from a function, asked once per call', async () => {
  const user = await newUser(accounts());
  const token = jest.fn(() => Promise.resolve(user.accessToken));
  const account = accountClient(token);
  await account.listKeys();
  await account.createKey('from a token function');
  expect(token).toHaveBeenCalledTimes(2);
});

test("revoking a key the account does not have: not_found, narrowed to revokeAccountKey's codes", async () => {
  const user = await newUser(accounts());
  const error = await failureOf(accountClient(user.accessToken).revokeKey('key_0000000000000000'));
  if (!isServiceError(error, 'revokeAccountKey')) throw new Error('expected a revokeAccountKey error');
  expect({ code: error.code, status: error.status, attempts: error.attempts }).toEqual({ code: 'not_found', status: 404, attempts: 1 });
});

test(`past ${MAX_ACTIVE_KEYS_PER_ACCOUNT} active keys createKey fails with key_limit_reached (409), not retried`, async () => {
  const user = await newUser(accounts());
  const account = accountClient(user.accessToken);
  for (let index = 0; index < MAX_ACTIVE_KEYS_PER_ACCOUNT; index++) await account.createKey(`key ${index}`);
  const error = await failureOf(account.createKey('one too many'));
  expect(isServiceError(error, 'createAccountKey') && error.code === 'key_limit_reached').toBe(true);
  expect(error).toMatchObject({ status: 409, attempts: 1 });
}, 30_000);

test('a description the service refuses: invalid_request', async () => {
  const user = await newUser(accounts());
  const error = await failureOf(accountClient(user.accessToken).createKey('   '));
  expect(error).toBeInstanceOf(ServiceError);
  expect(error).toMatchObject({ status: 400, code: 'invalid_request', operation: 'createAccountKey' });
});

test("a token the gateway refuses is API Gateway's 401, a GatewayError, never retried", async () => {
  const user = await newUser(accounts());
  const { exp: _exp, ...claims } = claimsOf(user.accessToken);
  const expired = await tokenSignedByEmulator(claims, Math.floor(Date.now() / 1000) - 5);
  for (const token of ['not-a-jwt', expired]) {
    const error = await failureOf(accountClient(token).listKeys());
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ status: 401, attempts: 1, operation: 'listAccountKeys' });
    expect((error as GatewayError).message).toContain('Unauthorized');
  }
});

test('an API key in the access token slot is refused before any request', () => {
  expect(() => accountClient(api.key)).toThrow(/API key/);
});

test('deleteAccount revokes every key and deletes the user', async () => {
  const user = await newUser(accounts());
  const account = accountClient(user.accessToken);
  const { key } = await account.createKey('doomed');
  await expect(account.deleteAccount()).resolves.toBeUndefined();
  await expect(petStoreClient(api, key).listPetsPage()).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
  await expect(signIn(accounts(), user.email, user.password)).rejects.toThrow(/InitiateAuth/);
}, 30_000);
