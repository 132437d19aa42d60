/**
 * The deployed authorizer's handler, in process, on the local DynamoDB, counting the DynamoDB calls it
 * makes through the SDK's own middleware stack: an anonymous flood of made-up keys costs no table read.
 */
import type { APIGatewayRequestAuthorizerEventV2 } from 'aws-lambda';
import { randomBytes } from 'node:crypto';
import { API_KEY_LENGTH, generateApiKey, issueApiKey } from '#auth/api-keys';
import { documentClient, dynamoDbClient } from '#data/dynamodb-client';
import { DynamoApiKeyRepository } from '#data/repositories/api-key-repository';
import { freshTables } from '../support/local-dynamodb';

let handler: (event: APIGatewayRequestAuthorizerEventV2) => Promise<unknown>;
let calls = 0;
const commands: string[] = [];
let issued: string;

beforeAll(async () => {
  const { tableNames } = await freshTables();
  ({ handler } = await import('#handlers/authorizer'));
  dynamoDbClient().middlewareStack.add(
    (next, context) => (args) => {
      calls++;
      commands.push(context.commandName ?? '');
      return next(args);
    },
    { step: 'initialize', name: 'countCalls' },
  );
  const key = issueApiKey({ accountId: 'acct_authorizer' });
  await new DynamoApiKeyRepository(documentClient(), tableNames.apiKeys).create(key.record);
  issued = key.key;
});
beforeEach(() => {
  calls = 0;
  commands.length = 0;
});

const authorize = (key: string) =>
  handler({
    headers: { authorization: `Bearer ${key}` },
    requestContext: { requestId: 'r' },
  } as unknown as APIGatewayRequestAuthorizerEventV2);

test('a random key of the right shape is refused with no DynamoDB call', async () => {
  for (let index = 0; index < 200; index++) {
    const key = `pst_${randomBytes(64)
      .toString('base64url')
      .slice(0, API_KEY_LENGTH - 4)}`;
    expect(await authorize(key)).toEqual({ isAuthorized: true, context: { authenticated: false, reason: 'unknown_key' } });
  }
  expect(calls).toBe(0);
});

test('an issued key mistyped in one character is refused with no DynamoDB call', async () => {
  const mistyped = `${issued.slice(0, 20)}${issued[20] === 'Q' ? 'R' : 'Q'}${issued.slice(21)}`;
  expect(await authorize(mistyped)).toMatchObject({ context: { authenticated: false, reason: 'unknown_key' } });
  expect(calls).toBe(0);
});

test('an issued key is read once (and its use noted), then answered from the cache', async () => {
  expect(await authorize(issued)).toMatchObject({ context: { authenticated: true, accountId: 'acct_authorizer' } });
  expect(commands).toEqual(['GetItemCommand', 'UpdateItemCommand']);
  expect(await authorize(issued)).toMatchObject({ context: { authenticated: true } });
  expect(calls).toBe(2);
});

test('a key with a valid checksum that was never issued costs one read, then none while cached', async () => {
  const forged = generateApiKey();
  for (let index = 0; index < 5; index++) expect(await authorize(forged)).toMatchObject({ context: { reason: 'unknown_key' } });
  expect(calls).toBe(1);
});

test("an issued key's record stored although the answer to its put was lost counts as stored (the SDK's retry finds it)", async () => {
  const { startFaultProxy } = await import('../support/tcp-proxy');
  const { testDocumentClient, testEndpoint } = await import('../support/local-dynamodb');
  const proxy = await startFaultProxy(testEndpoint());
  const throughProxy = testDocumentClient(proxy.endpoint);
  try {
    const table = process.env.API_KEYS_TABLE_NAME as string;
    const key = issueApiKey({ accountId: 'acct_lost_answer' });
    proxy.loseNextAnswerTo(table);
    await new DynamoApiKeyRepository(throughProxy, table).create(key.record);
    expect(await authorize(key.key)).toMatchObject({ context: { authenticated: true, accountId: 'acct_lost_answer' } });
  } finally {
    throughProxy.destroy();
    await proxy.close();
  }
});
