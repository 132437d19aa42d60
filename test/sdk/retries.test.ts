/**
 * When the SDK retries, how long it waits, and what it gives up with, against a stand-in server that answers as
 * each test scripts it: the service's 503 with `Retry-After` (honoured, up to `maxDelayMs`), API Gateway's 429
 * (backoff with full jitter), 500, 502 and 504 retried like a 503, answers never retried, the account API's
 * `createKey` retried only after a 429, and the caller's `AbortSignal`.
 */
import {
  AccountClient,
  GatewayError,
  NetworkError,
  PetStoreClient,
  ServiceError,
  type PetStoreError,
  type RetryEvent,
  type RetryOptions,
} from '../../clients/typescript/src/index.ts';
import { backoffDelayMs, parseRetryAfter, resolveRetryPolicy } from '../../clients/typescript/src/retry-policy.ts';
import {
  gatewayAnswer,
  serviceError,
  startScriptedServer,
  type Script,
  type ScriptedAnswer,
  type ScriptedServer,
} from './support/scripted-server';

const rex = { id: 244208697521988, name: 'Rex', categoryId: 1, status: 'available' };
const created: ScriptedAnswer = { status: 201, headers: { 'content-type': 'application/json' }, body: rex };
const API_KEY = 'pst_test-key';
const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A stand-in server answering `answers` in turn (the last one again once they run out). */
async function serverAnswering(...answers: (ScriptedAnswer | 'hang' | 'reset')[]): Promise<ScriptedServer> {
  const script: Script = (_request, index) => answers[Math.min(index, answers.length - 1)] ?? 'reset';
  const server = await startScriptedServer(script);
  servers.push(server);
  return server;
}

function clientOf(server: ScriptedServer, retry: RetryOptions = {}, timeoutMs = 5_000): PetStoreClient {
  return new PetStoreClient({ petsBaseUrl: `${server.origin}/v1`, messagesBaseUrl: server.origin, apiKey: API_KEY, retry, timeoutMs });
}

/** The retries a client makes, as its `onRetry` hook sees them. */
function recordRetries(): { retries: RetryEvent[]; onRetry: (retry: RetryEvent) => void } {
  const retries: RetryEvent[] = [];
  return { retries, onRetry: (retry) => retries.push(retry) };
}

const keysSent = (server: ScriptedServer): (string | string[] | undefined)[] =>
  server.received.map((request) => request.headers['idempotency-key']);

describe("the service's 503: Retry-After is honoured, up to maxDelayMs", () => {
  test('Retry-After: 1 waits a second, then the retry (same Idempotency-Key) stores the pet', async () => {
    const server = await serverAnswering(serviceError(503, 'service_unavailable', { 'retry-after': '1' }), created);
    const { retries, onRetry } = recordRetries();
    const started = performance.now();
    await expect(clientOf(server, { onRetry, maxDelayMs: 10_000 }).createPet({ name: 'Rex', categoryId: 1 })).resolves.toEqual(rex);
    expect(performance.now() - started).toBeGreaterThanOrEqual(990);
    expect(retries.map(({ operation, attempt, delayMs }) => ({ operation, attempt, delayMs }))).toEqual([
      { operation: 'createPet', attempt: 1, delayMs: 1000 },
    ]);
    expect(retries[0]?.error).toBeInstanceOf(ServiceError);
    const [first, second] = keysSent(server);
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(second).toBe(first);
  });

  test('a longer Retry-After is cut to maxDelayMs', async () => {
    const server = await serverAnswering(serviceError(503, 'service_unavailable', { 'retry-after': '30' }), created);
    const { retries, onRetry } = recordRetries();
    await expect(clientOf(server, { onRetry, maxDelayMs: 50 }).createPet({ name: 'Rex', categoryId: 1 })).resolves.toEqual(rex);
    expect(retries.map((retry) => retry.delayMs)).toEqual([50]);
  });

  test('Retry-After as delay-seconds or an HTTP date', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    expect(parseRetryAfter('1', now)).toBe(1);
    expect(parseRetryAfter(' 120 ', now)).toBe(120);
    expect(parseRetryAfter('Tue, 01 Jan 2030 00:00:05 GMT', now)).toBe(5);
    expect(parseRetryAfter('Mon, 31 Dec 2029 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  test('after maxAttempts the call fails with the last ServiceError, typed and with its request id', async () => {
    const server = await serverAnswering(serviceError(503, 'service_unavailable', { 'retry-after': '1', 'apigw-requestid': 'req-503' }));
    const error = await clientOf(server, { maxAttempts: 3, maxDelayMs: 1 })
      .listPetsPage()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ operation: 'listPets', status: 503, code: 'service_unavailable', attempts: 3, requestId: 'req-503' });
    expect(server.received).toHaveLength(3);
  });
});

describe("API Gateway's 429: exponential backoff with full jitter", () => {
  test('each wait is random below baseDelayMs · 2^(retry−1), at most maxDelayMs', () => {
    const policy = (random: number) => resolveRetryPolicy({ baseDelayMs: 100, maxDelayMs: 1_000 }, () => random);
    expect([1, 2, 3, 4, 5].map((retry) => backoffDelayMs(retry, policy(0.999_999)))).toEqual([99, 199, 399, 799, 999]);
    expect([1, 2, 3].map((retry) => backoffDelayMs(retry, policy(0)))).toEqual([0, 0, 0]);
    expect(backoffDelayMs(2, policy(0.5))).toBe(100);
  });

  test('429s are retried until one passes; every wait stays under its ceiling', async () => {
    const tooMany = gatewayAnswer(429, 'Too Many Requests');
    const server = await serverAnswering(tooMany, tooMany, tooMany, created);
    const { retries, onRetry } = recordRetries();
    await expect(clientOf(server, { onRetry, baseDelayMs: 20 }).createPet({ name: 'Rex', categoryId: 1 })).resolves.toEqual(rex);
    expect(retries.map((retry) => retry.attempt)).toEqual([1, 2, 3]);
    retries.forEach((retry, index) => expect(retry.delayMs).toBeLessThan(20 * 2 ** index));
    expect(retries.every((retry) => retry.error instanceof GatewayError && retry.error.status === 429)).toBe(true);
    expect(new Set(keysSent(server)).size).toBe(1);
  });

  test('with maxAttempts: 1 the first 429 fails the call as a GatewayError', async () => {
    const server = await serverAnswering(gatewayAnswer(429, 'Too Many Requests'));
    const error = await clientOf(server, { maxAttempts: 1 })
      .submitMessage('hello')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ operation: 'submitMessage', status: 429, attempts: 1, retryAfterSeconds: undefined });
    expect((error as GatewayError).message).toContain('Too Many Requests');
    expect(server.received).toHaveLength(1);
  });
});

describe('500, 502 and 504 are retried like a 503, other errors never: a create repeats its Idempotency-Key, and its error carries it', () => {
  test.each<[string, number, ScriptedAnswer]>([
    ['400 invalid_request', 1, serviceError(400, 'invalid_request')],
    ['401 unauthorized', 1, serviceError(401, 'unauthorized')],
    ['422 idempotency_key_reused', 1, serviceError(422, 'idempotency_key_reused')],
    ["the gateway's 413", 1, gatewayAnswer(413, 'Request Entity Too Large')],
    ['500 internal_error', 3, serviceError(500, 'internal_error')],
    ["the gateway's 500", 3, gatewayAnswer(500, 'Internal Server Error')],
    ['a 502', 3, gatewayAnswer(502, 'Bad Gateway')],
    ['a 504', 3, gatewayAnswer(504, 'Endpoint request timed out')],
  ])('%s: %i request(s) (maxAttempts 3), then thrown with the key', async (_name, attempts, answer) => {
    const server = await serverAnswering(answer);
    const error = await clientOf(server, { maxAttempts: 3, baseDelayMs: 1 })
      .createPet({ name: 'Rex', categoryId: 1 })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ operation: 'createPet', status: answer.status, attempts });
    const keys = keysSent(server);
    expect(new Set(keys)).toEqual(new Set([(error as PetStoreError).idempotencyKey]));
    expect(keys).toHaveLength(attempts);
    expect(server.received).toHaveLength(attempts);
  });

  test("a NetworkError of a create carries the caller's key; errors of reads carry none", async () => {
    const closed = await startScriptedServer(() => 'reset');
    await closed.close();
    const client = clientOf(closed, { maxAttempts: 2, baseDelayMs: 1 });
    await expect(client.submitMessage('hi', { idempotencyKey: 'order-42' })).rejects.toMatchObject({
      name: 'NetworkError',
      idempotencyKey: 'order-42',
    });
    await expect(client.listPetsPage()).rejects.toMatchObject({ name: 'NetworkError', idempotencyKey: undefined });
  });
});

describe("the account API's createKey is retried only after the gateway's 429", () => {
  const keyCreated: ScriptedAnswer = {
    status: 201,
    body: { keyId: 'key_0123456789abcdef', description: 'CI', status: 'active', createdAt: '2030-01-01T00:00:00.000Z', key: 'pst_x' },
  };
  const accountClient = (server: ScriptedServer, retry: RetryOptions = { baseDelayMs: 1 }, timeoutMs = 5_000) =>
    new AccountClient({ accountBaseUrl: server.origin, accessToken: 'header.payload.signature', retry, timeoutMs });

  test.each([
    ["the service's 503", serviceError(503, 'service_unavailable', { 'retry-after': '1' }) as ScriptedAnswer | 'reset' | 'hang'],
    ['a cut connection', 'reset' as const],
    ['no answer in time', 'hang' as const],
  ])('%s: one request, since it may have created a key', async (_name, answer) => {
    const server = await serverAnswering(answer, keyCreated);
    await expect(accountClient(server, {}, 300).createKey('CI')).rejects.toMatchObject({ operation: 'createAccountKey', attempts: 1 });
    expect(server.received).toHaveLength(1);
  });

  test("the gateway's 429 is retried: no function ran", async () => {
    const server = await serverAnswering(gatewayAnswer(429, 'Too Many Requests'), keyCreated);
    await expect(accountClient(server).createKey('CI')).resolves.toMatchObject({ keyId: 'key_0123456789abcdef', key: 'pst_x' });
    expect(server.received).toHaveLength(2);
  });

  test("the service's own 429 (daily_key_limit_reached) is not retried, and says when to come back", async () => {
    const server = await serverAnswering(serviceError(429, 'daily_key_limit_reached', { 'retry-after': '3600' }), keyCreated);
    const error = await accountClient(server)
      .createKey('CI')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ code: 'daily_key_limit_reached', status: 429, retryAfterSeconds: 3600, attempts: 1 });
    expect(server.received).toHaveLength(1);
  });

  test('listing keys is retried like any read', async () => {
    const list: ScriptedAnswer = { status: 200, body: { keys: [], maxActiveKeys: 5, revocationDelaySeconds: 60 } };
    const server = await serverAnswering(serviceError(503, 'service_unavailable', { 'retry-after': '1' }), 'reset', list);
    await expect(accountClient(server, { maxDelayMs: 1 }).listKeys()).resolves.toEqual(list.body);
    expect(server.received).toHaveLength(3);
  });
});

describe('network failures', () => {
  test('a refused connection is retried, then fails as a NetworkError (not timed out) with its cause', async () => {
    const closed = await startScriptedServer(() => 'reset');
    await closed.close();
    const { retries, onRetry } = recordRetries();
    const error = await clientOf(closed, { baseDelayMs: 1, maxAttempts: 3, onRetry })
      .submitMessage('hello')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ operation: 'submitMessage', timedOut: false, attempts: 3 });
    // What fetch threw (an error of Node's realm, not jest's: hence no toBeInstanceOf(Error)).
    expect((error as NetworkError).cause).toHaveProperty('message', 'fetch failed');
    expect((error as NetworkError).message).toMatch(/ECONNREFUSED/);
    expect(retries).toHaveLength(2);
  });

  test('a server that never answers: each attempt times out, then a NetworkError with timedOut', async () => {
    const server = await serverAnswering('hang');
    const error = await clientOf(server, { maxAttempts: 2, baseDelayMs: 1 }, 200)
      .listPetsPage()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ operation: 'listPets', timedOut: true, attempts: 2 });
    expect((error as NetworkError).message).toContain('no answer within 200 ms');
    expect(server.received).toHaveLength(2);
  });
});

describe("the caller's AbortSignal", () => {
  test('aborting during a wait between retries ends the call at once with the signal’s reason', async () => {
    const server = await serverAnswering(serviceError(503, 'service_unavailable', { 'retry-after': '60' }));
    const controller = new AbortController();
    const reason = new Error('the user gave up');
    const client = clientOf(server, { maxDelayMs: 60_000, onRetry: () => controller.abort(reason) });
    await expect(client.createPet({ name: 'Rex', categoryId: 1 }, { signal: controller.signal })).rejects.toBe(reason);
    expect(server.received).toHaveLength(1);
  });

  test('aborting while a request waits for its answer ends the call with the reason, not a NetworkError', async () => {
    const controller = new AbortController();
    const reason = new Error('cancelled');
    const server = await startScriptedServer(() => {
      controller.abort(reason);
      return 'hang';
    });
    servers.push(server);
    await expect(clientOf(server).listPetsPage({ signal: controller.signal })).rejects.toBe(reason);
    expect(server.received).toHaveLength(1);
  });

  test('an already aborted signal sends nothing', async () => {
    const server = await serverAnswering(created);
    await expect(clientOf(server).createPet({ name: 'Rex', categoryId: 1 }, { signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(server.received).toHaveLength(0);
  });
});
