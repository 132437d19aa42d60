/**
 * `npm run logs -- --stage staging [--function createPet] [--since 15m] [--follow]`: a deployed stage's
 * function logs (and, with `--api`, an API's access log), one compact line per event, oldest first.
 * The log groups are found in the stack (scripts/logs/lines.ts), in the region `cdk deploy` used.
 */
import { CloudWatchLogsClient, paginateFilterLogEvents, type FilteredLogEvent } from '@aws-sdk/client-cloudwatch-logs';
import { parseArgs } from 'node:util';
import { DEPLOYED_FUNCTIONS } from '#shared/deployed-functions';
import type { ApiName } from '#shared/routes';
import { isStageName, STAGES } from '#shared/stages';
import { clientConfigOf, runOperatorCommand, STAGE_REQUIRED, stackResources, stageTarget, TARGET_ARGS, TARGET_USAGE } from './aws-target';
import {
  accessLogSourceOf,
  API_NAMES,
  formatLogLine,
  isFunctionName,
  logSourcesOf,
  parseSince,
  shapeLogEvent,
  type LogLine,
  type LogSource,
} from './logs/lines';

const USAGE = `Usage: npm run logs -- --stage <${STAGES.join('|')}> [options]

Options:
  --function <name>           only this function's log (repeatable; default: every function's):
                              ${DEPLOYED_FUNCTIONS.map((fn) => fn.name).join(', ')}
  --api <name>                that API's access log (repeatable; alone, instead of the functions'):
                              ${API_NAMES.join(', ')}
  --since <when>              how far back: 30s, 15m, 2h, 1d, or an ISO time (default: 15m)
  --follow                    keep printing new lines until Ctrl-C
  --json                      one JSON object per line (time, level, source, requestId, message, fields)
${TARGET_USAGE}
  --help`;

/** How often --follow asks again; each round is one FilterLogEvents call per log group. */
const FOLLOW_INTERVAL_MS = 2_000;
/**
 * Events reach CloudWatch Logs seconds after their timestamp, so each --follow round looks this far back
 * again and skips the events it has printed.
 */
const LATE_ARRIVAL_MS = 60_000;

async function eventsOf(logs: CloudWatchLogsClient, source: LogSource, startTime: number): Promise<FilteredLogEvent[]> {
  const events: FilteredLogEvent[] = [];
  try {
    for await (const page of paginateFilterLogEvents({ client: logs }, { logGroupName: source.logGroupName, startTime })) {
      events.push(...(page.events ?? []));
    }
  } catch (error) {
    // A group deleted outside the stack, or not yet created by a deploy in progress: the others still count.
    if (error instanceof Error && error.name === 'ResourceNotFoundException') {
      console.error(`(no log group ${source.logGroupName} for ${source.name})`);
      return [];
    }
    throw error;
  }
  return events;
}

/** Every source's events since `startTime` that `seen` lacks, as lines, oldest first. */
async function collect(
  logs: CloudWatchLogsClient,
  sources: readonly LogSource[],
  startTime: number,
  seen: Map<string, number>,
): Promise<LogLine[]> {
  const found: { timestamp: number; line: LogLine }[] = [];
  for (const source of sources) {
    for (const event of await eventsOf(logs, source, startTime)) {
      const id = event.eventId ?? `${source.logGroupName}/${event.logStreamName ?? ''}/${event.timestamp ?? 0}/${event.message ?? ''}`;
      if (seen.has(id)) continue;
      seen.set(id, event.timestamp ?? 0);
      found.push({ timestamp: event.timestamp ?? 0, line: shapeLogEvent(source.name, event) });
    }
  }
  return found.sort((a, b) => a.timestamp - b.timestamp).map(({ line }) => line);
}

async function run(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      stage: { type: 'string' },
      function: { type: 'string', multiple: true },
      api: { type: 'string', multiple: true },
      since: { type: 'string', default: '15m' },
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
    startTime = parseSince(values.since, Date.now());
  } catch (error) {
    console.error((error as Error).message);
    return 2;
  }

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

  const logs = new CloudWatchLogsClient(clientConfigOf(target));
  const print = (line: LogLine) => console.log(values.json ? JSON.stringify(line) : formatLogLine(line));
  const seen = new Map<string, number>();
  try {
    (await collect(logs, sources, startTime, seen)).forEach(print);
    // Polling rather than StartLiveTail: the same call and permission as without --follow, and no
    // HTTP/2 event stream, which a stand-in for CloudWatch Logs would have to speak too.
    let from = Date.now();
    while (values.follow) {
      await new Promise((wake) => setTimeout(wake, FOLLOW_INTERVAL_MS));
      const round = Date.now();
      const since = Math.max(startTime, from - LATE_ARRIVAL_MS);
      (await collect(logs, sources, since, seen)).forEach(print);
      for (const [id, timestamp] of seen) if (timestamp < since) seen.delete(id);
      from = round;
    }
  } finally {
    logs.destroy();
  }
  return 0;
}

runOperatorCommand(run);
