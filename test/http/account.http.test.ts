/**
 * The account API through the local server, with users signed up and signed in through the Cognito
 * emulator (cognito-local) exactly as the portal page does it. Every answer is held to
 * docs/openapi/account.json (and GET /v1/pets to docs/openapi/pets.json) by the test API.
 *
 * The authorizer of the pets API caches key lookups for 60 s per instance; this file runs every
 * request's authorizer as a fresh instance (test API option `freshAuthorizer`), as after a cold start
 * or past the cache window, so a revoked key is refused at once here.
 */
import { MAX_ACTIVE_KEYS_PER_ACCOUNT } from '#contract/account-limits';
import { hashApiKey } from '#auth/api-keys';
import {
  claimsOf,
  cognitoCall,
  expectKeyCreatedThenListed,
  forgedToken,
  newUser,
  signIn,
  tokenSignedByEmulator,
  type SignedIn,
} from '../support/cognito-users';
import { expectError, expectRefusedUnchanged, useTestApi, type ApiAnswer, type Refusal } from '../support/test-api';

const api = useTestApi({ accounts: true, freshAuthorizer: true });

const accounts = () => {
  if (!api.accounts) throw new Error('the test API runs without accounts');
  return api.accounts;
};

/** POST /account/keys with this token is refused so, and no key is stored. */
const expectCreateRefused = (token: string, description: string, refusal: Refusal) =>
  expectRefusedUnchanged(api, 'apiKeys', () => api.call('POST', '/account/keys', { key: token, json: { description } }), refusal);

interface CreatedKey {
  readonly key: string;
  readonly keyId: string;
  readonly description: string;
  readonly status: string;
  readonly createdAt: string;
}

const listKeys = async (user: SignedIn) => {
  const answer = await api.call('GET', '/account/keys', { key: user.accessToken });
  expect(answer.status).toBe(200);
  return answer.json as { keys: { keyId: string; status: string; revokedAt?: string; lastUsedAt?: string }[]; maxActiveKeys: number };
};

const createKey = async (user: SignedIn, description = 'test key'): Promise<CreatedKey> => {
  const answer = await api.call('POST', '/account/keys', { key: user.accessToken, json: { description } });
  expect(answer.status).toBe(201);
  return answer.json as CreatedKey;
};

/** The gateway's own refusal: API Gateway's JWT authorizer answers before any function runs. */
function expectGatewayUnauthorized(answer: ApiAnswer): void {
  expect({ status: answer.status, body: answer.json }).toEqual({ status: 401, body: { message: 'Unauthorized' } });
  expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer/);
  expect(answer.headers.get('cache-control')).toBeNull();
}

let alice: SignedIn;
let bob: SignedIn;
beforeAll(async () => {
  [alice, bob] = await Promise.all([newUser(accounts()), newUser(accounts())]);
}, 30_000);

describe('tokens the gateway refuses with its own 401 {"message":"Unauthorized"}', () => {
  test('GET /account/keys without a token', async () => {
    expectGatewayUnauthorized(await api.call('GET', '/account/keys', { key: null }));
  });

  test('POST /account/keys with an expired access token (signed by the user pool) stores nothing', async () => {
    const { exp: _exp, ...claims } = claimsOf(alice.accessToken);
    const expired = await tokenSignedByEmulator(claims, Math.floor(Date.now() / 1000) - 5);
    const before = await api.scan('apiKeys');
    const answer = await api.call('POST', '/account/keys', { key: expired, json: { description: 'never stored' } });
    expectGatewayUnauthorized(answer);
    expect(answer.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(await api.scan('apiKeys')).toEqual(before);
  });

  test('an access token of another app client (wrong audience)', async () => {
    const { endpoint, userPoolId } = accounts().cognito;
    const other = await cognitoCall(endpoint, 'CreateUserPoolClient', {
      UserPoolId: userPoolId,
      ClientName: 'another-app',
      ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
    });
    const clientId = (other.json.UserPoolClient as { ClientId: string }).ClientId;
    const { accessToken } = await signIn(accounts(), alice.email, alice.password, clientId);
    const answer = await api.call('GET', '/account/keys', { key: accessToken });
    expectGatewayUnauthorized(answer);
    expect(answer.headers.get('www-authenticate')).toContain('the token does not have a valid audience');
  });

  test('a token not signed by the user pool (forged), a malformed one, and another scheme', async () => {
    const { exp: _exp, ...claims } = claimsOf(alice.accessToken);
    const forged = await forgedToken(claims, Math.floor(Date.now() / 1000) + 600);
    expectGatewayUnauthorized(await api.call('GET', '/account/keys', { key: forged }));
    expectGatewayUnauthorized(await api.call('GET', '/account/keys', { key: 'not-a-jwt' }));
    expectGatewayUnauthorized(
      await api.call('DELETE', '/account', { key: null, headers: { authorization: `Basic ${alice.accessToken}` } }),
    );
  });

  test('an unknown account API route without a token', async () => {
    expectGatewayUnauthorized(await api.call('GET', '/account/nothing-here', { key: null }));
  });
});

test('an ID token passes the gateway (same client) but the service answers 401 unauthorized: only access tokens are accepted', async () => {
  await expectCreateRefused(alice.idToken, 'x', { status: 401, code: 'unauthorized', message: /access token/ });
});

test('an unknown account API route answers 404 not_found with a valid token', async () => {
  expectError(await api.call('PUT', '/account/keys', { key: alice.accessToken }), 404, 'not_found');
});

test('POST /account/keys answers the key once; GET lists it without the key; the key works on GET /v1/pets', async () => {
  const user = await newUser(accounts());
  const created = await createKey(user, 'CI pipeline');
  const listed = await listKeys(user);
  expectKeyCreatedThenListed(created, listed, 'CI pipeline');
  expect(JSON.stringify(listed)).not.toContain(created.key);
  // Stored under the user's sub, as the hash only.
  const stored = await api.keys.findByHash(hashApiKey(created.key));
  expect(stored).toMatchObject({ accountId: user.sub, keyId: created.keyId });
  expect(JSON.stringify(await api.scan('apiKeys'))).not.toContain(created.key);

  expect((await api.call('GET', '/v1/pets', { key: created.key })).status).toBe(200);
});

test.each([
  ['no description', {}, /'description' is required/],
  ['a blank description', { description: '   ' }, /must not be blank/],
  ['an unknown field', { description: 'x', accountId: 'someone-else' }, /unknown field 'accountId'/],
])('POST /account/keys with %s answers 400 invalid_request and stores nothing', async (_label, json, message) => {
  await expectRefusedUnchanged(api, 'apiKeys', () => api.call('POST', '/account/keys', { key: alice.accessToken, json }), {
    status: 400,
    code: 'invalid_request',
    message,
  });
});

test('DELETE /account/keys/{keyId} revokes the key: GET /v1/pets refuses it; revoking again answers the same first revocation', async () => {
  const user = await newUser(accounts());
  const created = await createKey(user);
  expect((await api.call('GET', '/v1/pets', { key: created.key })).status).toBe(200);

  const revoked = await api.call('DELETE', `/account/keys/${created.keyId}`, { key: user.accessToken });
  expect(revoked.status).toBe(200);
  // Used once on GET /v1/pets: the authorizer noted it (lastUsedAt), then the key was revoked.
  expect(revoked.json).toEqual({
    ...created,
    key: undefined,
    status: 'revoked',
    revokedAt: expect.any(String),
    lastUsedAt: expect.any(String),
  });

  const refused = await api.call('GET', '/v1/pets', { key: created.key });
  expectError(refused, 401, 'unauthorized');
  expect((refused.json as { message: string }).message).toBe('the API key has been revoked');

  const again = await api.call('DELETE', `/account/keys/${created.keyId}`, { key: user.accessToken });
  expect({ status: again.status, body: again.json }).toEqual({ status: 200, body: revoked.json });
  expect((await listKeys(user)).keys).toEqual([expect.objectContaining({ keyId: created.keyId, status: 'revoked' })]);
});

test("another user's key id answers 404 not_found exactly like an unknown one, and the key keeps working", async () => {
  const bobsKey = await createKey(bob);
  const foreign = await api.call('DELETE', `/account/keys/${bobsKey.keyId}`, { key: alice.accessToken });
  const unknown = await api.call('DELETE', '/account/keys/key_0000000000000000', { key: alice.accessToken });
  expectError(foreign, 404, 'not_found');
  expectError(unknown, 404, 'not_found');
  const withoutId = (answer: ApiAnswer) => (answer.json as { message: string }).message.replace(/key_\w+/, 'ID');
  expect(withoutId(foreign)).toBe(withoutId(unknown));
  expect((await api.call('GET', '/v1/pets', { key: bobsKey.key })).status).toBe(200);
  expect((await listKeys(bob)).keys).toContainEqual(expect.objectContaining({ keyId: bobsKey.keyId, status: 'active' }));
});

test('DELETE /account/keys/{keyId} with a malformed id answers 400 invalid_request', async () => {
  expectError(await api.call('DELETE', '/account/keys/not%20a%20key', { key: alice.accessToken }), 400, 'invalid_request');
});

test(`the cap: concurrent creates never pass ${MAX_ACTIVE_KEYS_PER_ACCOUNT} active keys; the next answers 409 key_limit_reached and stores nothing; revoking frees a place`, async () => {
  const user = await newUser(accounts());
  for (let index = 0; index < MAX_ACTIVE_KEYS_PER_ACCOUNT - 3; index++) await createKey(user, `key ${index}`);
  const racing = await Promise.all(
    Array.from({ length: 6 }, (_, index) =>
      api.call('POST', '/account/keys', { key: user.accessToken, json: { description: `race ${index}` } }),
    ),
  );
  expect(racing.map((answer) => answer.status).sort()).toEqual([201, 201, 201, 409, 409, 409]);
  for (const refused of racing.filter((answer) => answer.status === 409)) expectError(refused, 409, 'key_limit_reached');
  expect((await listKeys(user)).keys.filter((key) => key.status === 'active')).toHaveLength(MAX_ACTIVE_KEYS_PER_ACCOUNT);

  await expectCreateRefused(user.accessToken, 'one too many', {
    status: 409,
    code: 'key_limit_reached',
    message: new RegExp(`${MAX_ACTIVE_KEYS_PER_ACCOUNT} active keys`),
  });

  const [oldest] = (await listKeys(user)).keys.slice(-1);
  expect((await api.call('DELETE', `/account/keys/${oldest?.keyId ?? ''}`, { key: user.accessToken })).status).toBe(200);
  await createKey(user, 'fits again');
}, 30_000);

test('a key used on GET /v1/pets shows when in the listing (the authorizer notes it on a cache miss)', async () => {
  const user = await newUser(accounts());
  const created = await createKey(user);
  expect((await listKeys(user)).keys[0]?.lastUsedAt).toBeUndefined();
  const before = Date.now();
  expect((await api.call('GET', '/v1/pets', { key: created.key })).status).toBe(200);
  const lastUsedAt = (await listKeys(user)).keys[0]?.lastUsedAt;
  expect(Date.parse(lastUsedAt ?? '')).toBeGreaterThanOrEqual(before - 1_000);
});

test('lastUsedAt appears once a use is recorded, and is written at most once an hour', async () => {
  const user = await newUser(accounts());
  const created = await createKey(user);
  const record = await api.keys.findByHash(hashApiKey(created.key));
  if (!record) throw new Error('the key was not stored');
  const firstUse = new Date();
  await api.keys.recordUse(record, firstUse);
  await api.keys.recordUse({ keyHash: record.keyHash }, new Date(firstUse.getTime() + 10 * 60 * 1000));
  expect((await listKeys(user)).keys[0]?.lastUsedAt).toBe(firstUse.toISOString());
  const anHourLater = new Date(firstUse.getTime() + 61 * 60 * 1000);
  await api.keys.recordUse({ keyHash: record.keyHash }, anHourLater);
  expect((await listKeys(user)).keys[0]?.lastUsedAt).toBe(anHourLater.toISOString());
});

test('DELETE /account revokes every key and deletes the user: sign-in fails, the keys are refused, the old token creates nothing', async () => {
  const user = await newUser(accounts());
  const [first, second] = [await createKey(user), await createKey(user)];
  const deleted = await api.call('DELETE', '/account', { key: user.accessToken });
  expect({ status: deleted.status, body: deleted.text }).toEqual({ status: 204, body: '' });

  for (const { key } of [first, second]) expectError(await api.call('GET', '/v1/pets', { key }), 401, 'unauthorized');
  await expect(signIn(accounts(), user.email, user.password)).rejects.toThrow(/InitiateAuth/);
  // The access token is still valid until it expires (JWTs are not recalled), but the account is closed.
  await expectCreateRefused(user.accessToken, 'after', { status: 401, code: 'unauthorized', message: /deleted/ });
  // Repeating the deletion is harmless.
  expect((await api.call('DELETE', '/account', { key: user.accessToken })).status).toBe(204);
});
