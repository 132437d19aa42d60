/**
 * Part 7's measurements: each costed request made as a client makes it, through the local gateway's dispatch (the
 * authorizer, then the function, in this process, against the bench's DynamoDB), at INFO with metrics published as
 * in Lambda; what each invocation took and wrote to stdout, the access-log line API Gateway would write for it with
 * the stage's format, the answer's bytes and the capacity units. Then one run of the stage check's read-only checks
 * (scripts/smoke/checks.ts), as its schedule runs them.
 */
import { gzipSync } from 'node:zlib';
import { fetchThrough, type GatewayFunctions, type LambdaFunction } from '#shared/gateway-events';
import { STAGE_ENV } from '#shared/function-settings';
import { runSmokeChecks } from '#scripts/smoke/checks';
import type { BenchStore } from './bench-store';
import type { CostedOperation, CostInputs, Invocation, MeasuredRequest, StageCheckRun } from './costs';
import type { UsageMeter } from './dynamodb-usage';
import { madeUpKey } from './events';
import { median } from './stats';

/** A current desktop Chrome (its reduced User-Agent), and what the project's SDK sends: Node's fetch (undici) says `node`. */
export const BROWSER_USER_AGENT =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36';
export const SDK_USER_AGENT = 'node';
const HOST = 'a1b2c3d4e5.execute-api.us-east-1.amazonaws.com';
/** A public IPv4 address (documentation range) where the local dispatch has 127.0.0.1. */
const CLIENT_IP = '203.0.113.195';
/** What API Gateway adds to every answer besides the function's headers. */
const GATEWAY_HEADERS = { date: 'Sun, 29 Nov 2026 02:13:11 GMT', connection: 'keep-alive', 'apigw-requestid': 'Jx3kPhY0oAMEVxw=' };

interface Recorded {
  fn: string;
  event: { requestContext?: { requestId?: string; routeKey?: string }; rawPath?: string; routeKey?: string };
  result: unknown;
  ms: number;
  lines: string[];
}

/** Every invocation of `functions`, timed, with the lines it wrote to stdout or stderr. */
function recording(functions: GatewayFunctions): { functions: GatewayFunctions; take: () => Recorded[] } {
  let recorded: Recorded[] = [];
  let current: Recorded | undefined;
  const wrap =
    (fn: string, handler: LambdaFunction): LambdaFunction =>
    async (event, context) => {
      const record: Recorded = { fn, event: event as Recorded['event'], result: undefined, ms: 0, lines: [] };
      current = record;
      const started = performance.now();
      try {
        record.result = await handler(event, context);
        return record.result;
      } finally {
        record.ms = performance.now() - started;
        current = undefined;
        recorded.push(record);
      }
    };
  for (const stream of [process.stdout, process.stderr]) {
    const original = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
    const capture = (chunk: unknown, ...rest: unknown[]): boolean => {
      if (!current) return original(chunk, ...rest);
      current.lines.push(...String(chunk).split('\n').filter(Boolean));
      return true;
    };
    stream.write = capture;
  }
  return {
    functions: {
      authorizer: wrap('authorizer', functions.authorizer),
      notFound: wrap('notFound', functions.notFound),
      preflight: wrap('preflight', functions.preflight),
      operations: new Map([...functions.operations].map(([name, handler]) => [name, wrap(name, handler)])),
    },
    take: () => {
      const taken = recorded;
      recorded = [];
      return taken;
    },
  };
}

const bytes = (text: string): number => Buffer.byteLength(text);

/** Every custom metric an EMF line publishes: namespace, name, and its dimensions' values. */
function metricsOf(line: string): string[] {
  if (!line.startsWith('{')) return [];
  const document = JSON.parse(line) as Record<string, unknown> & {
    _aws?: { CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string }[] }[] };
  };
  return (document._aws?.CloudWatchMetrics ?? []).flatMap((directive) =>
    directive.Dimensions.flatMap((dimensions) =>
      directive.Metrics.map(
        (metric) => `${directive.Namespace}|${metric.Name}|${dimensions.map((name) => `${name}=${String(document[name])}`).join(',')}`,
      ),
    ),
  );
}

/** The access-log line API Gateway writes for a request with the stage's format (`-` for a variable without a value). */
function accessLogLine(format: string, values: Record<string, string>): string {
  return format.replace(/\$context\.[A-Za-z.]+/g, (variable) => values[variable] ?? '-');
}

interface Answered {
  readonly status: number;
  readonly answerBytes: number;
  readonly totalMs: number;
  readonly invocations: Recorded[];
  readonly api: string;
}

function accessLogValues(answered: Answered, userAgent: string): Record<string, string> {
  const authorizer = answered.invocations.find((one) => one.fn === 'authorizer');
  const fn = answered.invocations.find((one) => one.fn !== 'authorizer');
  const event = (fn ?? authorizer)?.event;
  const context = (authorizer?.result as { context?: Record<string, unknown> } | undefined)?.context ?? {};
  return {
    '$context.requestId': event?.requestContext?.requestId ?? '-',
    '$context.identity.sourceIp': CLIENT_IP,
    '$context.identity.userAgent': userAgent,
    '$context.path': event?.rawPath ?? '-',
    '$context.routeKey': event?.routeKey ?? '-',
    '$context.status': String(answered.status),
    '$context.responseLatency': String(Math.round(answered.totalMs)),
    ...(fn ? { '$context.integrationStatus': '200', '$context.integrationLatency': String(Math.round(fn.ms)) } : {}),
    ...(typeof context.keyId === 'string' ? { '$context.authorizer.keyId': context.keyId } : {}),
    ...(typeof context.reason === 'string' ? { '$context.authorizer.reason': context.reason } : {}),
  };
}

export interface CostMeasurement {
  readonly measured: CostInputs['measured'];
  /** The access-log lines of a keyed read, as written: shown in the report. */
  readonly sampleAccessLog: { readonly browser: string; readonly sdk: string };
}

export async function measureCostInputs(
  functions: GatewayFunctions,
  bench: BenchStore,
  meter: UsageMeter,
  accessLogFormat: string,
  requests: number,
): Promise<CostMeasurement> {
  const saved = {
    level: process.env.POWERTOOLS_LOG_LEVEL,
    metrics: process.env.POWERTOOLS_METRICS_DISABLED,
    stage: process.env[STAGE_ENV],
  };
  const restore = (name: 'POWERTOOLS_LOG_LEVEL' | 'POWERTOOLS_METRICS_DISABLED' | typeof STAGE_ENV, value: string | undefined): void => {
    if (value === undefined) Reflect.deleteProperty(process.env, name);
    else process.env[name] = value;
  };
  // As prod's functions run: INFO, metrics published, its stage's name in every line.
  process.env.POWERTOOLS_LOG_LEVEL = 'INFO';
  process.env.POWERTOOLS_METRICS_DISABLED = 'false';
  process.env[STAGE_ENV] = 'prod';
  const recorder = recording(functions);
  const allLines: string[] = [];
  const metrics = new Set<string>();
  const send = fetchThrough(recorder.functions);

  async function call(
    method: string,
    path: string,
    options: { key?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<Answered> {
    recorder.take();
    const started = performance.now();
    const answer = await send(`https://${HOST}${path}`, {
      method,
      headers: {
        accept: 'application/json',
        'user-agent': BROWSER_USER_AGENT,
        ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...options.headers,
      },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
    const body = await answer.text();
    const totalMs = performance.now() - started;
    const headers = { ...Object.fromEntries(answer.headers), ...GATEWAY_HEADERS, 'content-length': String(bytes(body)) };
    const head = `HTTP/1.1 ${answer.status} ${answer.statusText}\r\n${Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('')}\r\n`;
    const invocations = recorder.take();
    for (const one of invocations) {
      allLines.push(...one.lines);
      for (const line of one.lines) for (const metric of metricsOf(line)) metrics.add(metric);
    }
    return {
      status: answer.status,
      answerBytes: bytes(head) + bytes(body),
      totalMs,
      invocations,
      api: path.startsWith('/v1/') ? 'pets' : 'messages',
    };
  }

  let sequence = 0;
  const pet = await call('POST', '/v1/pets', { key: bench.apiKey, body: { name: 'cost', categoryId: 2, status: 'sold' } });
  const petId = (JSON.parse(String((pet.invocations.at(-1)?.result as { body?: string }).body)) as { id: number }).id;
  const cases: Record<CostedOperation, () => Promise<Answered>> = {
    getPet: () => call('GET', `/v1/pets/${petId}`, { key: bench.apiKey }),
    'listPets ?limit=20 (unfiltered)': () => call('GET', '/v1/pets?limit=20', { key: bench.apiKey }),
    'listPets ?status=sold&limit=20': () => call('GET', '/v1/pets?status=sold&limit=20', { key: bench.apiKey }),
    createPet: () => call('POST', '/v1/pets', { key: bench.apiKey, body: { name: `cost ${sequence++}`, categoryId: 2, status: 'sold' } }),
    'createPet with Idempotency-Key': () =>
      call('POST', '/v1/pets', {
        key: bench.apiKey,
        body: { name: `cost ${sequence++}`, categoryId: 2, status: 'sold' },
        headers: { 'idempotency-key': `cost-${Date.now()}-${sequence++}` },
      }),
    submitMessage: () => call('POST', '/messages', { key: bench.apiKey, body: { message: `cost ${sequence++}` } }),
    'anonymous call (authorizer refuses a made-up key)': () => call('GET', `/v1/pets/${petId}`, { key: madeUpKey() }),
  };

  try {
    const measuredRequests = {} as Record<CostedOperation, MeasuredRequest>;
    let sample = { browser: '', sdk: '' };
    for (const [operation, make] of Object.entries(cases) as [CostedOperation, () => Promise<Answered>][]) {
      await make(); // warm: the key's cache, the connection
      meter.reset();
      const answers: Answered[] = [];
      for (let index = 0; index < requests; index++) answers.push(await make());
      const usage = meter.current();
      const names = answers[0]?.invocations.map((one) => one.fn) ?? [];
      const invocations: Invocation[] = names.map((fn, position) => ({
        fn,
        ms: median(answers.map((answer) => answer.invocations[position]?.ms ?? 0)),
        logBytes:
          answers.reduce((sum, answer) => sum + (answer.invocations[position]?.lines.reduce((acc, line) => acc + bytes(line), 0) ?? 0), 0) /
          requests,
      }));
      const lineOf = (answer: Answered, agent: string) => accessLogLine(accessLogFormat, accessLogValues(answer, agent));
      const mean = (of: (answer: Answered) => number) => answers.reduce((sum, answer) => sum + of(answer), 0) / requests;
      measuredRequests[operation] = {
        invocations,
        accessLogBytes: {
          browser: Math.round(mean((answer) => bytes(lineOf(answer, BROWSER_USER_AGENT)))),
          sdk: Math.round(mean((answer) => bytes(lineOf(answer, SDK_USER_AGENT)))),
        },
        answerBytes: Math.round(mean((answer) => answer.answerBytes)),
        readUnits: usage.readUnits / requests,
        writeUnits: usage.writeUnits / requests,
      };
      if (operation === 'getPet' && answers[0])
        sample = { browser: lineOf(answers[0], BROWSER_USER_AGENT), sdk: lineOf(answers[0], SDK_USER_AGENT) };
    }
    const costedMetrics = [...metrics];

    // The stage check's scheduled run: read-only, through the public base URLs, with Node's fetch's User-Agent.
    metrics.clear();
    meter.reset();
    const answered: Answered[] = [];
    const checkStarted = performance.now();
    await runSmokeChecks(
      {
        petsBaseUrl: `https://${HOST}/v1`,
        messagesBaseUrl: `https://${HOST}`,
        key: bench.apiKey,
        readOnly: true,
        fetch: async (input: string | URL | Request, init?: RequestInit) => {
          const url = new URL(input instanceof Request ? input.url : String(input));
          const headers = Object.fromEntries(new Headers(init?.headers));
          const key = /^Bearer (.*)$/.exec(headers.authorization ?? '')?.[1];
          delete headers.authorization;
          const answer = await call(init?.method ?? 'GET', `${url.pathname}${url.search}`, {
            ...(key === undefined ? {} : { key }),
            headers: { ...headers, 'user-agent': SDK_USER_AGENT },
            ...(typeof init?.body === 'string' ? { body: JSON.parse(init.body) as unknown } : {}),
          });
          answered.push(answer);
          return new Response(null, { status: answer.status });
        },
      },
      () => undefined,
    );
    const checkMs = performance.now() - checkStarted;
    const usage = meter.current();
    const invocations = answered.flatMap((answer) => answer.invocations);
    const statuses: Record<string, string[]> = {};
    for (const answer of answered) {
      const seen = (statuses[answer.api] ??= []);
      if (!seen.includes(String(answer.status))) seen.push(String(answer.status));
    }
    const stageCheck: StageCheckRun = {
      requests: answered.length,
      invocations: invocations.length,
      billedMs: invocations.reduce<Record<string, number>>(
        (sum, one) => ({ ...sum, [one.fn]: (sum[one.fn] ?? 0) + Math.ceil(one.ms) }),
        {},
      ),
      logBytes: invocations.reduce((sum, one) => sum + one.lines.reduce((acc, line) => acc + bytes(line), 0), 0),
      accessLogBytes: answered.reduce(
        (sum, answer) => sum + bytes(accessLogLine(accessLogFormat, accessLogValues(answer, SDK_USER_AGENT))),
        0,
      ),
      readUnits: usage.readUnits,
      writeUnits: usage.writeUnits,
      checkMs,
      metrics: [...metrics].sort(),
      statuses,
    };
    const text = allLines.join('\n');
    return {
      measured: {
        requests: measuredRequests,
        stageCheck,
        metrics: costedMetrics.sort(),
        logCompression: Math.round((gzipSync(text).length / Math.max(1, bytes(text))) * 1000) / 1000,
        browserUserAgent: BROWSER_USER_AGENT,
        sdkUserAgent: SDK_USER_AGENT,
      },
      sampleAccessLog: sample,
    };
  } finally {
    restore('POWERTOOLS_LOG_LEVEL', saved.level);
    restore('POWERTOOLS_METRICS_DISABLED', saved.metrics);
    restore(STAGE_ENV, saved.stage);
  }
}
