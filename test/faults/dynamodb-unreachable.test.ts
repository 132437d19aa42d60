/**
 * DynamoDB unreachable (connections reset) or hung (connections accepted, never answered), through a
 * fault-injecting proxy: every request during the fault gets a clean 503 quickly, every acknowledged
 * write is stored, nothing unacknowledged is, and the API recovers by itself. Log lines are captured
 * throughout: none may contain an API key or an Authorization value.
 */
import { expectError, startTestApi, type TestApi } from '../support/test-api';
import { startFaultProxy, type FaultProxy } from '../support/tcp-proxy';
import { testEndpoint } from '../support/local-dynamodb';
import { mixedRound, type Round } from '../support/traffic';

let api: TestApi;
let proxy: FaultProxy;
let knownPetId: number;
const logLines: string[] = [];

/** Every line the functions' Powertools Logger prints (it writes through its own Console). */
async function captureLogs(): Promise<void> {
  const { logger } = await import('../../lambda/shared/logger');
  const sink = ((await logger()) as unknown as { console: Console }).console;
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    jest.spyOn(sink, method).mockImplementation((...args: unknown[]) => void logLines.push(args.map(String).join(' ')));
  }
}

beforeAll(async () => {
  proxy = await startFaultProxy(testEndpoint());
  api = await startTestApi({
    functionEnvironment: {
      DYNAMODB_ENDPOINT: proxy.endpoint,
      DYNAMODB_CONNECTION_TIMEOUT_MS: '300',
      DYNAMODB_REQUEST_TIMEOUT_MS: '400',
      POWERTOOLS_LOG_LEVEL: 'DEBUG',
    },
  });
  await captureLogs();
  const created = await api.call('POST', '/v1/pets', { json: { name: 'known', categoryId: 1 } });
  knownPetId = (created.json as { id: number }).id;
});
afterAll(async () => {
  jest.restoreAllMocks();
  await api.close();
  await proxy.close();
});

const rounds: Round[] = [];

function expectAllUnavailable(round: Round): void {
  for (const answer of round.answers) {
    expectError(answer, 503, 'service_unavailable');
    expect(answer.headers.get('retry-after')).toBe('1');
  }
  // Three attempts with short timeouts and jittered backoff: far inside a 10 s Lambda timeout.
  expect(round.slowestMs).toBeLessThan(5_000);
}

test('while DynamoDB refuses connections every operation answers 503 service_unavailable', async () => {
  rounds.push(await mixedRound(api, knownPetId));
  proxy.setMode('refuse');
  const during = await mixedRound(api, knownPetId);
  rounds.push(during);
  expectAllUnavailable(during);
});

test('while DynamoDB hangs every operation answers 503 within the timeouts', async () => {
  proxy.setMode('blackhole');
  const during = await mixedRound(api, knownPetId);
  rounds.push(during);
  expectAllUnavailable(during);
});

test('the API recovers by itself once DynamoDB is back', async () => {
  proxy.setMode('up');
  const after = await mixedRound(api, knownPetId);
  rounds.push(after);
  expect(after.answers.map((answer) => answer.status)).toEqual([201, 201, 201, 202, 200, 200, 200, 200]);
});

test('every acknowledged write is stored and nothing else is', async () => {
  const storedPets = (await api.scan('pets')).map((item) => item.name).filter((name) => name !== 'known');
  expect(storedPets.sort()).toEqual(rounds.flatMap((round) => round.acknowledgedPets).sort());
  const storedMessages = (await api.scan('messages')).map((item) => item.id);
  expect(storedMessages.sort()).toEqual(rounds.flatMap((round) => round.acknowledgedMessages).sort());
  expect(rounds.flatMap((round) => round.acknowledgedPets)).toHaveLength(6);
});

test('log lines name the operation and request, and never carry a key or an Authorization value', () => {
  const entries = logLines.flatMap((chunk) => chunk.split('\n')).filter((line) => line.startsWith('{'));
  const warnings = entries.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => entry.level === 'WARN');
  expect(warnings.length).toBeGreaterThan(0);
  for (const warning of warnings) expect(warning).toMatchObject({ operation: expect.any(String), requestId: expect.any(String) });
  const secrets = [api.key, 'pst_', 'Bearer', 'authorization'];
  for (const line of entries) for (const secret of secrets) expect(line).not.toContain(secret);
});
