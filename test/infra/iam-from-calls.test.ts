/**
 * The functions' IAM grants (shared/table-access.ts TABLE_ACCESS, shared/accounts.ts IDENTITY_ACCESS)
 * held to the calls the code really makes. Every deployed function runs in this process behind the
 * local server, as in `npm start`, while an SDK middleware records each DynamoDB and Cognito call and
 * the function that made it. The requests take the paths a grant is easily forgotten on: conditions
 * that fail (an `Idempotency-Key` replay, a key write whose answer was lost and retried by the SDK,
 * the key cap, a revoked or unknown key, a deleted account) and DynamoDB refusing connections. A call
 * outside the function's grant would be AccessDenied in AWS only; a grant no path uses is wider than
 * the code.
 *
 * The stack test (test/infra/stack/functions.ts) holds the template to the same tables.
 */
import { issueApiKey } from '#auth/api-keys';
import { MAX_ACTIVE_KEYS_PER_ACCOUNT } from '#contract/account-limits';
import { cognitoClient } from '#data/cognito-client';
import { dynamoDbClient } from '#data/dynamodb-client';
import { startLocalAccounts, type LocalAccounts } from '#local/identity/accounts';
import { localFunctionEnvironment } from '#local/dev/function-environment';
import { gatewayFunctions, loadHandlers } from '#local/gateway/functions';
import { startLocalApi, type LocalApi } from '#local/gateway/server';
import type { TableNames } from '#local/engine/tables';
import { readAnswer, type ReadAnswer } from '#openapi/contract-check';
import { IDENTITY_ACCESS } from '#shared/accounts';
import { DEPLOYED_FUNCTIONS } from '#shared/deployed-functions';
import { TABLE_ACCESS, type FunctionName } from '#shared/table-access';
import type { TableKey } from '#shared/tables';
import { newUser, type SignedIn } from '../support/cognito-users';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { freshTables, testDocumentClient } from '../support/local-dynamodb';
import { sdkCallRecorder, type RecordedCall } from '../support/sdk-call-recorder';
import { startFaultProxy, type FaultProxy } from '../support/tcp-proxy';

const ALLOWED_ORIGIN = 'https://portal.example.com';

const recorder = sdkCallRecorder();
let tableNames: TableNames;
let proxy: FaultProxy | undefined;
let accounts: LocalAccounts | undefined;
let api: LocalApi | undefined;

interface Request {
  /** An API key or an access token, sent as `Authorization: Bearer …`. */
  readonly bearer?: string;
  readonly json?: unknown;
  readonly headers?: Record<string, string>;
}

async function send(method: string, path: string, request: Request = {}): Promise<ReadAnswer> {
  if (!api) throw new Error('the local server starts in beforeAll');
  const headers: Record<string, string> = { ...request.headers };
  if (request.bearer !== undefined) headers.authorization = `Bearer ${request.bearer}`;
  if (request.json !== undefined) headers['content-type'] = 'application/json';
  const body = request.json === undefined ? undefined : JSON.stringify(request.json);
  return readAnswer(await fetch(`${api.origin}${path}`, { method, headers, ...(body === undefined ? {} : { body }) }));
}

/** The request, which must answer `status`: a path that is not taken records nothing to judge the grants by. */
async function expectAnswer(status: number, method: string, path: string, request?: Request): Promise<ReadAnswer> {
  const answer = await send(method, path, request);
  if (answer.status !== status) throw new Error(`${method} ${path} answered ${answer.status}, expected ${status}: ${answer.text}`);
  return answer;
}

const createKey = async (user: SignedIn, status = 201): Promise<ReadAnswer> =>
  expectAnswer(status, 'POST', '/account/keys', { bearer: user.accessToken, json: { description: 'recorded' } });
const keyOf = (answer: ReadAnswer) => answer.json as { key: string; keyId: string };

/** The pets and messages APIs, with a key the account API issued. */
async function drivePetsAndMessages(user: SignedIn): Promise<void> {
  const { key } = keyOf(await createKey(user));
  // A fresh key: the authorizer's lookup, and its first `lastUsedAt`.
  await expectAnswer(200, 'GET', '/v1/pets', { bearer: key });
  await expectAnswer(200, 'GET', '/v1/pets?status=available', { bearer: key });
  const pet = { name: 'Recorded', categoryId: 1 };
  const created = await expectAnswer(201, 'POST', '/v1/pets', { bearer: key, json: pet });
  const { id } = created.json as { id: number };
  await expectAnswer(200, 'GET', `/v1/pets/${id}`, { bearer: key });
  await expectAnswer(404, 'GET', '/v1/pets/999999999', { bearer: key });
  await expectAnswer(400, 'POST', '/v1/pets', { bearer: key, json: { name: '' } });
  // Replays read the claim's record and the item back after their conditional puts fail.
  const once = { 'idempotency-key': 'recorded-pet' };
  await expectAnswer(201, 'POST', '/v1/pets', { bearer: key, json: pet, headers: once });
  await expectAnswer(201, 'POST', '/v1/pets', { bearer: key, json: pet, headers: once });
  await expectAnswer(422, 'POST', '/v1/pets', { bearer: key, json: { ...pet, name: 'Other' }, headers: once });
  const message = { message: 'recorded' };
  await expectAnswer(202, 'POST', '/messages', { bearer: key, json: message });
  await expectAnswer(202, 'POST', '/messages', { bearer: key, json: message, headers: { 'idempotency-key': 'recorded-message' } });
  await expectAnswer(202, 'POST', '/messages', { bearer: key, json: message, headers: { 'idempotency-key': 'recorded-message' } });
  // A key never issued (a lookup that finds nothing), no key at all, an unknown route, a preflight.
  await expectAnswer(401, 'GET', '/v1/pets', { bearer: issueApiKey({ accountId: 'acct_never' }).key });
  await expectAnswer(401, 'GET', '/v1/pets');
  await expectAnswer(404, 'GET', '/v1/nothing-here', { bearer: key });
  await expectAnswer(204, 'OPTIONS', '/v1/pets', {
    headers: { origin: ALLOWED_ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' },
  });
}

/** The account API: creates up to the cap and past it, a lost answer, revocations, deletion and after. */
async function driveAccount(user: SignedIn, other: SignedIn): Promise<void> {
  if (!proxy) throw new Error('the proxy starts in beforeAll');
  await expectAnswer(200, 'GET', '/account/keys', { bearer: user.accessToken });
  // The key's record is written, its answer lost, and the SDK's retry finds the record there.
  proxy.loseNextAnswerTo(tableNames.apiKeys);
  const lost = keyOf(await createKey(user));
  // The key works (no pet has id 1: past the authorizer, the answer is 404).
  await expectAnswer(404, 'GET', '/v1/pets/1', { bearer: lost.key });
  // The first key drivePetsAndMessages made, this one, then up to the cap and one more.
  for (let created = 2; created < MAX_ACTIVE_KEYS_PER_ACCOUNT; created++) await createKey(user);
  await createKey(user, 409);
  // Revoked, revoked again (the same answer), then refused on the pets API; unknown and others' keys: 404.
  await expectAnswer(200, 'DELETE', `/account/keys/${lost.keyId}`, { bearer: user.accessToken });
  await expectAnswer(200, 'DELETE', `/account/keys/${lost.keyId}`, { bearer: user.accessToken });
  await expectAnswer(404, 'DELETE', '/account/keys/key_0000000000000000000000', { bearer: user.accessToken });
  await expectAnswer(404, 'DELETE', `/account/keys/${lost.keyId}`, { bearer: other.accessToken });
  await expectAnswer(404, 'PUT', '/account/keys', { bearer: user.accessToken });
  // Deleted with a key still active; the access token stays valid until it expires, so it comes back.
  const { key } = keyOf(await createKey(user));
  await expectAnswer(204, 'DELETE', '/account', { bearer: user.accessToken });
  await expectAnswer(401, 'GET', '/v1/pets', { bearer: key });
  await expectAnswer(401, 'POST', '/account/keys', { bearer: user.accessToken, json: { description: 'after deletion' } });
  await expectAnswer(204, 'DELETE', '/account', { bearer: user.accessToken });
}

/**
 * At the cap with stale slots, as creates ended before their undo leave them (a slot older than a minute whose key was
 * never stored): the next create repairs them, reading the account's active keys by index, and succeeds.
 */
async function driveStaleSlots(user: SignedIn): Promise<void> {
  await createKey(user);
  const stale = Array.from(
    { length: MAX_ACTIVE_KEYS_PER_ACCOUNT - 1 },
    (_, index) => `2020-01-01T00:00:00.000Z|key_stale${index}|hash${index}`,
  );
  await testDocumentClient().send(
    new UpdateCommand({
      TableName: tableNames.accounts,
      Key: { accountId: user.sub },
      UpdateExpression: 'ADD activeKeys :stale',
      ExpressionAttributeValues: { ':stale': new Set(stale) },
    }),
  );
  await createKey(user);
}

/** DynamoDB out of reach: each function fails with 503, and tries no call of another kind on its way. */
async function driveRefusedDynamoDb(user: SignedIn): Promise<void> {
  if (!proxy) throw new Error('the proxy starts in beforeAll');
  const { key, keyId } = keyOf(await createKey(user));
  // The key's lookup is cached before the database goes away, so the pets API gets past the authorizer.
  await expectAnswer(200, 'GET', '/v1/pets', { bearer: key });
  proxy.setMode('refuse');
  try {
    await expectAnswer(503, 'POST', '/v1/pets', {
      bearer: key,
      json: { name: 'Refused', categoryId: 1 },
      headers: { 'idempotency-key': 'r' },
    });
    await expectAnswer(503, 'POST', '/messages', { bearer: key, json: { message: 'refused' } });
    await expectAnswer(503, 'GET', '/v1/pets/1', { bearer: key });
    await expectAnswer(503, 'GET', '/v1/pets', { bearer: issueApiKey({ accountId: 'acct_never' }).key });
    await expectAnswer(503, 'GET', '/account/keys', { bearer: user.accessToken });
    await expectAnswer(503, 'POST', '/account/keys', { bearer: user.accessToken, json: { description: 'refused' } });
    await expectAnswer(503, 'DELETE', `/account/keys/${keyId}`, { bearer: user.accessToken });
    await expectAnswer(503, 'DELETE', '/account', { bearer: user.accessToken });
  } finally {
    proxy.setMode('up');
  }
}

beforeAll(async () => {
  let endpoint: string;
  ({ tableNames, endpoint } = await freshTables());
  proxy = await startFaultProxy(endpoint);
  accounts = await startLocalAccounts();
  // Every function reaches DynamoDB through the proxy, so an answer can be lost on its way back.
  Object.assign(
    process.env,
    localFunctionEnvironment({ endpoint: proxy.endpoint, tableNames, cognito: accounts.cognito, logLevel: 'SILENT' }),
  );
  const handlers = await loadHandlers();
  // The clients every handler of this process shares, made with the environment above.
  recorder.attach(dynamoDbClient(), 'dynamodb');
  recorder.attach(cognitoClient(), 'cognito-idp');
  api = await startLocalApi({
    functions: gatewayFunctions((name) => {
      const handler = handlers.get(name);
      if (!handler) throw new Error(`no handler for ${name}`);
      return recorder.attribute(name, handler);
    }),
    accountAuthorizer: accounts.accountAuthorizer,
    portal: accounts.portal,
    corsOrigins: [ALLOWED_ORIGIN],
  });

  const [user, other, refused, repaired] = await Promise.all([newUser(accounts), newUser(accounts), newUser(accounts), newUser(accounts)]);
  await drivePetsAndMessages(user);
  await driveAccount(user, other);
  await driveStaleSlots(repaired);
  await driveRefusedDynamoDb(refused);
}, 100_000);

afterAll(async () => {
  await api?.close();
  await accounts?.stop();
  await proxy?.close();
});

const FUNCTIONS = DEPLOYED_FUNCTIONS.map((fn) => fn.name);

/** A grant or a call, as one line a reader compares: `dynamodb:Query on apiKeys/index/account-created-index`. */
const onTable = (action: string, table: TableKey, index: string | undefined): string =>
  `${action} on ${table}${index === undefined ? '' : `/index/${index}`}`;
const onUserPool = (action: string): string => `${action} on the user pool`;

function grantedTo(name: FunctionName): string[] {
  const tables = TABLE_ACCESS[name].flatMap((access) => access.actions.map((action) => onTable(action, access.table, access.index)));
  const identity = (IDENTITY_ACCESS[name] ?? []).map(onUserPool);
  return [...new Set([...tables, ...identity])].sort();
}

function described(call: RecordedCall): string {
  if (call.action.startsWith('dynamodb:')) {
    const table = (Object.keys(tableNames) as TableKey[]).find((key) => tableNames[key] === call.tableName);
    return table ? onTable(call.action, table, call.indexName) : `${call.action} on a table of no function: ${call.tableName}`;
  }
  if (call.action.startsWith('cognito-idp:') && call.userPoolId === accounts?.cognito.userPoolId) return onUserPool(call.action);
  return `${call.action} on ${call.userPoolId ?? 'no user pool'}`;
}

const calledBy = (name: FunctionName): string[] =>
  [...new Set(recorder.calls.filter((call) => call.functionName === name).map(described))].sort();

test('every AWS call is made inside a function invocation', () => {
  expect(recorder.calls.length).toBeGreaterThan(0);
  expect(recorder.calls.filter((call) => call.functionName === undefined).map(described)).toEqual([]);
});

test.each(FUNCTIONS)('%s makes only calls its grant allows', (name) => {
  const granted = grantedTo(name);
  expect(calledBy(name).filter((call) => !granted.includes(call))).toEqual([]);
});

test.each(FUNCTIONS)('%s uses every action it is granted: no grant is wider than the code', (name) => {
  const called = calledBy(name);
  expect(grantedTo(name).filter((grant) => !called.includes(grant))).toEqual([]);
});
