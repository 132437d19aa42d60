/**
 * The account lifecycle under pressure, through the account API (handlers in process, users in the Cognito
 * emulator): deletion racing key creation leaves no working key, an account's history never makes an
 * operation read more, and creation per day is bounded. Every pets call runs a fresh authorizer (no cache),
 * as past the documented revocation window.
 */
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { issueApiKey } from '#auth/api-keys';
import { revokedKeyItem } from '#data/repositories/api-key-repository';
import { LISTED_REVOKED_KEYS_MAX, MAX_KEYS_CREATED_PER_DAY, REVOKED_KEYS_LISTED_FOR_DAYS } from '#contract/account-limits';
import { cognitoCall, newUser, signIn, type SignedIn } from '../support/cognito-users';
import { expectError, useTestApi } from '../support/test-api';

const api = useTestApi({ accounts: true, freshAuthorizer: true });

const accounts = () => {
  if (!api.accounts) throw new Error('the test API runs without accounts');
  return api.accounts;
};

const DAY_MS = 24 * 60 * 60 * 1000;
const CREATES_PER_ROUND = 12;
const ROUNDS = 8;

const createKey = (user: SignedIn, description: string) =>
  api.call('POST', '/account/keys', { key: user.accessToken, json: { description } });

test(`DELETE /account among ${CREATES_PER_ROUND} parallel key creations, ${ROUNDS} rounds: no key created in the race works afterwards`, async () => {
  const survivors: string[] = [];
  let acknowledged = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const user = await newUser(accounts());
    // The deletion starts after a different number of creates each round, so it lands at every stage of theirs.
    const creates = Array.from({ length: CREATES_PER_ROUND }, (_, index) => createKey(user, `race ${index}`));
    const deletion = (async () => {
      await Promise.all(creates.slice(0, round % CREATES_PER_ROUND));
      return api.call('DELETE', '/account', { key: user.accessToken });
    })();
    const [answers, deleted] = await Promise.all([Promise.all(creates), deletion]);
    expect(deleted.status).toBe(204);
    for (const answer of answers) {
      // Each create either won before the deletion (201), or was refused as the account's (401), or at the cap (409).
      expect([201, 401, 409]).toContain(answer.status);
      if (answer.status !== 201) continue;
      acknowledged++;
      const { key } = answer.json as { key: string };
      const pets = await api.call('GET', '/v1/pets', { key });
      if (pets.status !== 401) survivors.push(`round ${round}: ${key.slice(0, 10)}… answered ${pets.status}`);
    }
  }
  expect(acknowledged).toBeGreaterThan(0);
  expect(survivors).toEqual([]);
}, 120_000);

describe('an account with a long history', () => {
  const HISTORY = 2_000;
  let user: SignedIn;
  let recentlyRevokedIds: string[];

  beforeAll(async () => {
    user = await newUser(accounts());
    const now = Date.now();
    const item = (index: number, revokedAt: Date) => {
      const { record } = issueApiKey({ accountId: user.sub, description: `old ${index}`, now: new Date(revokedAt.getTime() - DAY_MS) });
      return revokedKeyItem(record, revokedAt);
    };
    // Half revoked within the listing window (one minute apart, newest first), half long ago (awaiting TTL).
    const recent = Array.from({ length: HISTORY / 2 }, (_, index) => item(index, new Date(now - (index + 1) * 60_000)));
    const old = Array.from({ length: HISTORY / 2 }, (_, index) =>
      item(index, new Date(now - (REVOKED_KEYS_LISTED_FOR_DAYS + 1) * DAY_MS - index * 60_000)),
    );
    const items = [...recent, ...old];
    for (let start = 0; start < items.length; start += 25) {
      const batch = items.slice(start, start + 25).map((Item) => ({ PutRequest: { Item } }));
      const { UnprocessedItems } = await api.db.send(new BatchWriteCommand({ RequestItems: { [api.tableNames.apiKeys]: batch } }));
      expect(Object.keys(UnprocessedItems ?? {})).toEqual([]);
    }
    recentlyRevokedIds = recent.map((record) => record.keyId as string);
  }, 60_000);

  test(`the listing shows the active keys and the ${LISTED_REVOKED_KEYS_MAX} most recently revoked, whatever the history`, async () => {
    const created = await createKey(user, 'current');
    expect(created.status).toBe(201);
    const listed = await api.call('GET', '/account/keys', { key: user.accessToken });
    expect(listed.status).toBe(200);
    const { keys } = listed.json as { keys: { keyId: string; status: string }[] };
    expect(keys.filter((key) => key.status === 'active').map((key) => key.keyId)).toEqual([(created.json as { keyId: string }).keyId]);
    expect(keys.filter((key) => key.status === 'revoked').map((key) => key.keyId)).toEqual(
      recentlyRevokedIds.slice(0, LISTED_REVOKED_KEYS_MAX),
    );
    // A bounded answer: the whole history would be hundreds of kilobytes.
    expect(listed.text.length).toBeLessThan(20_000);
  });

  test('revoking a key revoked long ago answers 404 (it is past its listing); a listed one answers its first revocation', async () => {
    const beyond = recentlyRevokedIds[HISTORY / 2 - 1] ?? '';
    expectError(await api.call('DELETE', `/account/keys/${beyond}`, { key: user.accessToken }), 404, 'not_found');
    const listedId = recentlyRevokedIds[0] ?? '';
    const again = await api.call('DELETE', `/account/keys/${listedId}`, { key: user.accessToken });
    expect(again.status).toBe(200);
    expect((again.json as { keyId: string; status: string }).status).toBe('revoked');
  });

  test('deleting the account revokes its active keys and answers 204', async () => {
    const created = await createKey(user, 'to be revoked');
    expect(created.status).toBe(201);
    const { key } = created.json as { key: string };
    expect((await api.call('DELETE', '/account', { key: user.accessToken })).status).toBe(204);
    expectError(await api.call('GET', '/v1/pets', { key }), 401, 'unauthorized');
  });
});

test(`creating more than ${MAX_KEYS_CREATED_PER_DAY} keys in a UTC day answers 429 daily_key_limit_reached with Retry-After, and stores nothing`, async () => {
  const user = await newUser(accounts());
  for (let index = 0; index < MAX_KEYS_CREATED_PER_DAY; index++) {
    const created = await createKey(user, `key ${index}`);
    expect(created.status).toBe(201);
    // Revoked at once, so the cap on active keys is never what refuses.
    const { keyId } = created.json as { keyId: string };
    expect((await api.call('DELETE', `/account/keys/${keyId}`, { key: user.accessToken })).status).toBe(200);
  }
  const before = (await api.scan('apiKeys')).filter((item) => item.accountId === user.sub).length;
  const refused = await createKey(user, 'one too many');
  expectError(refused, 429, 'daily_key_limit_reached');
  const retryAfter = Number(refused.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(24 * 60 * 60);
  expect((await api.scan('apiKeys')).filter((item) => item.accountId === user.sub)).toHaveLength(before);
});

test(`4 keys created count as 4: listed active, and ${MAX_KEYS_CREATED_PER_DAY - 4} more creates allowed that day`, async () => {
  const user = await newUser(accounts());
  for (let index = 0; index < 4; index++) expect((await createKey(user, `kept ${index}`)).status).toBe(201);
  const listed = await api.call('GET', '/account/keys', { key: user.accessToken });
  const { keys } = listed.json as { keys: { keyId: string; status: string }[] };
  expect(keys.filter((key) => key.status === 'active')).toHaveLength(4);
  let more = 0;
  for (let created = await createKey(user, 'more'); created.status === 201; created = await createKey(user, 'more')) {
    more++;
    const { keyId } = created.json as { keyId: string };
    expect((await api.call('DELETE', `/account/keys/${keyId}`, { key: user.accessToken })).status).toBe(200);
  }
  expect(more).toBe(MAX_KEYS_CREATED_PER_DAY - 4);
});

test("Cognito's own DeleteUser is refused as the stage's WAF refuses it: the user and their keys stay, and DELETE /account is the way", async () => {
  const user = await newUser(accounts());
  const created = await createKey(user, 'kept');
  expect(created.status).toBe(201);
  const deleted = await cognitoCall(accounts().cognito.endpoint, 'DeleteUser', { AccessToken: user.accessToken });
  expect(deleted.json).toMatchObject({ __type: 'ForbiddenException' });
  await expect(signIn(accounts(), user.email, user.password)).resolves.toMatchObject({ accessToken: expect.any(String) });
  expect((await api.call('GET', '/v1/pets', { key: (created.json as { key: string }).key })).status).toBe(200);
});
