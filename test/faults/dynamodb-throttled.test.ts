/**
 * DynamoDB throttling, through a proxy that answers its throttling errors: every request answers 503
 * with Retry-After after a short, bounded retry instead of holding its function through the SDK's
 * default throttling backoff (up to seconds), and stores nothing; a throttle that lifts after one
 * refused attempt costs the client nothing.
 *
 * No time is asserted here (a busy machine stretches every one): each call's attempts are counted at the
 * proxy, and the delays the retry strategy chooses between them are test/unit/dynamodb-retry.test.ts's.
 */
import { DYNAMODB_MAX_ATTEMPTS } from '#data/dynamodb-client';
import { startThrottlingProxy, type Attempt, type ThrottlingError, type ThrottlingProxy } from '../support/dynamodb-throttling-proxy';
import { testEndpoint } from '../support/local-dynamodb';
import { expectError, startTestApi, type ApiAnswer, type TestApi } from '../support/test-api';

/** A ceiling for a hang, not a claim. */
const TEST_TIMEOUT_MS = 120_000;

let api: TestApi;
let proxy: ThrottlingProxy;
let knownPetId: number;

beforeAll(async () => {
  proxy = await startThrottlingProxy(testEndpoint());
  api = await startTestApi({ functionEnvironment: { DYNAMODB_ENDPOINT: proxy.endpoint } });
  // Also leaves the test key in the authorizer's cache: the requests below reach their function.
  const created = await api.call('POST', '/v1/pets', { json: { name: 'known', categoryId: 1 } });
  knownPetId = (created.json as { id: number }).id;
}, 60_000);
beforeEach(() => proxy.clear());
afterEach(() => proxy.throttle(undefined));
afterAll(async () => {
  await api.close();
  await proxy.close();
});

let sequence = 0;
/** One request of every kind, one after the other. */
async function everyOperation(name: string): Promise<{ answers: ApiAnswer[]; names: string[] }> {
  const names = [`${name}-${sequence++}`, `${name}-${sequence++}`];
  const requests: (() => Promise<ApiAnswer>)[] = [
    () => api.call('POST', '/v1/pets', { json: { name: names[0], categoryId: 1 } }),
    () => api.call('POST', '/v1/pets', { json: { name: names[1], categoryId: 1 }, headers: { 'idempotency-key': `key-${names[1]}` } }),
    () => api.call('POST', '/messages', { json: { message: `${name}-message` } }),
    () => api.call('GET', `/v1/pets/${knownPetId}`),
    () => api.call('GET', '/v1/pets?limit=5'),
    () => api.call('GET', '/v1/pets?status=available&limit=5'),
  ];
  const answers: ApiAnswer[] = [];
  for (const send of requests) answers.push(await send());
  return { answers, names };
}

/** The proxy's attempts grouped by SDK call. */
function calls(attempts: readonly Attempt[]): Attempt[][] {
  const byCall = new Map<string, Attempt[]>();
  for (const attempt of attempts) byCall.set(attempt.call, [...(byCall.get(attempt.call) ?? []), attempt]);
  return [...byCall.values()];
}

const THROTTLING_ERRORS: ThrottlingError[] = ['ProvisionedThroughputExceededException', 'ThrottlingException', 'RequestLimitExceeded'];

describe.each(THROTTLING_ERRORS)('while DynamoDB answers %s', (error) => {
  test(
    'every operation answers 503 service_unavailable with Retry-After and stores nothing',
    async () => {
      proxy.throttle(error);
      const { answers, names } = await everyOperation(`throttled-${error}`);
      proxy.throttle(undefined);

      for (const answer of answers) {
        expectError(answer, 503, 'service_unavailable');
        expect(answer.headers.get('retry-after')).toBe('1');
      }
      const stored = [...(await api.scan('pets')), ...(await api.scan('messages')), ...(await api.scan('idempotency'))];
      const mentions = (text: string) => stored.some((item) => JSON.stringify(item).includes(text));
      expect(names.concat(`throttled-${error}-message`).filter(mentions)).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  test(
    'every DynamoDB call gives up within its attempts',
    async () => {
      proxy.throttle(error);
      await everyOperation(`budget-${error}`);
      proxy.throttle(undefined);

      // A filtered listing queries its shards in parallel: one call each, each with its own budget.
      const made = calls(proxy.attempts);
      expect(made.length).toBeGreaterThanOrEqual(6);
      for (const attempts of made) {
        expect(attempts.every((attempt) => attempt.throttled)).toBe(true);
        expect(attempts.length).toBeLessThanOrEqual(DYNAMODB_MAX_ATTEMPTS);
      }
    },
    TEST_TIMEOUT_MS,
  );
});

test('a key the authorizer has not seen yet answers 503, not 401, within the same attempts', async () => {
  const { key } = await api.issueKey('acct_unseen');
  proxy.throttle('ThrottlingException');
  const answer = await api.call('GET', '/v1/pets?limit=1', { key });
  proxy.throttle(undefined);

  expectError(answer, 503, 'service_unavailable');
  expect(answer.headers.get('retry-after')).toBe('1');
  const lookups = calls(proxy.attempts.filter((attempt) => attempt.operation === 'GetItem'));
  expect(lookups).toHaveLength(1);
  expect(lookups[0]?.length).toBeLessThanOrEqual(DYNAMODB_MAX_ATTEMPTS);
});

test('a throttle that lifts after one refused attempt is retried: the create succeeds and is stored once', async () => {
  proxy.throttleNext(1, 'ProvisionedThroughputExceededException', 'PutItem');
  const name = `retried-${sequence++}`;
  const created = await api.call('POST', '/v1/pets', { json: { name, categoryId: 1 } });

  expect(created.status).toBe(201);
  expect((await api.scan('pets')).filter((item) => item.name === name)).toHaveLength(1);
  const puts = calls(proxy.attempts.filter((attempt) => attempt.operation === 'PutItem'));
  expect(puts.map((attempts) => attempts.map((attempt) => attempt.throttled))).toEqual([[true, false]]);
});

test('a read throttled once is retried and answers 200', async () => {
  proxy.throttleNext(1, 'ThrottlingException', 'GetItem');
  const answer = await api.call('GET', `/v1/pets/${knownPetId}`);
  expect(answer.status).toBe(200);
  expect((answer.json as { id: number }).id).toBe(knownPetId);
});
