/**
 * `npm run logs` (scripts/logs.ts): a deployed stage's function logs (and, with `--api`, an API's access log),
 * one compact line per event, oldest first across the log groups, printed page by page as CloudWatch Logs
 * answers. The log groups are found in the stack (scripts/logs/lines.ts), in the region `cdk deploy` used.
 *
 * `--follow` asks FilterLogEvents again every few seconds rather than opening a Live Tail session
 * (StartLiveTail): Live Tail samples a session down to 500 events a second, which a stage at its throttles
 * exceeds many times over, takes at most 10 log groups per session (a stage has 15) and only by ARN, and needs
 * a second call and permission. FilterLogEvents' quota (5 requests/s per account and Region) is shared with every
 * other reader, so every call is paced and a throttled one waits and is made again.
 */
import {
  CloudWatchLogsClient,
  FilterLogEventsCommand,
  type FilterLogEventsCommandInput,
  type FilterLogEventsCommandOutput as Page,
} from '@aws-sdk/client-cloudwatch-logs';
import { parseArgs } from 'node:util';
import { DEPLOYED_FUNCTIONS } from '#shared/deployed-functions';
import type { ApiName } from '#shared/routes';
import { isStageName, STAGES } from '#shared/stages';
import { clientConfigOf, STAGE_REQUIRED, stackResources, stageTarget, TARGET_ARGS, TARGET_USAGE } from '../aws-target';
import {
  accessLogSourceOf,
  API_NAMES,
  formatLogLine,
  isFunctionName,
  logSourcesOf,
  parseSince,
  shapeLogEvent,
  type LogSource,
} from './lines';

const USAGE = `Usage: npm run logs -- --stage <${STAGES.join('|')}> [options]

Options:
  --function <name>           only this function's log (repeatable; default: every function's):
                              ${DEPLOYED_FUNCTIONS.map((fn) => fn.name).join(', ')}
  --api <name>                that API's access log (repeatable; alone, instead of the functions'):
                              ${API_NAMES.join(', ')}
  --since <when>              how far back: 30s, 15m, 2h, 1d, or an ISO time (default: 15m)
  --request-id <id>           only the lines of one request: its apigw-requestid or Lambda request id
  --filter <pattern>          a CloudWatch Logs filter pattern, e.g. '{ $.level = "ERROR" }' or '"unhandled error"'
  --follow                    keep printing new lines until Ctrl-C
  --json                      one JSON object per line (time, level, source, requestId, message, fields)
${TARGET_USAGE}
  --help`;

/** What the command waits with: the system's clock, or a test's. */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}
const SYSTEM_CLOCK: Clock = { now: () => Date.now(), sleep: (ms) => new Promise((wake) => setTimeout(wake, ms)) };

/** At most 2 of FilterLogEvents' 5 requests/s, then twice the gap after each "Rate exceeded", up to 30 s. */
export const CALL_GAP_MS = 500;
const MAX_CALL_GAP_MS = 30_000;
/** How long --follow waits between rounds; each round is at least one call per log group. */
const FOLLOW_INTERVAL_MS = 2_000;
/** Events reach CloudWatch Logs seconds after their timestamp: each --follow round looks this far back again. */
const LATE_ARRIVAL_MS = 60_000;

/**
 * FilterLogEvents, one call at a time, CALL_GAP_MS apart; a ThrottlingException doubles the gap and the same call
 * is made again (never given up: another reader's share slows this command down, it does not end it), a success
 * halves the gap back. The SDK's own retries are off, or they would spend the shared quota at once.
 */
function pacedFilter(logs: CloudWatchLogsClient, clock: Clock): (input: FilterLogEventsCommandInput) => Promise<Page> {
  let gap = CALL_GAP_MS;
  let next = 0;
  return async (input) => {
    for (;;) {
      await clock.sleep(Math.max(0, next - clock.now()));
      try {
        const page = await logs.send(new FilterLogEventsCommand(input));
        gap = Math.max(CALL_GAP_MS, gap / 2);
        next = clock.now() + gap;
        return page;
      } catch (error) {
        if (!(error instanceof Error && error.name === 'ThrottlingException')) throw error;
        gap = Math.min(MAX_CALL_GAP_MS, gap * 2);
        next = clock.now() + gap;
        console.error(`(CloudWatch Logs: ${error.message}; next call in ${gap / 1000} s)`);
      }
    }
  };
}

interface Timed {
  readonly id: string;
  readonly timestamp: number;
  readonly print: () => string;
}

/** One log group's events since `startTime`, page by page as they arrive. */
async function* eventsOf(
  filter: (input: FilterLogEventsCommandInput) => Promise<Page>,
  source: LogSource,
  startTime: number,
  filterPattern: string | undefined,
  json: boolean,
): AsyncGenerator<Timed> {
  let nextToken: string | undefined;
  try {
    do {
      const page = await filter({ logGroupName: source.logGroupName, startTime, filterPattern, nextToken });
      for (const event of page.events ?? []) {
        const timestamp = event.timestamp ?? 0;
        const line = () => shapeLogEvent(source.name, event);
        const id = event.eventId ?? `${source.logGroupName}/${event.logStreamName ?? ''}/${timestamp}/${event.message ?? ''}`;
        yield { id, timestamp, print: () => (json ? JSON.stringify(line()) : formatLogLine(line())) };
      }
      nextToken = page.nextToken;
    } while (nextToken);
  } catch (error) {
    // A group deleted outside the stack, or not yet created by a deploy in progress: the others still count.
    if (!(error instanceof Error && error.name === 'ResourceNotFoundException')) throw error;
    console.error(`(no log group ${source.logGroupName} for ${source.name})`);
  }
}

/** The groups' events merged oldest first, holding one page per group at most. */
async function* merged(streams: AsyncGenerator<Timed>[]): AsyncGenerator<Timed> {
  const heads: IteratorResult<Timed>[] = [];
  for (const stream of streams) heads.push(await stream.next());
  for (;;) {
    let first = -1;
    heads.forEach((head, index) => {
      const best = heads[first];
      if (!head.done && (!best || best.done || head.value.timestamp < best.value.timestamp)) first = index;
    });
    const head = heads[first];
    if (!head || head.done) return;
    yield head.value;
    heads[first] = await (streams[first] as AsyncGenerator<Timed>).next();
  }
}

/** The command; `clock` and `until` (which ends --follow) are for tests. The exit code: 0, or 1 or 2 with a message. */
export async function logsCommand(argv: string[], clock: Clock = SYSTEM_CLOCK, until?: AbortSignal): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      stage: { type: 'string' },
      function: { type: 'string', multiple: true },
      api: { type: 'string', multiple: true },
      since: { type: 'string', default: '15m' },
      'request-id': { type: 'string' },
      filter: { type: 'string' },
      follow: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      ...TARGET_ARGS,
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (!isStageName(values.stage)) {
    console.error(`${STAGE_REQUIRED}\n\n${USAGE}`);
    return 2;
  }
  const functions = values.function ?? [];
  const unknownFunction = functions.find((name) => !isFunctionName(name));
  if (unknownFunction !== undefined) {
    console.error(`no function ${unknownFunction}; the stage's functions are ${DEPLOYED_FUNCTIONS.map((fn) => fn.name).join(', ')}`);
    return 2;
  }
  const apis = values.api ?? [];
  const unknownApi = apis.find((api) => !(API_NAMES as readonly string[]).includes(api));
  if (unknownApi !== undefined) {
    console.error(`no API ${unknownApi}; the stage's APIs are ${API_NAMES.join(', ')}`);
    return 2;
  }
  let startTime: number;
  try {
    startTime = parseSince(values.since, clock.now());
  } catch (error) {
    console.error((error as Error).message);
    return 2;
  }
  // A request id is a quoted term: it matches wherever the id appears, in any shape of line. With --filter too, it is checked here.
  const requestId = values['request-id'];
  const filterPattern = values.filter ?? (requestId === undefined ? undefined : `"${requestId}"`);
  const wantedEvent = (event: Timed) => values.filter === undefined || requestId === undefined || event.print().includes(requestId);

  const target = await stageTarget(values.stage, { region: values.region, profile: values.profile });
  const wanted = new Set<string>([
    ...(functions.length > 0 || apis.length > 0 ? functions : DEPLOYED_FUNCTIONS.map((fn) => fn.name)),
    ...apis.map((api) => accessLogSourceOf(api as ApiName)),
  ]);
  const sources = logSourcesOf(await stackResources(values.stage, target)).filter((source) => wanted.has(source.name));
  if (sources.length === 0) {
    console.error(`the stack has no log group for ${[...wanted].join(', ')}; is it deployed from this version?`);
    return 1;
  }
  console.error(`${sources.length} log group${sources.length > 1 ? 's' : ''}, since ${new Date(startTime).toISOString()}`);

  const logs = new CloudWatchLogsClient({ ...clientConfigOf(target), maxAttempts: 1 });
  const filter = pacedFilter(logs, clock);
  const seen = new Map<string, number>();
  const printNew = async (since: number) => {
    for await (const event of merged(sources.map((source) => eventsOf(filter, source, since, filterPattern, values.json)))) {
      if (seen.has(event.id) || !wantedEvent(event)) continue;
      // Only --follow looks at a window again; without it nothing is held but a page per group.
      if (values.follow) seen.set(event.id, event.timestamp);
      console.log(event.print());
    }
  };
  try {
    await printNew(startTime);
    let from = clock.now();
    while (values.follow && !until?.aborted) {
      await clock.sleep(FOLLOW_INTERVAL_MS);
      const round = clock.now();
      const since = Math.max(startTime, from - LATE_ARRIVAL_MS);
      await printNew(since);
      for (const [id, timestamp] of seen) if (timestamp < since) seen.delete(id);
      from = round;
    }
  } finally {
    logs.destroy();
  }
  return 0;
}
