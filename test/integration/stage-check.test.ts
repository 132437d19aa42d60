/**
 * The stage check (lambda/handlers/stage-check.ts) end to end, with the service's handlers on a local DynamoDB:
 *
 * - as CodeDeploy's pre-traffic hook, against a stand-in for Secrets Manager (the check's key, which a fresh stage's
 *   check mints and keeps there itself), Lambda (Invoke of a
 *   qualified version ARN, answered by a local handler, as Lambda answers: a crash is `X-Amz-Function-Error`),
 *   CodeDeploy (PutLifecycleEventHookExecutionStatus) and Cognito (AdminDeleteUser of a user the pool does not hold).
 *   Each stand-in refuses a call without its required parameters, as AWS does. The same checks pass the good handlers
 *   of every deployed function, and fail a broken copy of each (one that crashes, one that answers 500 as a function
 *   that lost its table would), a version that answers a shape the OpenAPI documents do not allow, and an authorizer
 *   that makes every caller anonymous; it reports only once every version has answered enough requests to be judged,
 *   with writes and without (prod);
 * - on its schedule, through a local server's URLs: it passes, and fails (so its alarm counts the run) when the
 *   stage answers wrongly.
 */
import type { IncomingMessage } from 'node:http';
import { createServer } from 'node:http';
import { hashApiKey, isWellFormedApiKey, issueApiKey } from '#auth/api-keys';
import { createDocumentClient } from '#data/dynamodb-client';
import { DynamoApiKeyRepository } from '#data/repositories/api-key-repository';
import { localFunctionEnvironment } from '#local/dev/function-environment';
import { gatewayFunctions, loadHandlers, type LambdaFunction } from '#local/gateway/functions';
import { startLocalApi, type LocalApi } from '#local/gateway/server';
import { DEPLOYED_FUNCTIONS } from '#shared/deployed-functions';
import { PRE_TRAFFIC_ANSWERS_AT_LEAST, STAGE_CHECK_ENV } from '#shared/stage-check';
import type { FunctionName } from '#shared/table-access';
import type { handler } from '#handlers/stage-check';
import { bodyOf, listenOnLoopback, type Listening } from '../support/loopback-server';
import { freshTables } from '../support/local-dynamodb';

const SECRET_ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:PetStore-staging-check-key-AbCdEf';
const versionArn = (name: FunctionName): string => `arn:aws:lambda:eu-west-1:123456789012:function:PetStore-staging-${name}:7`;

let handlers: ReadonlyMap<FunctionName, LambdaFunction>;
/** What Invoke runs for a function: its good handler unless a test swaps in a broken one. */
const deployed = new Map<FunctionName, LambdaFunction>();
let secretValue: string;
let key: string;
const statuses: { deploymentId: string; lifecycleEventHookExecutionId: string; status: string }[] = [];
const invoked: string[] = [];
/** The users the account functions asked Cognito to delete. */
const deletedUsers: string[] = [];
const USER_POOL_ID = 'eu-west-1_AbCdEfGhI';
let standIn: Listening;
let apiKeys: DynamoApiKeyRepository;
let stageCheck: { handler: typeof handler };

type Reply = readonly [status: number, body: unknown, headers?: Record<string, string>];
const refuse = (message: string): Reply => [400, { __type: 'ValidationException', message }];

/** Secrets Manager, Lambda and CodeDeploy, each as much as the stage check calls. */
async function answer(request: IncomingMessage, text: string): Promise<Reply> {
  const target = String(request.headers['x-amz-target'] ?? '');
  const invocation = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/.exec(request.url ?? '');
  if (target === 'secretsmanager.GetSecretValue') {
    const { SecretId } = JSON.parse(text) as { SecretId?: string };
    if (!SecretId) return refuse('SecretId is required');
    if (SecretId !== SECRET_ARN) return [400, { __type: 'ResourceNotFoundException', message: 'no such secret' }];
    return [200, { ARN: SECRET_ARN, Name: 'check-key', SecretString: secretValue, VersionId: 'v1' }];
  }
  if (target === 'secretsmanager.PutSecretValue') {
    const { SecretId, SecretString } = JSON.parse(text) as { SecretId?: string; SecretString?: string };
    if (!SecretId) return refuse('SecretId is required');
    if (SecretId !== SECRET_ARN) return [400, { __type: 'ResourceNotFoundException', message: 'no such secret' }];
    secretValue = SecretString ?? '';
    return [200, { ARN: SECRET_ARN, Name: 'check-key', VersionId: 'v2' }];
  }
  if (target === 'CodeDeploy_20141006.PutLifecycleEventHookExecutionStatus') {
    const call = JSON.parse(text) as Partial<(typeof statuses)[number]>;
    if (!call.deploymentId || !call.lifecycleEventHookExecutionId || !call.status) {
      return refuse('deploymentId, lifecycleEventHookExecutionId and status are required');
    }
    if (!['Pending', 'InProgress', 'Succeeded', 'Failed', 'Skipped', 'Unknown'].includes(call.status)) return refuse('bad status');
    statuses.push(call as (typeof statuses)[number]);
    return [200, { lifecycleEventHookExecutionId: call.lifecycleEventHookExecutionId }];
  }
  if (target === 'AWSCognitoIdentityProviderService.AdminDeleteUser') {
    const { UserPoolId, Username } = JSON.parse(text) as { UserPoolId?: string; Username?: string };
    if (!UserPoolId || !Username) return refuse('UserPoolId and Username are required');
    if (UserPoolId !== USER_POOL_ID) return [400, { __type: 'ResourceNotFoundException', message: 'User pool does not exist.' }];
    deletedUsers.push(Username);
    // The pool holds no user: the hook's are made up.
    return [400, { __type: 'UserNotFoundException', message: 'User does not exist.' }];
  }
  if (!invocation || request.method !== 'POST') return refuse(`the stand-in does not answer ${target || String(request.url)}`);
  const arn = decodeURIComponent(invocation[1] ?? '');
  const name = DEPLOYED_FUNCTIONS.find((fn) => versionArn(fn.name) === arn)?.name;
  if (!name) return [404, { Type: 'User', message: `Function not found: ${arn}` }];
  if ((request.headers['x-amz-invocation-type'] ?? 'RequestResponse') !== 'RequestResponse') return refuse('not a synchronous call');
  invoked.push(name);
  try {
    const fn = deployed.get(name);
    if (!fn) throw new Error(`${name} was not deployed`);
    return [200, (await fn(JSON.parse(text), {} as never)) ?? null];
  } catch (error) {
    // A crashed invocation: Lambda answers 200 and says so in a header.
    return [
      200,
      { errorType: 'Error', errorMessage: error instanceof Error ? error.message : String(error) },
      { 'x-amz-function-error': 'Unhandled' },
    ];
  }
}

const standInServer = () =>
  createServer((request, response) => {
    void bodyOf(request)
      .then((text) => answer(request, text))
      .then(([status, body, headers]) => {
        response.writeHead(status, { 'content-type': 'application/x-amz-json-1.1', ...headers });
        response.end(JSON.stringify(body));
      });
  });

beforeAll(async () => {
  const { endpoint, tableNames } = await freshTables();
  standIn = await listenOnLoopback(standInServer());
  // The account functions' issuer and audience, which the stack gives the hook too.
  const cognito = {
    endpoint: standIn.origin,
    userPoolId: USER_POOL_ID,
    issuer: `https://cognito-idp.eu-west-1.amazonaws.com/${USER_POOL_ID}`,
    clientId: 'portal-client',
  };
  Object.assign(process.env, localFunctionEnvironment({ endpoint, tableNames, logLevel: 'SILENT', cognito }));
  handlers = await loadHandlers();
  apiKeys = new DynamoApiKeyRepository(createDocumentClient(endpoint), tableNames.apiKeys);
  const issued = issueApiKey({ accountId: 'acct_stage_check', description: 'the stage check' });
  await apiKeys.create(issued.record);
  key = issued.key;
  for (const service of ['SECRETS_MANAGER', 'LAMBDA', 'CODEDEPLOY']) process.env[`AWS_ENDPOINT_URL_${service}`] = standIn.origin;
  Object.assign(process.env, {
    [STAGE_CHECK_ENV.keySecret]: SECRET_ARN,
    [STAGE_CHECK_ENV.versions]: JSON.stringify(Object.fromEntries(DEPLOYED_FUNCTIONS.map((fn) => [fn.name, versionArn(fn.name)]))),
    [STAGE_CHECK_ENV.writes]: 'true',
  });
  // Its SDK clients are made when it loads, from the environment above.
  stageCheck = await import('#handlers/stage-check');
}, 60_000);

afterAll(async () => {
  await standIn.close();
});

beforeEach(() => {
  secretValue = key;
  statuses.length = 0;
  invoked.length = 0;
  deletedUsers.length = 0;
  for (const [name, handler] of handlers) deployed.set(name, handler);
});

const runHook = async (): Promise<string[]> => {
  await stageCheck.handler({ DeploymentId: 'd-ABCDEF123', LifecycleEventHookExecutionId: 'hook-run-1' });
  expect(statuses.map(({ deploymentId, lifecycleEventHookExecutionId }) => [deploymentId, lifecycleEventHookExecutionId])).toEqual([
    ['d-ABCDEF123', 'hook-run-1'],
  ]);
  return statuses.map((call) => call.status);
};

/** Every function a deploy canaries: what the hook must reach. */
const CANARIED = DEPLOYED_FUNCTIONS.map((fn) => fn.name);

/**
 * Deliberately broken copies of a function, as a bad deploy would publish them, each on a stage of its own kind: every
 * function is shown failing on a write stage (staging) and on a read-only one (prod), whose checks differ.
 */
const BROKEN: readonly (readonly [copy: string, writes: 'true' | 'false', LambdaFunction])[] = [
  ['crashes on every call', 'true', () => Promise.reject(new Error("Cannot find module './broken'"))],
  [
    'answers 500 as one that lost its table permission would',
    'false',
    () =>
      Promise.resolve({
        statusCode: 500,
        headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
        body: JSON.stringify({ code: 'internal_error', message: 'an unexpected error occurred', status: 500 }),
      }),
  ],
];

const withWrites = async <T>(writes: string, run: () => Promise<T>): Promise<T> => {
  process.env[STAGE_CHECK_ENV.writes] = writes;
  try {
    return await run();
  } finally {
    process.env[STAGE_CHECK_ENV.writes] = 'true';
  }
};

describe('as the pre-traffic hook', () => {
  it.each(['true', 'false'])(
    "passes the good versions, reporting only once every canaried function's version has answered enough requests for the canary to be judged (writes: %s)",
    async (writes) => {
      expect(await withWrites(writes, runHook)).toEqual(['Succeeded']);
      const answers = new Map<string, number>();
      for (const name of invoked) answers.set(name, (answers.get(name) ?? 0) + 1);
      expect(new Set(answers.keys())).toEqual(new Set(CANARIED));
      expect(Math.min(...answers.values())).toBeGreaterThanOrEqual(PRE_TRAFFIC_ANSWERS_AT_LEAST);
      // A write stage deletes only the made-up users it signed in as; a read-only one nobody's.
      if (writes === 'false') expect(deletedUsers).toEqual([]);
      else expect(deletedUsers.length).toBeGreaterThan(0);
      expect(deletedUsers.every((user) => /^stage-check-[0-9a-f-]{36}$/.test(user))).toBe(true);
    },
    120_000,
  );

  it.each(CANARIED.flatMap((name) => BROKEN.map(([copy, writes, fn]) => [name, copy, writes, fn] as const)))(
    'fails a %s that %s (writes: %s)',
    async (name, _copy, writes, fn) => {
      deployed.set(name, fn);
      expect(await withWrites(writes, runHook)).toEqual(['Failed']);
      expect(invoked).toContain(name);
    },
    60_000,
  );

  it('fails a version that answers well at first and then crashes, before it has been seen enough', async () => {
    const getPet: LambdaFunction = handlers.get('getPet') ?? (() => Promise.reject(new Error('no getPet')));
    let calls = 0;
    deployed.set('getPet', (event, context) =>
      ++calls > 10 ? Promise.reject(new Error('leaks a connection each call')) : getPet(event, context),
    );
    expect(await runHook()).toEqual(['Failed']);
  }, 120_000);

  it('fails a version that answers a shape the OpenAPI document does not allow', async () => {
    deployed.set('listPets', () =>
      Promise.resolve({ statusCode: 200, headers: { 'content-type': 'application/json' }, body: '{"pets":[]}' }),
    );
    expect(await runHook()).toEqual(['Failed']);
  }, 60_000);

  it('fails an authorizer that makes every caller anonymous', async () => {
    deployed.set('authorizer', () => Promise.resolve({ isAuthorized: true, context: { authenticated: false, reason: 'unknown_key' } }));
    expect(await runHook()).toEqual(['Failed']);
  }, 60_000);

  it('on a fresh stage (its secret holds what Secrets Manager generated), mints its own key, keeps it, and passes', async () => {
    secretValue = 'a value Secrets Manager generated';
    // Read-only, as on prod: the key is what this shows, and a write stage's passes take longer.
    expect(await withWrites('false', runHook)).toEqual(['Succeeded']);
    expect(isWellFormedApiKey(secretValue)).toBe(true);
    expect(await apiKeys.findByHash(hashApiKey(secretValue))).toMatchObject({ accountId: 'acct_stage_check' });
    // The next run uses that key: no second one.
    const minted = secretValue;
    statuses.length = 0;
    expect(await withWrites('false', runHook)).toEqual(['Succeeded']);
    expect(secretValue).toBe(minted);
  }, 60_000);

  it('fails, and still tells CodeDeploy, when its key was revoked (npm run keys -- rotate-stage-check replaces it)', async () => {
    const revoked = issueApiKey({ accountId: 'acct_stage_check' });
    await apiKeys.create(revoked.record);
    await apiKeys.revoke(revoked.record.keyId, new Date());
    secretValue = revoked.key;
    expect(await runHook()).toEqual(['Failed']);
    expect(secretValue).toBe(revoked.key);
  }, 60_000);
});

describe('on its schedule, through the public URLs', () => {
  let api: LocalApi | undefined;
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });

  const serve = async () => {
    api = await startLocalApi({ functions: gatewayFunctions((name) => deployed.get(name) ?? (() => Promise.reject(new Error(name)))) });
    process.env[STAGE_CHECK_ENV.petsBaseUrl] = api.petsBaseUrl;
    process.env[STAGE_CHECK_ENV.messagesBaseUrl] = api.origin;
  };

  it('passes a stage that answers as documented, creating nothing', async () => {
    const created: unknown[] = [];
    const createPet = handlers.get('createPet');
    deployed.set('createPet', async (event, context) => {
      const answer = (await createPet?.(event, context)) as { statusCode?: number } | undefined;
      if (answer?.statusCode === 201) created.push(answer);
      return answer;
    });
    await serve();
    await expect(stageCheck.handler({})).resolves.toBeUndefined();
    expect(created).toEqual([]);
  }, 60_000);

  it('fails the run when the stage answers wrongly, naming the check', async () => {
    deployed.set('listPets', () => Promise.reject(new Error('broken')));
    await serve();
    await expect(stageCheck.handler({})).rejects.toThrow(/stage checks failed: .*GET \/pets\?limit=2 answers 200/);
  }, 60_000);
});
