/**
 * `npm run logs`: a stage's log lines, oldest first across its log groups. `--follow` polls FilterLogEvents: Live Tail
 * samples down to 500 events a second, takes at most 10 log groups (a stage has 15) and needs a second permission.
 */
import {
  CloudWatchLogsClient,
  FilterLogEventsCommand,
  type FilterLogEventsCommandInput,
  type FilterLogEventsCommandOutput as Page,
} from '@aws-sdk/client-cloudwatch-logs';
import { DEPLOYED_FUNCTIONS } from '#shared/deployed-functions';
import type { ApiName } from '#shared/routes';
import { STAGES } from '#shared/stages';
import { clientConfigOf, parseStageArgs, stackResources, stageTarget, TARGET_USAGE } from '../aws-target';
import { withCallDeadline } from '../aws-call-deadline';
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

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}
const SYSTEM_CLOCK: Clock = { now: () => Date.now(), sleep: (ms) => new Promise((wake) => setTimeout(wake, ms)) };

/** At most 2 of FilterLogEvents' 5 requests/s, then twice the gap after each "Rate exceeded", up to 30 s. */
export const CALL_GAP_MS = 500;
const MAX_CALL_GAP_MS = 30_000;
const FOLLOW_INTERVAL_MS = 2_000;
/** Events reach CloudWatch Logs seconds after their timestamp: each --follow round looks this far back again. */
const LATE_ARRIVAL_MS = 60_000;

/** FilterLogEvents (a shared quota) paced: "Rate exceeded" doubles the gap and retries, a success halves it; no SDK retries. */
function pacedFilter(logs: CloudWatchLogsClient, clock: Clock): (input: FilterLogEventsCommandInput) => Promise<Page> {
  let gap = CALL_GAP_MS;
  let next = 0;
  return async (input) => {
    for (;;) {
      await clock.sleep(Math.max(0, next - clock.now()));
      try {
        const page = await logs.send(new FilterLogEventsCommand(input));
        gap = Math.max(CALL_GAP_MS, gap / 2);
        return page;
      } catch (error) {
        if (!(error instanceof Error && error.name === 'ThrottlingException')) throw error;
        gap = Math.min(MAX_CALL_GAP_MS, gap * 2);
        console.error(`(CloudWatch Logs: ${error.message}; next call in ${gap / 1000} s)`);
      } finally {
        next = clock.now() + gap;
      }
    }
  };
}

type Timed = { readonly id: string; readonly timestamp: number; readonly raw: string; readonly source: string };

/** One log group's events since `startTime`, page by page as they arrive. */
async function* eventsOf(
  filter: (input: FilterLogEventsCommandInput) => Promise<Page>,
  source: LogSource,
  startTime: number,
  filterPattern?: string,
): AsyncGenerator<Timed> {
  let nextToken: string | undefined;
  try {
    do {
      const page = await filter({ logGroupName: source.logGroupName, startTime, filterPattern, nextToken });
      for (const { eventId, timestamp = 0, message: raw = '', logStreamName } of page.events ?? [])
        yield { id: eventId ?? `${source.logGroupName}/${logStreamName ?? ''}/${timestamp}/${raw}`, timestamp, raw, source: source.name };
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
  for (let first = 0; first >= 0;) {
    first = heads.reduce(
      (best, head, index) => (!head.done && (best < 0 || head.value.timestamp < (heads[best]?.value as Timed).timestamp) ? index : best),
      -1,
    );
    const head = heads[first];
    if (head && !head.done) {
      yield head.value;
      heads[first] = await (streams[first] as AsyncGenerator<Timed>).next();
    }
  }
}

/** The command; `clock` and `until` (which ends --follow) are for tests. The exit code: 0, or 1 or 2 with a message. */
export async function logsCommand(argv: string[], clock: Clock = SYSTEM_CLOCK, until?: AbortSignal): Promise<number> {
  const args = parseStageArgs(
    argv,
    {
      function: { type: 'string', multiple: true },
      api: { type: 'string', multiple: true },
      since: { type: 'string', default: '15m' },
      'request-id': { type: 'string' },
      filter: { type: 'string' },
      follow: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
    USAGE,
  );
  if (typeof args === 'number') return args;
  const { values, stage } = args;
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
  const wanted = (event: Timed) => values.filter === undefined || requestId === undefined || event.raw.includes(requestId);

  const target = await stageTarget(stage, values);
  const named = new Set<string>([
    ...(functions.length > 0 || apis.length > 0 ? functions : DEPLOYED_FUNCTIONS.map((fn) => fn.name)),
    ...apis.map((api) => accessLogSourceOf(api as ApiName)),
  ]);
  const sources = logSourcesOf(await stackResources(stage, target)).filter((source) => named.has(source.name));
  if (sources.length === 0) {
    console.error(`the stack has no log group for ${[...named].join(', ')}; is it deployed from this version?`);
    return 1;
  }
  console.error(`${sources.length} log group${sources.length > 1 ? 's' : ''}, since ${new Date(startTime).toISOString()}`);

  const logs = withCallDeadline(new CloudWatchLogsClient({ ...clientConfigOf(target), maxAttempts: 1 }), target.region);
  const filter = pacedFilter(logs, clock);
  const seen = new Map<string, number>();
  const printNew = async (since: number) => {
    for await (const event of merged(sources.map((source) => eventsOf(filter, source, since, filterPattern)))) {
      if (seen.has(event.id) || !wanted(event)) continue;
      // Only --follow looks at a window again; without it nothing is held but a page per group.
      if (values.follow) seen.set(event.id, event.timestamp);
      const line = shapeLogEvent(event.source, { timestamp: event.timestamp, message: event.raw });
      console.log(values.json ? JSON.stringify(line) : formatLogLine(line));
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
