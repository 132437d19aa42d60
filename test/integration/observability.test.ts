/**
 * What a request leaves behind, through the local server (gateway, authorizer, function): the lines it
 * writes at each log level, the embedded-metric-format documents CloudWatch turns into metrics, and the
 * ids that tie them to the `apigw-requestid` the client sees. Captured where Lambda would read them: the
 * process's stdout and stderr.
 */
import { METRICS_NAMESPACE } from '#shared/metrics';
import { useTestApi, type ApiAnswer } from '../support/test-api';

const api = useTestApi();

type Line = Record<string, unknown>;
let lines: Line[] = [];

function capture(stream: NodeJS.WriteStream): void {
  const original = stream.write.bind(stream);
  jest.spyOn(stream, 'write').mockImplementation((chunk: unknown, ...rest: unknown[]) => {
    const text = String(chunk);
    const parsed = text.trim().startsWith('{') ? (JSON.parse(text) as Line) : undefined;
    if (parsed && ('level' in parsed || '_aws' in parsed)) lines.push(parsed);
    else return original(chunk as string, ...(rest as []));
    return true;
  });
}

beforeAll(() => {
  capture(process.stdout);
  capture(process.stderr);
});
afterAll(() => {
  jest.restoreAllMocks();
});

const saved = { level: process.env.POWERTOOLS_LOG_LEVEL, metrics: process.env.POWERTOOLS_METRICS_DISABLED };
afterAll(() => {
  process.env.POWERTOOLS_LOG_LEVEL = saved.level;
  process.env.POWERTOOLS_METRICS_DISABLED = saved.metrics;
});

/** Makes one request at `level` and returns its answer and everything the functions wrote for it. */
async function request(
  level: string,
  method: string,
  path: string,
  json?: unknown,
): Promise<{ answer: ApiAnswer; logs: Line[]; emf: Line[] }> {
  process.env.POWERTOOLS_LOG_LEVEL = level;
  process.env.POWERTOOLS_METRICS_DISABLED = 'false';
  lines = [];
  const answer = await api.call(method, path, json === undefined ? {} : { json });
  return { answer, logs: lines.filter((line) => 'level' in line), emf: lines.filter((line) => '_aws' in line) };
}

const requestIdOf = (answer: ApiAnswer): string => {
  const id = answer.headers.get('apigw-requestid');
  if (!id) throw new Error('the gateway sent no apigw-requestid');
  return id;
};

interface Directive {
  Namespace: string;
  Dimensions: string[][];
  Metrics: { Name: string; Unit: string }[];
}
const directivesOf = (doc: Line): Directive[] => (doc._aws as { CloudWatchMetrics: Directive[] }).CloudWatchMetrics;

test('at INFO a request writes one line per function, each with the request ids, and no DEBUG line', async () => {
  const { answer, logs } = await request('INFO', 'POST', '/v1/pets', { name: 'Rex', categoryId: 1 });
  expect(answer.status).toBe(201);
  const apigwRequestId = requestIdOf(answer);
  expect(logs.map((line) => [line.level, line.operation])).toEqual([
    ['INFO', 'authorizer'],
    ['INFO', 'createPet'],
  ]);
  const [authorizer, createPet] = logs as [Line, Line];
  expect(createPet).toMatchObject({
    message: 'request',
    service: 'petstore',
    method: 'POST',
    route: 'POST /v1/pets',
    status: 201,
    outcome: 'success',
    apigw_request_id: apigwRequestId,
    function_request_id: expect.stringMatching(/^[0-9a-f-]{36}$/) as unknown,
    cold_start: expect.any(Boolean) as unknown,
    latencyMs: expect.any(Number) as unknown,
    timestamp: expect.any(String) as unknown,
  });
  expect(authorizer).toMatchObject({ outcome: 'success', apigw_request_id: apigwRequestId });
  // Two invocations, two Lambda request ids, one gateway request id.
  expect(authorizer.function_request_id).not.toBe(createPet.function_request_id);
  // Never the key, in any line.
  expect(JSON.stringify(logs)).not.toContain(api.key);
});

test('at DEBUG the lines show the request going through the pipeline to its DynamoDB call, all under its ids', async () => {
  const { answer, logs } = await request('DEBUG', 'POST', '/v1/pets', { name: 'Rex', categoryId: 1 });
  expect(answer.status).toBe(201);
  const ofCreatePet = logs.filter((line) => line.operation === 'createPet');
  const messages = ofCreatePet.map((line) => line.message);
  expect(messages[0]).toBe('request received');
  expect(messages).toEqual(expect.arrayContaining(['middleware start', 'middleware end', 'operation start', 'operation end', 'aws call']));
  expect(messages.at(-1)).toBe('request');
  expect(messages.indexOf('operation start')).toBeLessThan(messages.indexOf('aws call'));
  expect(ofCreatePet.find((line) => line.message === 'aws call')).toMatchObject({
    awsService: 'DynamoDB',
    awsOperation: 'PutItem',
    table: api.tableNames.pets,
    ms: expect.any(Number) as unknown,
  });
  const ids = new Set(ofCreatePet.map((line) => `${String(line.function_request_id)} ${String(line.apigw_request_id)}`));
  expect([...ids]).toHaveLength(1);
  expect(ofCreatePet[0]?.apigw_request_id).toBe(requestIdOf(answer));
  // The authorizer's key lookup shows too (a cache miss reads the table at most once per key and TTL).
  expect(logs.filter((line) => line.operation === 'authorizer').map((line) => line.message)).toContain('request');
});

test('at WARN a successful request writes no log line', async () => {
  const { answer, logs, emf } = await request('WARN', 'GET', '/v1/pets?limit=1');
  expect(answer.status).toBe(200);
  expect(logs).toEqual([]);
  // Metrics do not depend on the log level.
  expect(emf).toHaveLength(2);
});

test('a created pet publishes its request metrics and PetsCreated by status, with no key or account in any dimension', async () => {
  const { answer, emf } = await request('WARN', 'POST', '/v1/pets', { name: 'Sold', categoryId: 1, status: 'sold' });
  expect(answer.status).toBe(201);
  const doc = emf.find((line) => line.Operation === 'createPet');
  expect(doc).toMatchObject({
    Service: 'petstore',
    Stage: 'local',
    // Lambda's AWS_LAMBDA_FUNCTION_VERSION: a canary's alarms count the new version's answers apart.
    Version: 'local',
    Outcome: 'success',
    Requests: 1,
    Errors: 0,
    Latency: expect.any(Number) as unknown,
    ColdStarts: expect.any(Number) as unknown,
    PetsCreated: 1,
    status: 'sold',
    apigw_request_id: requestIdOf(answer),
  });
  const directives = directivesOf(doc as Line);
  expect(new Set(directives.map((directive) => directive.Namespace))).toEqual(new Set([METRICS_NAMESPACE]));
  expect(directives).toEqual(
    expect.arrayContaining([
      {
        Namespace: METRICS_NAMESPACE,
        Dimensions: [['Service', 'Stage', 'Operation']],
        Metrics: [
          { Name: 'Requests', Unit: 'Count' },
          { Name: 'Errors', Unit: 'Count' },
          { Name: 'Latency', Unit: 'Milliseconds' },
          { Name: 'ColdStarts', Unit: 'Count' },
        ],
      },
      {
        Namespace: METRICS_NAMESPACE,
        Dimensions: [['Service', 'Stage', 'Operation', 'Version', 'Outcome']],
        Metrics: [{ Name: 'Requests', Unit: 'Count' }],
      },
      { Namespace: METRICS_NAMESPACE, Dimensions: [['Service', 'Stage', 'status']], Metrics: [{ Name: 'PetsCreated', Unit: 'Count' }] },
    ]),
  );
  // Every dimension value is present in the document and none is an account, a key or its id.
  for (const line of emf) {
    for (const directive of directivesOf(line)) for (const name of directive.Dimensions.flat()) expect(typeof line[name]).toBe('string');
    expect(JSON.stringify(line)).not.toMatch(/acct_|pst_/);
  }
  expect(emf.find((line) => line.Operation === 'authorizer')).toMatchObject({ Outcome: 'success', Requests: 1, Errors: 0 });
});

test('a failed request counts as an error by its code, and an anonymous caller as an authorizer client error by its reason', async () => {
  process.env.POWERTOOLS_LOG_LEVEL = 'INFO';
  process.env.POWERTOOLS_METRICS_DISABLED = 'false';
  lines = [];
  const answer = await api.call('GET', '/v1/pets/1', { key: null });
  expect(answer.status).toBe(401);
  const emf = lines.filter((line) => '_aws' in line);
  const operation = emf.find((line) => line.Operation === 'getPet');
  expect(operation).toMatchObject({ Outcome: 'client_error', Code: 'unauthorized', Requests: 1, Errors: 1 });
  expect(directivesOf(operation as Line)).toContainEqual({
    Namespace: METRICS_NAMESPACE,
    Dimensions: [['Service', 'Stage', 'Operation', 'Code']],
    Metrics: [{ Name: 'Errors', Unit: 'Count' }],
  });
  expect(emf.find((line) => line.Operation === 'authorizer')).toMatchObject({ Outcome: 'client_error', Code: 'missing', Errors: 1 });
  const info = lines.find((line) => line.level === 'INFO' && line.operation === 'getPet');
  expect(info).toMatchObject({ status: 401, outcome: 'client_error', code: 'unauthorized', apigw_request_id: requestIdOf(answer) });
});
