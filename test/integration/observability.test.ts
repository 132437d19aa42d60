/**
 * What a request leaves behind, through the local server (gateway, authorizer, function): the lines it
 * writes at each log level, the one per invocation that is also the embedded-metric-format document CloudWatch
 * turns into metrics, what they weigh, and the ids that tie them to the `apigw-requestid` the client sees.
 * Captured where Lambda would read them: the process's stdout and stderr.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
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

/** Makes one request at `level` (metrics published, as in Lambda, unless `metrics` is false) with the test key or `key`. */
async function request(
  level: string,
  method: string,
  path: string,
  json?: unknown,
  metrics = true,
  key?: string | null,
): Promise<{ answer: ApiAnswer; logs: Line[]; emf: Line[] }> {
  process.env.POWERTOOLS_LOG_LEVEL = level;
  process.env.POWERTOOLS_METRICS_DISABLED = String(!metrics);
  lines = [];
  const answer = await api.call(method, path, { ...(json === undefined ? {} : { json }), ...(key === undefined ? {} : { key }) });
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
  Metrics: { Name: string; Unit?: string }[];
}
const directivesOf = (doc: Line): Directive[] => (doc._aws as { CloudWatchMetrics: Directive[] }).CloudWatchMetrics;

/**
 * Lambda's application log-level filtering as its guide states it: a JSON line keeps its `level` only with an
 * RFC 3339 `timestamp`; one without a valid level or timestamp counts as INFO. Kept when at or above the function's level.
 */
const LAMBDA_LEVELS = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'FATAL'];
function lambdaKeeps(line: Line, functionLevel: string): boolean {
  const stated = String(line.level).toUpperCase();
  const timed = typeof line.timestamp === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(line.timestamp);
  const level = timed && LAMBDA_LEVELS.includes(stated) ? stated : 'INFO';
  return LAMBDA_LEVELS.indexOf(level) >= LAMBDA_LEVELS.indexOf(functionLevel);
}

const bytesOf = (written: readonly Line[]): number => written.reduce((sum, line) => sum + Buffer.byteLength(JSON.stringify(line)), 0);

/** docs/capacity.md's figures for the application log of a keyed read and of a create, both invocations together. */
function documentedBytes(): { read: number; create: number } {
  const text = readFileSync(resolve(__dirname, '../../docs/capacity.md'), 'utf8');
  const figures = /\*\*Application log: ([\d,]+) bytes per keyed read, ([\d,]+) per createPet\*\*/.exec(text);
  if (!figures) throw new Error('docs/capacity.md states no application-log bytes per keyed read and per createPet');
  return { read: Number(figures[1]?.replace(',', '')), create: Number(figures[2]?.replace(',', '')) };
}

test('at INFO a keyed read writes one line, from the function, that is its log and its metrics; the admitted caller’s authorizer writes none', async () => {
  const created = await request('INFO', 'POST', '/v1/pets', { name: 'Rex', categoryId: 1 });
  const petId = (created.answer.json as { id: number }).id;
  const { answer, logs } = await request('INFO', 'GET', `/v1/pets/${petId}`);
  expect(answer.status).toBe(200);
  expect(logs).toHaveLength(1);
  expect(logs[0]).toMatchObject({
    level: 'INFO',
    message: 'request',
    timestamp: expect.any(String) as unknown,
    Operation: 'getPet',
    Outcome: 'success',
    statusCode: 200,
    apigw_request_id: requestIdOf(answer),
    function_request_id: expect.stringMatching(/^[0-9a-f-]{36}$/) as unknown,
    Requests: 1,
    Latency: expect.any(Number) as unknown,
    _aws: expect.objectContaining({ CloudWatchMetrics: expect.any(Array) as unknown }) as unknown,
  });
  // The path is the access log's, under the same request id.
  expect(logs[0]).not.toHaveProperty('path');
  // Never the key, in any line.
  expect(JSON.stringify(logs)).not.toContain(api.key);
});

test('the application log of a keyed read and of a create at INFO: what docs/capacity.md states, and at most 1,000 bytes a read', async () => {
  const created = await request('INFO', 'POST', '/v1/pets', { name: 'Rex', categoryId: 1 });
  expect(created.answer.status).toBe(201);
  const petId = (created.answer.json as { id: number }).id;
  const read = await request('INFO', 'GET', `/v1/pets/${petId}`);
  const measured = { read: bytesOf(read.logs), create: bytesOf(created.logs) };
  expect(measured.read).toBeLessThanOrEqual(1_000);
  // Within a few bytes: ids, latencies and the stage's name differ in length from one request to the next.
  const documented = documentedBytes();
  expect(Math.abs(measured.read - documented.read)).toBeLessThanOrEqual(12);
  expect(Math.abs(measured.create - documented.create)).toBeLessThanOrEqual(12);
});

test('at DEBUG the lines show the request going through the pipeline to its DynamoDB call, all under its ids', async () => {
  const { answer, logs } = await request('DEBUG', 'POST', '/v1/pets', { name: 'Rex', categoryId: 1 });
  expect(answer.status).toBe(201);
  const ofCreatePet = logs.filter((line) => line.Operation === 'createPet');
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
  // The authorizer's own path shows too, though it writes no request line for an admitted caller.
  expect(logs.filter((line) => line.Operation === 'authorizer').map((line) => line.message)).toContain('request received');
});

test.each(['WARN', 'ERROR'])(
  'at %s a successful request writes only its metrics-carrying line, at that level, which Lambda’s filter keeps',
  async (level) => {
    const { answer, logs } = await request(level, 'GET', '/v1/pets?limit=1');
    expect(answer.status).toBe(200);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ level, message: 'request', Operation: 'listPets', Requests: 1 });
    expect(directivesOf(logs[0] as Line).length).toBeGreaterThan(0);
    expect(lambdaKeeps(logs[0] as Line, level)).toBe(true);
  },
);

test('outside Lambda, with metrics off (npm start), WARN writes nothing for a successful request and INFO no metrics document', async () => {
  const quiet = await request('WARN', 'GET', '/v1/pets?limit=1', undefined, false);
  expect(quiet.logs).toEqual([]);
  const { logs } = await request('INFO', 'GET', '/v1/pets?limit=1', undefined, false);
  expect(logs).toHaveLength(1);
  expect(logs[0]).toMatchObject({ level: 'INFO', Operation: 'listPets', Outcome: 'success' });
  expect(logs[0]).not.toHaveProperty('_aws');
});

test('the Logs Insights query of docs/operations.md finds a request’s lines by the id the client got', async () => {
  const text = readFileSync(resolve(__dirname, '../../docs/operations.md'), 'utf8');
  const query = /`fields ([^|`]+)\| filter (\w+) = "<apigw-requestid>"/.exec(text);
  if (!query) throw new Error('docs/operations.md has no Logs Insights query by apigw-requestid');
  const { answer, logs } = await request('INFO', 'GET', '/v1/pets/1', undefined, true, null);
  const found = logs.filter((line) => line[query[2] as string] === requestIdOf(answer));
  // The authorizer's refusal and the function's 401, both.
  expect(found.map((line) => line.Operation).sort()).toEqual(['authorizer', 'getPet']);
  const fields = (query[1] as string)
    .split(',')
    .map((field) => field.trim())
    .filter((field) => !field.startsWith('@'));
  for (const field of fields) expect(found.filter((line) => field in line)).not.toEqual([]);
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
        Metrics: [{ Name: 'Requests' }, { Name: 'Errors' }, { Name: 'Latency', Unit: 'Milliseconds' }, { Name: 'ColdStarts' }],
      },
      {
        Namespace: METRICS_NAMESPACE,
        Dimensions: [['Service', 'Stage', 'Operation', 'Version', 'Outcome']],
        Metrics: [{ Name: 'Requests' }],
      },
      { Namespace: METRICS_NAMESPACE, Dimensions: [['Service', 'Stage', 'status']], Metrics: [{ Name: 'PetsCreated' }] },
    ]),
  );
  // Every dimension value is present in the document and none is an account, a key or its id.
  for (const line of emf) {
    for (const directive of directivesOf(line)) for (const name of directive.Dimensions.flat()) expect(typeof line[name]).toBe('string');
    expect(JSON.stringify(line)).not.toMatch(/acct_|pst_/);
  }
  // The authorizer admitted the key: no line, no metrics of its own.
  expect(emf.map((line) => line.Operation)).toEqual(['createPet']);
});

test('a failed request counts as an error by its code, and an anonymous caller as an authorizer client error by its reason', async () => {
  const { answer, emf } = await request('INFO', 'GET', '/v1/pets/1', undefined, true, null);
  expect(answer.status).toBe(401);
  const operation = emf.find((line) => line.Operation === 'getPet');
  expect(operation).toMatchObject({ Outcome: 'client_error', Code: 'unauthorized', Requests: 1, Errors: 1 });
  expect(directivesOf(operation as Line)).toContainEqual({
    Namespace: METRICS_NAMESPACE,
    Dimensions: [['Service', 'Stage', 'Operation', 'Code']],
    Metrics: [{ Name: 'Errors' }],
  });
  expect(emf.find((line) => line.Operation === 'authorizer')).toMatchObject({ Outcome: 'client_error', Code: 'missing', Errors: 1 });
  expect(operation).toMatchObject({ level: 'INFO', statusCode: 401, apigw_request_id: requestIdOf(answer) });
});
