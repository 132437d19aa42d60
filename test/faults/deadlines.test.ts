/**
 * The database (or the user pool) stops answering at one step of a multi-step operation — every step in turn —
 * through the local HTTP API, with the functions in a worker that is ended at their timeout as Lambda ends them
 * (so their work ends there too). Each cut request answers 503 with Retry-After before its function's timeout,
 * never the gateway's 500; what it leaves is never a half-done state a client could take for success; and the
 * same call, repeated, finishes the work.
 *
 * Each operation runs once unpaused to learn its steps (every DynamoDB and Cognito request its functions make, in
 * order, the authorizer's included), then once paused at each of them, on a fresh account, key or name.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { hashApiKey } from '#auth/api-keys';
import type { LocalAccounts } from '#local/identity/accounts';
import { COGNITO_ENDPOINT_ENV } from '#shared/accounts';
import { newUser, signIn, type SignedIn } from '../support/cognito-users';
import { testEndpoint } from '../support/local-dynamodb';
import { pauseGate, type GateProxy } from '../support/pause-gate';
import { startTestApi, type ApiAnswer, type TestApi } from '../support/test-api';

/**
 * Shorter than the stack's 10 s, so a paused step costs about 3.5 s (the functions' deadline is 0.5 s before
 * it), yet long enough for an unpaused operation on a busy machine.
 */
const FUNCTION_TIMEOUT_MS = 4_000;

const gate = pauseGate();
let started: TestApi | undefined;
let cognito: GateProxy;

beforeAll(async () => {
  const dynamodb = await gate.proxy(testEndpoint());
  cognito = await gate.proxy();
  started = await startTestApi({
    accounts: true,
    functionTimeoutMs: FUNCTION_TIMEOUT_MS,
    functionEnvironment: { DYNAMODB_ENDPOINT: dynamodb.origin, [COGNITO_ENDPOINT_ENV]: cognito.origin },
  });
  cognito.forwardTo(accounts().cognito.endpoint);
  // The worker's first DynamoDB and Cognito calls set their clients up (a second or more on a busy machine): not in a step.
  const { accessToken } = await newUser(accounts());
  await api().call('DELETE', '/account', { key: accessToken });
}, 60_000);
afterAll(async () => {
  await started?.close();
  await gate.close();
});

const api = (): TestApi => {
  if (!started) throw new Error('the test API did not start');
  return started;
};
const accounts = (): LocalAccounts => {
  const { accounts: started } = api();
  if (!started) throw new Error('the test API runs without accounts');
  return started;
};

/** One request to cut, on a subject of its own, and how to judge what the cut leaves. */
interface Subject {
  send(): Promise<ApiAnswer>;
  /** After the cut: nothing a client could take for a success that did not happen. */
  consistent(): Promise<boolean>;
  /** After the repeated call: the work is complete. */
  finished(repeated: ApiAnswer): Promise<boolean>;
}

/**
 * Runs `subject` unpaused, then paused at each of its steps: what each cut answered, whether what it left was
 * consistent, what the repeated call answered and whether it finished the work. Returns the steps.
 */
async function cutAtEveryStep(newSubject: () => Promise<Subject>, success: number): Promise<string[]> {
  const baseline = await newSubject();
  const from = gate.steps.length;
  expect((await baseline.send()).status).toBe(success);
  const steps = gate.steps.slice(from);

  const outcomes = [];
  for (const [index, step] of steps.entries()) {
    const subject = await newSubject();
    gate.pauseAt(gate.steps.length + index);
    const cut = await subject.send();
    await gate.resume();
    const consistent = await subject.consistent();
    const repeated = await subject.send();
    outcomes.push({
      pausedAt: `${index + 1}. ${step}`,
      status: cut.status,
      code: (cut.json as { code?: unknown } | undefined)?.code,
      retryAfter: cut.headers.get('retry-after'),
      consistent,
      repeated: repeated.status,
      finished: await subject.finished(repeated),
    });
  }
  const expected = { status: 503, code: 'service_unavailable', retryAfter: '1', consistent: true, repeated: success, finished: true };
  expect(outcomes).toEqual(steps.map((step, index) => ({ pausedAt: `${index + 1}. ${step}`, ...expected })));
  return steps;
}

const item = async (table: keyof TestApi['tableNames'], key: Record<string, unknown>) =>
  (await api().db.send(new GetCommand({ TableName: api().tableNames[table], Key: key, ConsistentRead: true }))).Item;
const isLive = async (key: string): Promise<boolean> => {
  const record = await item('apiKeys', { keyHash: hashApiKey(key) });
  return record !== undefined && record.revokedAt === undefined;
};
const createKey = (user: SignedIn) => api().call('POST', '/account/keys', { key: user.accessToken, json: { description: 'cut' } });
let sequence = 0;

test('DELETE /account cut at any step answers 503: the account is left open, or closed with every key refused; repeated, it closes it', async () => {
  const steps = await cutAtEveryStep(async () => {
    const user = await newUser(accounts());
    const keys = await Promise.all([createKey(user), createKey(user)]).then((created) =>
      created.map((answer) => (answer.json as { key: string }).key),
    );
    return {
      send: () => api().call('DELETE', '/account', { key: user.accessToken }),
      consistent: async () =>
        (await item('accounts', { accountId: user.sub }))?.closedAt === undefined || !(await Promise.all(keys.map(isLive))).some(Boolean),
      finished: async () => {
        const closed = (await item('accounts', { accountId: user.sub }))?.closedAt !== undefined;
        const signsIn = await signIn(accounts(), user.email, user.password).then(
          () => true,
          () => false,
        );
        return closed && !signsIn && !(await Promise.all(keys.map(isLive))).some(Boolean);
      },
    };
  }, 204);
  // Both keys revoked one by one, then the account closed, then the user deleted: each a step of its own.
  expect(steps).toEqual([
    'DynamoDB_20120810.GetItem',
    'DynamoDB_20120810.Query',
    'DynamoDB_20120810.UpdateItem',
    'DynamoDB_20120810.UpdateItem',
    'DynamoDB_20120810.UpdateItem',
    'AWSCognitoIdentityProviderService.AdminDeleteUser',
  ]);
}, 120_000);

test('POST /account/keys cut at any step answers 503 and shows no key; repeated, it answers a key that works', async () => {
  const steps = await cutAtEveryStep(async () => {
    const user = await newUser(accounts());
    return {
      send: () => createKey(user),
      // A key stored by the cut request is listed (to revoke), though its secret was never shown.
      consistent: async () => (await api().call('GET', '/account/keys', { key: user.accessToken })).status === 200,
      finished: async (repeated) =>
        (await api().call('GET', '/v1/pets?limit=1', { key: (repeated.json as { key: string }).key })).status === 200,
    };
  }, 201);
  // The claim (a new day's, after the same day's is refused), then the key.
  expect(steps).toEqual(['DynamoDB_20120810.UpdateItem', 'DynamoDB_20120810.UpdateItem', 'DynamoDB_20120810.PutItem']);
}, 120_000);

describe.each([
  { path: '/v1/pets', body: (name: string) => ({ name, categoryId: 1 }), table: 'pets', field: 'name', success: 201 },
  { path: '/messages', body: (name: string) => ({ message: name }), table: 'messages', field: 'message', success: 202 },
] as const)('POST $path with Idempotency-Key', ({ path, body, table, field, success }) => {
  test('cut at any step (the authorizer first use of a key included) answers 503; repeated with the key, it stores once', async () => {
    const steps = await cutAtEveryStep(async () => {
      const { key } = await api().issueKey();
      const name = `cut-${sequence++}`;
      const stored = async () => (await api().scan(table)).filter((each) => each[field] === name);
      return {
        send: () => api().call('POST', path, { key, json: body(name), headers: { 'idempotency-key': name } }),
        consistent: async () => (await stored()).length <= 1,
        finished: async (repeated) => {
          const [only, ...more] = await stored();
          return more.length === 0 && only?.id === (repeated.json as { id: unknown }).id;
        },
      };
    }, success);
    expect(steps).toEqual([
      'DynamoDB_20120810.GetItem',
      'DynamoDB_20120810.UpdateItem',
      'DynamoDB_20120810.PutItem',
      'DynamoDB_20120810.PutItem',
    ]);
  }, 120_000);
});
