/**
 * `npm run logs`: the lines it prints for each shape a stage logs in, what it refuses before calling AWS,
 * and a run against a stand-in for CloudFormation and CloudWatch Logs whose stack holds the log groups
 * of the synthesized dev template.
 */
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DEPLOYED_FUNCTIONS } from '#shared/deployed-functions';
import { formatLogLine, logSourcesOf, parseSince, shapeLogEvent } from '../../scripts/logs/lines';
import { resourcesOfType, synth } from '../infra/support/synth';

const ROOT = resolve(__dirname, '../..');
const REQUEST_ID = '0b6f4c2e-1d3a-4e5f-9a7b-8c9d0e1f2a3b';
const AT = Date.parse('2025-05-01T10:00:00.000Z');

describe('each log line, as the operator reads it', () => {
  it("a function's Powertools line: its time, level, request id and message, and only the fields that differ per line", () => {
    const line = shapeLogEvent('createPet', {
      timestamp: AT,
      message: JSON.stringify({
        level: 'WARN',
        message: 'idempotency record conflict',
        timestamp: '2025-05-01T10:00:00.123Z',
        service: 'petstore',
        function_name: 'PetStore-dev-CreatePetFunction',
        function_request_id: REQUEST_ID,
        cold_start: true,
        xray_trace_id: '1-abc-def',
        code: 'conflict',
      }),
    });
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

  it("Lambda's report record becomes one REPORT line with duration, memory and init time", () => {
    const line = shapeLogEvent('listPets', {
      timestamp: AT,
      message: JSON.stringify({
        time: '2025-05-01T10:00:01.000Z',
        type: 'platform.report',
        record: {
          requestId: REQUEST_ID,
          metrics: { durationMs: 12.5, billedDurationMs: 13, memorySizeMB: 512, maxMemoryUsedMB: 81, initDurationMs: 210.4 },
          status: 'success',
        },
      }),
    });
    expect(formatLogLine(line)).toBe(
      `2025-05-01T10:00:01.000Z INFO  listPets ${REQUEST_ID} REPORT 12.5 ms (billed 13 ms), 81 of 512 MB, init 210.4 ms {"status":"success"}`,
    );
  });

  it('a timed-out invocation is an ERROR', () => {
    const line = shapeLogEvent('getPet', {
      timestamp: AT,
      message: JSON.stringify({
        time: '2025-05-01T10:00:02.000Z',
        type: 'platform.runtimeDone',
        record: { requestId: REQUEST_ID, status: 'timeout' },
      }),
    });
    expect(line).toMatchObject({ level: 'ERROR', requestId: REQUEST_ID, message: 'platform.runtimeDone', fields: { status: 'timeout' } });
  });

  it('an access-log line: route, path, status and latency, its level from the status, and no `-` placeholders', () => {
    const line = shapeLogEvent('pets-api', {
      timestamp: AT,
      message: JSON.stringify({
        requestId: 'Kx1abcdEFgh=',
        ip: '203.0.113.9',
        path: '/v1/pets',
        routeKey: 'GET /v1/pets',
        status: '401',
        responseLatencyMs: '7',
        integrationError: '-',
        anonymousReason: 'unknown_key',
      }),
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

/** The dev template's log groups, named as CloudFormation would name them. */
const stackLogGroups = (): { logicalId: string; physicalId: string; type: string }[] =>
  [...resourcesOfType(synth('dev').template, 'AWS::Logs::LogGroup').keys()].map((logicalId) => ({
    logicalId,
    physicalId: `PetStore-dev-${logicalId}`,
    type: 'AWS::Logs::LogGroup',
  }));

it("finds every deployed function's log group and each API's access log in the stack", () => {
  const sources = logSourcesOf(stackLogGroups()).map((source) => source.name);
  expect(sources.sort()).toEqual([...DEPLOYED_FUNCTIONS.map((fn) => fn.name), 'pets-api', 'messages-api', 'account-api'].sort());
});

interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

let home: string;
beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'petstore-logs-home-'));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** `npm run logs -- …`, until it exits, or until `until` sees its output (then it is stopped). */
function logsCli(args: string[], env: Record<string, string> = {}, until?: (stdout: string) => boolean): Promise<Ran> {
  const child = spawn(join(ROOT, 'node_modules/.bin/tsx'), ['scripts/logs.ts', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: home, AWS_EC2_METADATA_DISABLED: 'true', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (until?.(stdout)) child.kill();
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((done) => child.on('close', (code) => done({ code, stdout, stderr })));
}

describe('refused before any AWS call', () => {
  it('without --stage', async () => {
    const ran = await logsCli([]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toMatch(/^--stage must be one of dev, staging, prod/);
  });

  it('an unknown function, naming the ones there are', async () => {
    const ran = await logsCli(['--stage', 'dev', '--function', 'createPets']);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toMatch(/^no function createPets; the stage's functions are authorizer, .*createPet,/);
  });

  it('a --since it cannot read', async () => {
    const ran = await logsCli(['--stage', 'dev', '--since', 'yesterday']);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toMatch(/^--since yesterday: give a duration/);
  });
});

describe('against a stand-in for CloudFormation and CloudWatch Logs', () => {
  let server: Server;
  let endpoint: string;
  /** The log groups FilterLogEvents was asked about, in order. */
  const asked: string[] = [];
  /** What each log group holds; a test may add to it while the command follows. */
  const held = new Map<string, { eventId: string; timestamp: number; message: string }[]>();

  const body = (request: IncomingMessage): Promise<string> =>
    new Promise((done) => {
      let text = '';
      request.on('data', (chunk: Buffer) => (text += chunk.toString()));
      request.on('end', () => done(text));
    });

  beforeAll(async () => {
    const groups = stackLogGroups();
    server = createServer((request, response) => {
      void body(request).then((text) => {
        const target = request.headers['x-amz-target'];
        if (target === 'Logs_20140328.FilterLogEvents') {
          const { logGroupName, startTime } = JSON.parse(text) as { logGroupName: string; startTime: number };
          asked.push(logGroupName);
          const events = (held.get(logGroupName) ?? []).filter((event) => event.timestamp >= startTime);
          response.writeHead(200, { 'content-type': 'application/x-amz-json-1.1' });
          response.end(JSON.stringify({ events: events.map((event) => ({ ...event, logStreamName: 'stream' })), searchedLogStreams: [] }));
        } else if (new URLSearchParams(text).get('Action') === 'ListStackResources') {
          const members = groups
            .map(
              (group) =>
                `<member><LogicalResourceId>${group.logicalId}</LogicalResourceId><PhysicalResourceId>${group.physicalId}</PhysicalResourceId><ResourceType>${group.type}</ResourceType><LastUpdatedTimestamp>2025-05-01T00:00:00Z</LastUpdatedTimestamp><ResourceStatus>CREATE_COMPLETE</ResourceStatus></member>`,
            )
            .join('');
          response.writeHead(200, { 'content-type': 'text/xml' });
          response.end(
            `<ListStackResourcesResponse xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/"><ListStackResourcesResult><StackResourceSummaries>${members}</StackResourceSummaries></ListStackResourcesResult><ResponseMetadata><RequestId>r</RequestId></ResponseMetadata></ListStackResourcesResponse>`,
          );
        } else {
          response.writeHead(400, { 'content-type': 'text/plain' });
          response.end(`the stand-in does not answer ${String(target)} ${text}`);
        }
      });
    });
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((closed) => server.close(closed)));
  beforeEach(() => {
    asked.length = 0;
    held.clear();
  });

  const groupOf = (name: string): string => {
    const group = logSourcesOf(stackLogGroups()).find((source) => source.name === name);
    if (!group) throw new Error(`no log group for ${name}`);
    return group.logGroupName;
  };
  const powertools = (message: string, at: number) =>
    JSON.stringify({ level: 'INFO', message, timestamp: new Date(at).toISOString(), function_request_id: REQUEST_ID });
  const awsEnv = () => ({
    AWS_ENDPOINT_URL: endpoint,
    AWS_REGION: 'eu-west-1',
    AWS_ACCESS_KEY_ID: 'AKIDSTANDIN',
    AWS_SECRET_ACCESS_KEY: 'x',
  });

  it('prints every function’s lines of the window, oldest first across functions, and names the stack and region', async () => {
    const now = Date.now();
    held.set(groupOf('createPet'), [{ eventId: 'c1', timestamp: now - 60_000, message: powertools('created', now - 60_000) }]);
    held.set(groupOf('listPets'), [
      { eventId: 'l0', timestamp: now - 3_600_000, message: powertools('too old', now - 3_600_000) },
      { eventId: 'l1', timestamp: now - 120_000, message: powertools('listed', now - 120_000) },
    ]);
    const ran = await logsCli(['--stage', 'dev', '--since', '15m'], awsEnv());
    expect(ran.stderr.split('\n')[0]).toBe('Stack PetStore-dev in eu-west-1 (region: AWS_REGION)');
    expect(ran.code).toBe(0);
    const lines = ran.stdout.trim().split('\n');
    expect(lines).toEqual([
      expect.stringMatching(new RegExp(`^\\S+ INFO  listPets ${REQUEST_ID} listed$`)),
      expect.stringMatching(new RegExp(`^\\S+ INFO  createPet ${REQUEST_ID} created$`)),
    ]);
    // Every function, not the access logs unless asked.
    expect(asked).toHaveLength(DEPLOYED_FUNCTIONS.length);
  }, 30_000);

  it('--function and --api read only those groups; --json prints one object per line', async () => {
    const now = Date.now();
    held.set(groupOf('messages-api'), [
      {
        eventId: 'a1',
        timestamp: now - 1_000,
        message: JSON.stringify({
          requestId: 'Kx1=',
          routeKey: 'POST /messages',
          path: '/messages',
          status: '503',
          responseLatencyMs: '9',
        }),
      },
    ]);
    const ran = await logsCli(['--stage', 'dev', '--function', 'submitMessage', '--api', 'messages', '--json'], awsEnv());
    expect(ran.code).toBe(0);
    expect(asked.sort()).toEqual([groupOf('messages-api'), groupOf('submitMessage')].sort());
    expect(JSON.parse(ran.stdout)).toMatchObject({
      level: 'ERROR',
      source: 'messages-api',
      requestId: 'Kx1=',
      message: 'POST /messages /messages → 503 in 9 ms',
    });
  }, 30_000);

  it('--follow prints lines that arrive later, each once', async () => {
    const now = Date.now();
    const group = groupOf('getPet');
    held.set(group, [{ eventId: 'g1', timestamp: now - 1_000, message: powertools('first', now - 1_000) }]);
    const ran = await logsCli(['--stage', 'dev', '--function', 'getPet', '--follow'], awsEnv(), (stdout) => {
      if (stdout.includes('first') && (held.get(group)?.length ?? 0) === 1) {
        held.get(group)?.push({ eventId: 'g2', timestamp: Date.now(), message: powertools('second', Date.now()) });
      }
      return stdout.includes('second');
    });
    expect(
      ran.stdout
        .trim()
        .split('\n')
        .map((line) => line.split(' ').at(-1)),
    ).toEqual(['first', 'second']);
  }, 30_000);
});
