import { ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { issueApiKey } from '#auth/api-keys';
import { DynamoApiKeyRepository } from '#data/repositories/api-key-repository';
import type { LocalAccounts } from '#local/identity/accounts';
import { localFunctionEnvironment } from '#local/dev/function-environment';
import { loadFunctions, type GatewayFunctions, type LambdaFunction } from '#local/gateway/functions';
import { reloadingFunctions } from '#local/dev/reloading-functions';
import { startLocalApi } from '#local/gateway/server';
import type { GatewayThrottle } from '#local/gateway/throttle';
import type { TableNames } from '#local/engine/tables';
import { readAnswer, type ReadAnswer } from '#openapi/contract-check';
import { assertHonoursContract, writeContractCoverage } from '../contract/openapi-contract';
import { freshTables, testDocumentClient } from './local-dynamodb';

export type ApiAnswer = ReadAnswer;

export interface CallOptions {
  /** API key sent as `Authorization: Bearer <key>`; `null` sends no Authorization header. */
  readonly key?: string | null;
  readonly headers?: Record<string, string>;
  /** Sent as JSON with `content-type: application/json`. */
  readonly json?: unknown;
  /** Sent as-is (set the content type yourself through `headers`). */
  readonly body?: string | Uint8Array;
}

export interface TestApi {
  readonly origin: string;
  readonly petsBaseUrl: string;
  /** A valid key of account `acct_test`. */
  readonly key: string;
  readonly tableNames: TableNames;
  readonly db: DynamoDBDocumentClient;
  readonly keys: DynamoApiKeyRepository;
  /** The portal's identity provider (cognito-local) and JWT authorizer, when started with `accounts: true`. */
  readonly accounts: LocalAccounts | undefined;
  call(method: string, pathOrUrl: string, options?: CallOptions): Promise<ApiAnswer>;
  issueKey(accountId?: string): Promise<{ key: string; keyId: string }>;
  /** Every item of a table, for "nothing was written" assertions. */
  scan(table: keyof TableNames): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

export interface TestApiOptions {
  /** DynamoDB to create the tables on (default: the suite's). */
  readonly endpoint?: string;
  /** Extra environment for the functions, e.g. another DYNAMODB_ENDPOINT (a fault-injecting proxy). */
  readonly functionEnvironment?: Record<string, string>;
  /** Also start cognito-local and serve the account API and /portal, as `npm start` does. */
  readonly accounts?: boolean;
  /**
   * Run every request's authorizer as a fresh instance (its module loaded anew), as after a cold start
   * or once the authorizer's 60 s cache window has passed: a revoked key is then refused at once.
   */
  readonly freshAuthorizer?: boolean;
  /** Browser origins the server allows (CORS as API Gateway does it); no CORS when absent. */
  readonly corsOrigins?: readonly string[];
  /** API Gateway's stage throttle to emulate (429 once a route's bucket is empty), e.g. one low limit for every route; none when absent. */
  readonly throttle?: GatewayThrottle;
  /**
   * Run the functions in a worker thread, as `npm start` does, and end it (and their work) at this timeout, as
   * Lambda does; without it they run in this process, and a timed-out one runs on unseen.
   */
  readonly functionTimeoutMs?: number;
  /** The throttle's clock in milliseconds (default `performance.now`): a test that floods a route stops it. */
  readonly now?: () => number;
}

/** The authorizer of a new Lambda instance for each call: nothing cached from earlier requests. */
const freshAuthorizer: LambdaFunction = async (event, context) => {
  let handler: LambdaFunction | undefined;
  await jest.isolateModulesAsync(async () => {
    ({ handler } = (await import('#handlers/authorizer')) as { handler: LambdaFunction });
  });
  if (!handler) throw new Error('the authorizer module exports no handler');
  return handler(event, context);
};

/** The local server (real gateway emulation, authorizer and handlers) on fresh tables. */
export async function startTestApi(options: TestApiOptions = {}): Promise<TestApi> {
  const { tableNames, endpoint } = await freshTables(options.endpoint);
  // The test's own client first: the functions' environment (e.g. short DynamoDB timeouts) is theirs only.
  const db = testDocumentClient(endpoint);
  const keys = new DynamoApiKeyRepository(db, tableNames.apiKeys);
  // Loaded only when asked for: the emulator's modules take a while to load.
  const accounts = options.accounts ? await (await import('#local/identity/accounts')).startLocalAccounts() : undefined;
  if (accounts)
    Object.assign(process.env, localFunctionEnvironment({ endpoint, tableNames, cognito: accounts.cognito, logLevel: 'SILENT' }));
  Object.assign(process.env, options.functionEnvironment);
  const inWorker = options.functionTimeoutMs === undefined ? undefined : await reloadingFunctions({ log: () => undefined });
  const loaded = inWorker ?? (await loadFunctions());
  const functions: GatewayFunctions = options.freshAuthorizer ? { ...loaded, authorizer: freshAuthorizer } : loaded;
  const api = await startLocalApi({
    functions,
    ...(options.functionTimeoutMs === undefined ? {} : { functionTimeoutMs: options.functionTimeoutMs }),
    ...(accounts ? { accountAuthorizer: accounts.accountAuthorizer, portal: accounts.portal } : {}),
    ...(options.corsOrigins ? { corsOrigins: options.corsOrigins } : {}),
    ...(options.throttle ? { throttle: options.throttle } : {}),
    ...(options.now ? { now: options.now } : {}),
  });

  const issueKey = async (accountId = 'acct_test'): Promise<{ key: string; keyId: string }> => {
    const issued = issueApiKey({ accountId });
    // An SDK retry of this write after a slow answer is recognised by the repository itself (ApiKeyRepository.create).
    await keys.create(issued.record);
    return { key: issued.key, keyId: issued.record.keyId };
  };
  const { key } = await issueKey();

  const call = async (method: string, pathOrUrl: string, options: CallOptions = {}): Promise<ApiAnswer> => {
    const headers: Record<string, string> = { ...options.headers };
    const authKey = options.key === undefined ? key : options.key;
    if (authKey !== null) headers.authorization = `Bearer ${authKey}`;
    let body: string | Uint8Array | undefined = options.body;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] ??= 'application/json';
    }
    const url = pathOrUrl.startsWith('http') ? pathOrUrl : `${api.origin}${pathOrUrl}`;
    const answer = await readAnswer(await fetch(url, { method, headers, ...(body === undefined ? {} : { body }) }));
    // Every answer of every HTTP test must be one the OpenAPI documents allow, or the test fails.
    assertHonoursContract({ method, url }, answer);
    return answer;
  };

  const scan = async (table: keyof TableNames): Promise<Record<string, unknown>[]> => {
    const items: Record<string, unknown>[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await db.send(new ScanCommand({ TableName: tableNames[table], ConsistentRead: true, ExclusiveStartKey: startKey }));
      items.push(...(page.Items ?? []));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return items;
  };

  return {
    origin: api.origin,
    petsBaseUrl: api.petsBaseUrl,
    key,
    tableNames,
    db,
    keys,
    accounts,
    call,
    issueKey,
    scan,
    close: async () => {
      writeContractCoverage();
      await api.close();
      await inWorker?.close();
      await accounts?.stop();
      db.destroy();
    },
  };
}

/**
 * The preamble of every HTTP test file in one call: the local API starts on fresh tables before the
 * file's tests and stops after them. The view it returns forwards to the started API, so a file can
 * hold it in a `const` at the top and register further `beforeAll` hooks (they run after this one).
 */
export function useTestApi(options: TestApiOptions = {}): TestApi {
  let started: TestApi | undefined;
  beforeAll(async () => {
    started = await startTestApi(options);
  }, 60_000);
  afterAll(async () => {
    await started?.close();
  });
  const api = (): TestApi => {
    if (!started) throw new Error('the test API starts in beforeAll: use it inside tests and hooks');
    return started;
  };
  // Every member read through to the started API, so none can be forgotten here.
  return new Proxy({} as TestApi, { get: (_target, name) => Reflect.get(api(), name) as unknown });
}

/** The spec's Error body, exactly: `code`, `message`, `status` (= HTTP status), JSON content type. */
export function expectError(answer: ApiAnswer, status: number, code: string): void {
  expect({ status: answer.status, contentType: answer.headers.get('content-type') }).toEqual({ status, contentType: 'application/json' });
  expect(answer.json).toEqual({ code, message: expect.any(String), status });
  expect(Object.keys(answer.json as object).sort()).toEqual(['code', 'message', 'status']);
  expect((answer.json as { message: string }).message.length).toBeGreaterThan(0);
}

export interface Refusal {
  readonly status: number;
  readonly code: string;
  /** What the error's message must say, when it matters. */
  readonly message?: RegExp;
}

/** A request that must be refused: the spec's error body, and `table` exactly as it was before. */
export async function expectRefusedUnchanged(
  api: TestApi,
  table: keyof TableNames,
  send: () => Promise<ApiAnswer>,
  refusal: Refusal,
): Promise<void> {
  const before = await api.scan(table);
  const answer = await send();
  expectError(answer, refusal.status, refusal.code);
  if (refusal.message) expect((answer.json as { message: string }).message).toMatch(refusal.message);
  expect(await api.scan(table)).toEqual(before);
}
