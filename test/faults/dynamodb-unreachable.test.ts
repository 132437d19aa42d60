/**
 * DynamoDB unreachable (connections reset) or hung (connections accepted, never answered), through a
 * fault-injecting proxy: every request during the fault gets a clean 503 from our code (with the
 * functions' own DynamoDB timeouts, so within the Lambda timeout, never the gateway's 500), every
 * acknowledged write is stored, nothing unacknowledged is, and the API recovers by itself. Log lines are
 * captured throughout: none may contain an API key or an Authorization value.
 *
 * The scenario runs once, before the tests; each test asserts one of its outcomes, so any of them can
 * run alone.
 */
import { expectError, startTestApi, type TestApi } from '../support/test-api';
import { startFaultProxy, type FaultProxy } from '../support/tcp-proxy';
import { testEndpoint } from '../support/local-dynamodb';
import { mixedRound, type Round } from '../support/traffic';

let api: TestApi;
let proxy: FaultProxy;
const logLines: string[] = [];
const rounds: { before?: Round; refused?: Round; hung?: Round; after?: Round } = {};

/** Every line the functions print through the logger (lambda/runtime/logger.ts writes through its own Console). */
async function captureLogs(): Promise<void> {
  const { logger } = await import('#runtime/logger');
  const sink = ((await logger()) as unknown as { console: Console }).console;
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    jest.spyOn(sink, method).mockImplementation((...args: unknown[]) => void logLines.push(args.map(String).join(' ')));
  }
}

beforeAll(async () => {
  proxy = await startFaultProxy(testEndpoint());
  api = await startTestApi({ functionEnvironment: { DYNAMODB_ENDPOINT: proxy.endpoint, POWERTOOLS_LOG_LEVEL: 'DEBUG' } });
  await captureLogs();
  const created = await api.call('POST', '/v1/pets', { json: { name: 'known', categoryId: 1 } });
  const knownPetId = (created.json as { id: number }).id;
  rounds.before = await mixedRound(api, knownPetId);
  proxy.setMode('refuse');
  rounds.refused = await mixedRound(api, knownPetId);
  proxy.setMode('blackhole');
  rounds.hung = await mixedRound(api, knownPetId);
  proxy.setMode('up');
  rounds.after = await mixedRound(api, knownPetId);
}, 120_000);
afterAll(async () => {
  jest.restoreAllMocks();
  await api.close();
  await proxy.close();
});

const round = (name: keyof typeof rounds): Round => {
  const found = rounds[name];
  if (!found) throw new Error(`the scenario did not reach the ${name} round`);
  return found;
};

function expectAllUnavailable(answers: Round['answers']): void {
  for (const answer of answers) {
    expectError(answer, 503, 'service_unavailable');
    expect(answer.headers.get('retry-after')).toBe('1');
  }
}

test('while DynamoDB refuses connections every operation answers 503 service_unavailable', () => {
  expect(round('before').answers.every((answer) => answer.status < 300)).toBe(true);
  expectAllUnavailable(round('refused').answers);
});

test('while DynamoDB hangs every operation answers 503 service_unavailable, within the Lambda timeout', () => {
  expectAllUnavailable(round('hung').answers);
});

test('the API recovers by itself once DynamoDB is back', () => {
  expect(round('after').answers.map((answer) => answer.status)).toEqual([201, 201, 201, 202, 200, 200, 200, 200]);
});

test('every acknowledged write is stored and nothing else is', async () => {
  const all = Object.values(rounds);
  const storedPets = (await api.scan('pets')).map((item) => item.name).filter((name) => name !== 'known');
  expect(storedPets.sort()).toEqual(all.flatMap((each) => each.acknowledgedPets).sort());
  const storedMessages = (await api.scan('messages')).map((item) => item.id);
  expect(storedMessages.sort()).toEqual(all.flatMap((each) => each.acknowledgedMessages).sort());
  expect(all.flatMap((each) => each.acknowledgedPets)).toHaveLength(6);
});
test('log lines name the operation and request, and never carry a key or an Authorization value', () => {
  const entries = logLines.flatMap((chunk) => chunk.split('\n')).filter((line) => line.startsWith('{'));
  const warnings = entries.map((line) => JSON.parse(line) as Record<string, unknown>).filter((entry) => entry.level === 'WARN');
  expect(warnings.length).toBeGreaterThan(0);
  for (const warning of warnings) expect(warning).toMatchObject({ Operation: expect.any(String), apigw_request_id: expect.any(String) });
  const secrets = [api.key, 'pst_', 'Bearer', 'authorization'];
  for (const line of entries) for (const secret of secrets) expect(line).not.toContain(secret);
});
