/**
 * `npm run logs`: the lines it prints for each shape a stage logs in, what it refuses before calling AWS, and
 * runs in this process (scripts/logs/command.ts, with a test clock) against a stand-in for CloudFormation and
 * CloudWatch Logs that pages its answers and throttles as a quota shared with other readers does. That the stack
 * names its log groups as scripts/logs/lines.ts expects is a template test (test/infra/stack/functions.ts).
 */
import { createServer, type IncomingMessage } from 'node:http';
import { DEPLOYED_FUNCTIONS } from '#shared/deployed-functions';
import { constructIdOf } from '#lib/construct-ids';
import { CALL_GAP_MS, logsCommand, type Clock } from '../../scripts/logs/command';
import { API_NAMES, formatLogLine, logSourcesOf, parseSince, shapeLogEvent } from '../../scripts/logs/lines';
import { listenOnLoopback, type Listening } from '../support/loopback-server';

const REQUEST_ID = '0b6f4c2e-1d3a-4e5f-9a7b-8c9d0e1f2a3b';
const AT = Date.parse('2025-05-01T10:00:00.000Z');
/** A JSON log line as CloudWatch Logs hands it over. */
const shapeJson = (source: string, entry: object) => shapeLogEvent(source, { timestamp: AT, message: JSON.stringify(entry) });
/** A function's JSON line (lambda/runtime/logger.ts) of REQUEST_ID. */
const functionLine = (level: string, message: string, fields: object) => ({
  level,
  message,
  timestamp: '2025-05-01T10:00:00.123Z',
  function_request_id: REQUEST_ID,
  ...fields,
});

describe('each log line, as the operator reads it', () => {
  it("a function's line: its time, level, request id and message, and only the fields that differ per line", () => {
    const line = shapeJson(
      'createPet',
      functionLine('WARN', 'idempotency record conflict', {
        service: 'petstore',
        function_name: 'PetStore-dev-CreatePetFunction',
        cold_start: true,
        xray_trace_id: '1-abc-def',
        code: 'conflict',
      }),
    );
    expect(line).toEqual({
      time: '2025-05-01T10:00:00.123Z',
      level: 'WARN',
      source: 'createPet',
      requestId: REQUEST_ID,
      message: 'idempotency record conflict',
      fields: { cold_start: true, xray_trace_id: '1-abc-def', code: 'conflict' },
    });
    expect(formatLogLine(line)).toBe(
      `2025-05-01T10:00:00.123Z WARN  createPet ${REQUEST_ID} idempotency record conflict {"cold_start":true,"code":"conflict"}`,
    );
  });

  it("a request line, which is also its metrics document: the metrics' directive is left to --json", () => {
    const metrics = { Timestamp: AT, CloudWatchMetrics: [] };
    const line = shapeJson(
      'getPet',
      functionLine('INFO', 'request', { Operation: 'getPet', statusCode: 200, Outcome: 'success', _aws: metrics }),
    );
    expect(formatLogLine(line)).toBe(`2025-05-01T10:00:00.123Z INFO  getPet ${REQUEST_ID} request {"statusCode":200,"Outcome":"success"}`);
  });

  it("Lambda's report record becomes one REPORT line with duration, memory and init time", () => {
    const line = shapeJson('listPets', {
      time: '2025-05-01T10:00:01.000Z',
      type: 'platform.report',
      record: {
        requestId: REQUEST_ID,
        metrics: { durationMs: 12.5, billedDurationMs: 13, memorySizeMB: 512, maxMemoryUsedMB: 81, initDurationMs: 210.4 },
        status: 'success',
      },
    });
    expect(formatLogLine(line)).toBe(
      `2025-05-01T10:00:01.000Z INFO  listPets ${REQUEST_ID} REPORT 12.5 ms (billed 13 ms), 81 of 512 MB, init 210.4 ms {"status":"success"}`,
    );
  });

  it('a timed-out invocation is an ERROR', () => {
    const line = shapeJson('getPet', {
      time: '2025-05-01T10:00:02.000Z',
      type: 'platform.runtimeDone',
      record: { requestId: REQUEST_ID, status: 'timeout' },
    });
    expect(line).toMatchObject({ level: 'ERROR', requestId: REQUEST_ID, message: 'platform.runtimeDone', fields: { status: 'timeout' } });
  });

  it('an access-log line: route, path, status and latency, its level from the status, and no `-` placeholders', () => {
    const line = shapeJson('pets-api', {
      requestId: 'Kx1abcdEFgh=',
      ip: '203.0.113.9',
      path: '/v1/pets',
      routeKey: 'GET /v1/pets',
      status: '401',
      responseLatencyMs: '7',
      integrationError: '-',
      anonymousReason: 'unknown_key',
    });
    expect(formatLogLine(line)).toBe(
      '2025-05-01T10:00:00.000Z WARN  pets-api Kx1abcdEFgh= GET /v1/pets /v1/pets → 401 in 7 ms {"ip":"203.0.113.9","anonymousReason":"unknown_key"}',
    );
  });

  it('a plain text line keeps its text, and Node’s tab-separated form gives up its request id and level', () => {
    expect(formatLogLine(shapeLogEvent('notFound', { timestamp: AT, message: 'something odd\n' }))).toBe(
      '2025-05-01T10:00:00.000Z INFO  notFound - something odd',
    );
    expect(shapeLogEvent('notFound', { timestamp: AT, message: `2025-05-01T10:00:03.000Z\t${REQUEST_ID}\tERROR\tboom` })).toEqual({
      time: '2025-05-01T10:00:03.000Z',
      level: 'ERROR',
      source: 'notFound',
      requestId: REQUEST_ID,
      message: 'boom',
      fields: {},
    });
  });
});

describe('--since', () => {
  it('takes a duration back from now or an ISO time', () => {
    expect(parseSince('15m', AT)).toBe(AT - 15 * 60_000);
    expect(parseSince('90s', AT)).toBe(AT - 90_000);
    expect(parseSince('2h', AT)).toBe(AT - 7_200_000);
    expect(parseSince('1d', AT)).toBe(AT - 86_400_000);
    expect(parseSince('2025-04-30T22:00:00Z', AT)).toBe(Date.parse('2025-04-30T22:00:00Z'));
  });

  it('refuses what is neither, and a time to come', () => {
    expect(() => parseSince('15', AT)).toThrow(/give a duration \(30s, 15m, 2h, 1d\) or an ISO time/);
    expect(() => parseSince('15 minutes', AT)).toThrow(/give a duration/);
    expect(() => parseSince('2025-05-02T00:00:00Z', AT)).toThrow(/in the future/);
  });
});

/** A clock that moves only when the command waits, and remembers every wait. */
function testClock(): Clock & { readonly waits: number[] } {
  let now = AT;
  const waits: number[] = [];
  return {
    waits,
    now: () => now,
    sleep: (ms) => {
      if (ms > 0) waits.push(ms);
      now += ms;
      return Promise.resolve();
    },
  };
}

/** What the command printed, on stdout and stderr, with what the stand-in did in between (`|page …`). */
let printed: string[];
let complaints: string[];
beforeEach(() => {
  printed = [];
  complaints = [];
  jest.spyOn(console, 'log').mockImplementation((line: unknown) => void printed.push(String(line)));
  jest.spyOn(console, 'error').mockImplementation((line: unknown) => void complaints.push(String(line)));
});
afterEach(() => jest.restoreAllMocks());

describe('refused before any AWS call', () => {
  it('without --stage', async () => {
    expect(await logsCommand([], testClock())).toBe(2);
    expect(complaints.join('\n')).toMatch(/^--stage must be one of dev, staging, prod/);
  });

  it('an unknown function, naming the ones there are', async () => {
    expect(await logsCommand(['--stage', 'dev', '--function', 'createPets'], testClock())).toBe(2);
    expect(complaints.join('\n')).toMatch(/^no function createPets; the stage's functions are authorizer, .*createPet,/);
  });

  it('a --since it cannot read', async () => {
    expect(await logsCommand(['--stage', 'dev', '--since', 'yesterday'], testClock())).toBe(2);
    expect(complaints.join('\n')).toMatch(/^--since yesterday: give a duration/);
  });
});

/** The stack's log groups, with logical ids of the shape the CDK gives them (`CreatePetLogs` + an 8-digit hash). */
const STACK_LOG_GROUPS = [
  ...DEPLOYED_FUNCTIONS.map((fn) => `${constructIdOf(fn.name)}Logs0A1B2C3D`),
  ...API_NAMES.map((api) => `${constructIdOf(api)}ApiAccessLogs4E5F6A7B`),
].map((logicalId) => ({ logicalId, physicalId: `PetStore-dev-${logicalId}`, type: 'AWS::Logs::LogGroup' }));

const groupOf = (name: string): string => {
  const group = logSourcesOf(STACK_LOG_GROUPS).find((source) => source.name === name);
  if (!group) throw new Error(`no log group for ${name}`);
  return group.logGroupName;
};

const lineAt = (message: string, at: number, requestId = REQUEST_ID) =>
  JSON.stringify({ level: 'INFO', message, timestamp: new Date(at).toISOString(), function_request_id: requestId });

describe('against a stand-in for CloudFormation and CloudWatch Logs that pages and throttles', () => {
  let standIn: Listening;
  let clock: ReturnType<typeof testClock>;
  /** What each log group holds; a test may add to it while the command follows. */
  const held = new Map<string, { eventId: string; timestamp: number; message: string }[]>();
  /** FilterLogEvents calls: the group, the filter pattern, and whether it was throttled. */
  const calls: { group: string; filterPattern?: string; throttled: boolean }[] = [];
  /** The other readers' share: a call sooner than this after the last one answered is throttled. */
  let quotaGapMs = 0;
  let lastAnswered = Number.NEGATIVE_INFINITY;
  /** Events per page: small, so that every group takes several pages. */
  const PAGE_SIZE = 2;

  const body = (request: IncomingMessage): Promise<string> =>
    new Promise((done) => {
      let text = '';
      request.on('data', (chunk: Buffer) => (text += chunk.toString()));
      request.on('end', () => done(text));
    });

  /** Terms of a filter pattern, each of which a matching event contains (the stand-in reads no JSON patterns). */
  const matches = (pattern: string | undefined, message: string): boolean =>
    [...(pattern ?? '').matchAll(/"([^"]*)"|(\S+)/g)].every((term) => message.includes(term[1] ?? term[2] ?? ''));

  function filterLogEvents(input: { logGroupName?: string; startTime?: number; filterPattern?: string; nextToken?: string }) {
    const throttled = clock.now() - lastAnswered < quotaGapMs;
    calls.push({ group: input.logGroupName ?? '', ...(input.filterPattern ? { filterPattern: input.filterPattern } : {}), throttled });
    if (throttled) return { status: 400, answer: { __type: 'ThrottlingException', message: 'Rate exceeded' } };
    if (!input.logGroupName) return { status: 400, answer: { __type: 'InvalidParameterException', message: 'logGroupName is required' } };
    lastAnswered = clock.now();
    const events = (held.get(input.logGroupName) ?? []).filter(
      (event) => event.timestamp >= (input.startTime ?? 0) && matches(input.filterPattern, event.message),
    );
    // As CloudWatch Logs does while it searches, the first answer may hold no events, only a token to go on with.
    if (input.nextToken === undefined) return { status: 200, answer: { events: [], nextToken: '0', searchedLogStreams: [] } };
    const from = Number(input.nextToken);
    const page = events.slice(from, from + PAGE_SIZE).map((event) => ({ ...event, logStreamName: 'stream' }));
    printed.push(`|page ${from / PAGE_SIZE} of ${input.logGroupName}`);
    const more = from + PAGE_SIZE < events.length;
    return { status: 200, answer: { events: page, ...(more ? { nextToken: String(from + PAGE_SIZE) } : {}), searchedLogStreams: [] } };
  }

  const saved = { ...process.env };
  beforeAll(async () => {
    const server = createServer((request, response) => {
      void body(request).then((text) => {
        if (request.headers['x-amz-target'] === 'Logs_20140328.FilterLogEvents') {
          const { status, answer } = filterLogEvents(JSON.parse(text) as Parameters<typeof filterLogEvents>[0]);
          response.writeHead(status, { 'content-type': 'application/x-amz-json-1.1' });
          response.end(JSON.stringify(answer));
        } else if (new URLSearchParams(text).get('Action') === 'ListStackResources') {
          const members = STACK_LOG_GROUPS.map(
            (group) =>
              `<member><LogicalResourceId>${group.logicalId}</LogicalResourceId><PhysicalResourceId>${group.physicalId}</PhysicalResourceId><ResourceType>${group.type}</ResourceType><LastUpdatedTimestamp>2025-05-01T00:00:00Z</LastUpdatedTimestamp><ResourceStatus>CREATE_COMPLETE</ResourceStatus></member>`,
          ).join('');
          response.writeHead(200, { 'content-type': 'text/xml' });
          response.end(
            `<ListStackResourcesResponse xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/"><ListStackResourcesResult><StackResourceSummaries>${members}</StackResourceSummaries></ListStackResourcesResult><ResponseMetadata><RequestId>r</RequestId></ResponseMetadata></ListStackResourcesResponse>`,
          );
        } else {
          response.writeHead(400, { 'content-type': 'text/plain' });
          response.end(`the stand-in does not answer ${String(request.headers['x-amz-target'])} ${text}`);
        }
      });
    });
    standIn = await listenOnLoopback(server);
    delete process.env.AWS_PROFILE;
    delete process.env.AWS_DEFAULT_PROFILE;
    Object.assign(process.env, {
      AWS_ENDPOINT_URL: standIn.origin,
      AWS_REGION: 'eu-west-1',
      AWS_ACCESS_KEY_ID: 'AKIDSTANDIN',
      AWS_SECRET_ACCESS_KEY: 'x',
    });
  });
  afterAll(async () => {
    process.env = saved;
    await standIn.close();
  });
  beforeEach(() => {
    clock = testClock();
    calls.length = 0;
    held.clear();
    quotaGapMs = 0;
    lastAnswered = Number.NEGATIVE_INFINITY;
  });

  const lines = () => printed.filter((line) => !line.startsWith('|'));
  const messagesPrinted = () => lines().map((line) => line.split(' ').at(-1));

  it('prints every function’s lines of the window, oldest first across functions, and names the stack and region', async () => {
    held.set(groupOf('createPet'), [{ eventId: 'c1', timestamp: AT - 60_000, message: lineAt('created', AT - 60_000) }]);
    held.set(groupOf('listPets'), [
      { eventId: 'l0', timestamp: AT - 3_600_000, message: lineAt('too-old', AT - 3_600_000) },
      { eventId: 'l1', timestamp: AT - 120_000, message: lineAt('listed', AT - 120_000) },
    ]);
    expect(await logsCommand(['--stage', 'dev', '--since', '15m'], clock)).toBe(0);
    expect(complaints[0]).toBe('Stack PetStore-dev in eu-west-1 (region: AWS_REGION)');
    expect(lines()).toEqual([
      expect.stringMatching(new RegExp(`^\\S+ INFO  listPets ${REQUEST_ID} listed$`)),
      expect.stringMatching(new RegExp(`^\\S+ INFO  createPet ${REQUEST_ID} created$`)),
    ]);
    // Every function's group, not the access logs unless asked; each call CALL_GAP_MS after the one before.
    expect(new Set(calls.map((call) => call.group)).size).toBe(DEPLOYED_FUNCTIONS.length);
    expect(clock.waits.every((wait) => wait === CALL_GAP_MS)).toBe(true);
  });

  it('prints a page as soon as it arrives, before asking for the next', async () => {
    const events = [1, 2, 3, 4, 5].map((n) => ({
      eventId: `g${n}`,
      timestamp: AT - 10_000 + n,
      message: lineAt(`line${n}`, AT - 10_000 + n),
    }));
    held.set(groupOf('getPet'), events);
    expect(await logsCommand(['--stage', 'dev', '--function', 'getPet'], clock)).toBe(0);
    expect(messagesPrinted()).toEqual(['line1', 'line2', 'line3', 'line4', 'line5']);
    expect(printed.indexOf(printed.find((line) => line.endsWith('line1')) ?? '')).toBeLessThan(
      printed.indexOf(`|page 1 of ${groupOf('getPet')}`),
    );
  });

  it('a quota other readers hold: each "Rate exceeded" doubles the pause and the call is made again, until every line is printed', async () => {
    quotaGapMs = 2_000;
    held.set(
      groupOf('createPet'),
      [1, 2, 3, 4, 5, 6, 7].map((n) => ({ eventId: `c${n}`, timestamp: AT - 10_000 + n, message: lineAt(`line${n}`, AT - 10_000 + n) })),
    );
    expect(await logsCommand(['--stage', 'dev', '--function', 'createPet'], clock)).toBe(0);
    expect(messagesPrinted()).toEqual(['line1', 'line2', 'line3', 'line4', 'line5', 'line6', 'line7']);
    expect(calls.filter((call) => call.throttled).length).toBeGreaterThan(0);
    // 500 ms, then 1 s and 2 s after throttles; never a throttled call followed at once by another.
    expect(clock.waits).toEqual(expect.arrayContaining([CALL_GAP_MS, 2 * CALL_GAP_MS, 4 * CALL_GAP_MS]));
    expect(complaints).toContain('(CloudWatch Logs: Rate exceeded; next call in 1 s)');
  });

  it('--request-id asks only for the lines that carry the id, in every group; --filter passes a pattern as given', async () => {
    const other = '9f9f9f9f-0000-4000-8000-000000000000';
    held.set(groupOf('authorizer'), [{ eventId: 'a1', timestamp: AT - 2_000, message: lineAt('refused', AT - 2_000, other) }]);
    held.set(groupOf('getPet'), [
      { eventId: 'g1', timestamp: AT - 1_000, message: lineAt('mine', AT - 1_000) },
      { eventId: 'g2', timestamp: AT - 900, message: lineAt('theirs', AT - 900, other) },
    ]);
    expect(await logsCommand(['--stage', 'dev', '--request-id', REQUEST_ID], clock)).toBe(0);
    expect(messagesPrinted()).toEqual(['mine']);
    expect(new Set(calls.map((call) => call.filterPattern))).toEqual(new Set([`"${REQUEST_ID}"`]));

    printed.length = 0;
    calls.length = 0;
    expect(await logsCommand(['--stage', 'dev', '--function', 'getPet', '--filter', '"theirs"'], clock)).toBe(0);
    expect(messagesPrinted()).toEqual(['theirs']);
    expect(calls.map((call) => call.filterPattern)).toEqual(['"theirs"', '"theirs"']);
  });

  it('--function and --api read only those groups; --json prints one object per line', async () => {
    held.set(groupOf('messages-api'), [
      {
        eventId: 'a1',
        timestamp: AT - 1_000,
        message: JSON.stringify({
          requestId: 'Kx1=',
          routeKey: 'POST /messages',
          path: '/messages',
          status: '503',
          responseLatencyMs: '9',
        }),
      },
    ]);
    expect(await logsCommand(['--stage', 'dev', '--function', 'submitMessage', '--api', 'messages', '--json'], clock)).toBe(0);
    expect(new Set(calls.map((call) => call.group))).toEqual(new Set([groupOf('messages-api'), groupOf('submitMessage')]));
    expect(JSON.parse(lines()[0] ?? '')).toMatchObject({
      level: 'ERROR',
      source: 'messages-api',
      requestId: 'Kx1=',
      message: 'POST /messages /messages → 503 in 9 ms',
    });
  });

  it('--follow prints lines that arrive later, each once, though every round looks back over the last minute', async () => {
    const group = groupOf('getPet');
    held.set(group, [{ eventId: 'g1', timestamp: AT - 1_000, message: lineAt('first', AT - 1_000) }]);
    const stop = new AbortController();
    jest.spyOn(console, 'log').mockImplementation((line: unknown) => {
      printed.push(String(line));
      if (String(line).endsWith('first'))
        held.get(group)?.push({ eventId: 'g2', timestamp: clock.now(), message: lineAt('second', clock.now()) });
      if (String(line).endsWith('second')) stop.abort();
    });
    expect(await logsCommand(['--stage', 'dev', '--function', 'getPet', '--follow'], clock, stop.signal)).toBe(0);
    expect(messagesPrinted()).toEqual(['first', 'second']);
  });
});
