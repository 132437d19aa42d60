/**
 * The stage check's key (lambda/data/stage-check-key.ts) on the suite's DynamoDB: minted when its secret holds none,
 * kept afterwards, and replaced by `npm run keys -- rotate-stage-check`, which revokes the key it replaces.
 */
import { hashApiKey, isWellFormedApiKey } from '#auth/api-keys';
import { createDocumentClient } from '#data/dynamodb-client';
import { DynamoApiKeyRepository } from '#data/repositories/api-key-repository';
import { rotateStageCheckKey, STAGE_CHECK_ACCOUNT_ID, stageCheckKey, type KeySecret } from '#data/stage-check-key';
import { freshTables } from '../support/local-dynamodb';

let keys: DynamoApiKeyRepository;
beforeAll(async () => {
  const { endpoint, tableNames } = await freshTables();
  keys = new DynamoApiKeyRepository(createDocumentClient(endpoint), tableNames.apiKeys);
});

/** The secret as a fresh stack leaves it: a value Secrets Manager generated. */
const freshSecret = (): KeySecret & { value: string } => {
  const secret = {
    value: 'x7Hk2-generated-by-secrets-manager',
    read: () => Promise.resolve(secret.value),
    write: (key: string) => {
      secret.value = key;
      return Promise.resolve();
    },
  };
  return secret;
};

it("a fresh stage's check mints a live key of its own account, keeps it in the secret, and uses it from then on", async () => {
  const secret = freshSecret();
  const key = await stageCheckKey(secret, keys);
  expect(isWellFormedApiKey(key)).toBe(true);
  expect(secret.value).toBe(key);
  const record = await keys.findByHash(hashApiKey(key));
  expect(record).toMatchObject({ accountId: STAGE_CHECK_ACCOUNT_ID });
  expect(record?.revokedAt).toBeUndefined();
  await expect(stageCheckKey(secret, keys)).resolves.toBe(key);
});

it('rotation puts a new live key in the secret and revokes the one it replaces', async () => {
  const secret = freshSecret();
  const before = await stageCheckKey(secret, keys);
  const rotated = await rotateStageCheckKey(secret, keys);
  expect(secret.value).not.toBe(before);
  expect(await keys.findByHash(hashApiKey(secret.value))).toMatchObject({ keyId: rotated.keyId, accountId: STAGE_CHECK_ACCOUNT_ID });
  const old = await keys.findByHash(hashApiKey(before));
  expect(rotated.revokedKeyId).toBe(old?.keyId);
  expect(old?.revokedAt).toEqual(expect.any(String));
});

it('rotation on a secret that holds no key yet mints one and revokes nothing', async () => {
  const secret = freshSecret();
  const rotated = await rotateStageCheckKey(secret, keys);
  expect(rotated.revokedKeyId).toBeUndefined();
  expect(isWellFormedApiKey(secret.value)).toBe(true);
});
