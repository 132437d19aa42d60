/** What `npm run logs` shows: a stage's log groups, `--since`, and one compact line per event in whatever shape it was written. */
import { DEPLOYED_FUNCTIONS } from '#shared/deployed-functions';
import type { ApiName } from '#shared/routes';
import type { FunctionName } from '#shared/table-access';
import { constructIdOf } from '#lib/construct-ids';
import type { StackResource } from '../aws-target';

export const API_NAMES: readonly ApiName[] = ['pets', 'messages', 'account'];

/** `name`: a function's (`createPet`), or `<api>-api` for an API's access log (a function's name has no dash). */
export interface LogSource {
  readonly name: string;
  readonly logGroupName: string;
}

export const accessLogSourceOf = (api: ApiName): string => `${api}-api`;

/** The stage's log groups, found by logical id (`<Function>Logs`, `<Api>ApiAccessLogs` and CDK's hash): CloudFormation names them. */
export function logSourcesOf(resources: readonly StackResource[]): LogSource[] {
  const groups = resources.filter((resource) => resource.type === 'AWS::Logs::LogGroup');
  const find = (constructPath: string) => groups.find((group) => new RegExp(`^${constructPath}[0-9A-F]{8}$`).test(group.logicalId));
  const sources: LogSource[] = [];
  for (const { name } of DEPLOYED_FUNCTIONS) {
    const group = find(`${constructIdOf(name)}Logs`);
    if (group) sources.push({ name, logGroupName: group.physicalId });
  }
  for (const api of API_NAMES) {
    const group = find(`${constructIdOf(api)}ApiAccessLogs`);
    if (group) sources.push({ name: accessLogSourceOf(api), logGroupName: group.physicalId });
  }
  return sources;
}

export const isFunctionName = (name: string): name is FunctionName => DEPLOYED_FUNCTIONS.some((fn) => fn.name === name);

const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `--since`: a duration back from now (`90s`, `15m`, `2h`, `1d`) or a moment (`2025-05-01T10:00Z`), as epoch ms. */
export function parseSince(text: string, nowMs: number): number {
  const duration = /^(\d+)([smhd])$/.exec(text.trim());
  if (duration) return nowMs - Number(duration[1]) * UNIT_MS[duration[2] as keyof typeof UNIT_MS];
  // Only a date with a time (and so a zone, or UTC) is a moment; `Date.parse('15')` is the year 2015.
  const moment = /^\d{4}-\d{2}-\d{2}T/.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(moment)) throw new Error(`--since ${text}: give a duration (30s, 15m, 2h, 1d) or an ISO time (2025-05-01T10:00:00Z)`);
  if (moment > nowMs) throw new Error(`--since ${text} is in the future`);
  return moment;
}

export type LogEvent = { readonly timestamp?: number | undefined; readonly message?: string | undefined };

/** One event as the operator reads it; `fields` holds whatever else the line carried. */
export interface LogLine {
  readonly time: string;
  readonly level: string;
  readonly source: string;
  readonly requestId?: string;
  readonly message: string;
  readonly fields: Readonly<Record<string, unknown>>;
}

/** Set on every line of a function or by Lambda itself: nothing a reader of one stage's logs needs again. */
const REPEATED_FIELDS = new Set([
  'level',
  'message',
  'timestamp',
  'time',
  'type',
  'requestId',
  'function_request_id',
  'Operation',
  'service',
  'function_name',
  'function_arn',
  'function_memory_size',
  'sampling_rate',
]);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const parseJson = (text: string): Record<string, unknown> | undefined => {
  if (!text.startsWith('{')) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
};

const stringOf = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

const withoutKeys = (record: Record<string, unknown>, drop: (key: string, value: unknown) => boolean): Record<string, unknown> =>
  Object.fromEntries(Object.entries(record).filter(([key, value]) => !drop(key, value)));

const figure = (value: unknown): string => (typeof value === 'number' ? String(value) : '?');

/** Lambda's own records in JSON log format (`platform.report` and the like). */
function platformLine(source: string, time: string, type: string, record: Record<string, unknown>): LogLine {
  const requestId = stringOf(record.requestId);
  const metrics = isRecord(record.metrics) ? record.metrics : {};
  const failed = record.status !== undefined && record.status !== 'success';
  const message =
    type === 'platform.report'
      ? [
          `REPORT ${figure(metrics.durationMs)} ms (billed ${figure(metrics.billedDurationMs)} ms)`,
          `${figure(metrics.maxMemoryUsedMB)} of ${figure(metrics.memorySizeMB)} MB`,
          ...(metrics.initDurationMs !== undefined ? [`init ${figure(metrics.initDurationMs)} ms`] : []),
        ].join(', ')
      : type;
  const fields = withoutKeys(record, (key) => key === 'requestId' || (type === 'platform.report' && key === 'metrics'));
  return { time, level: failed ? 'ERROR' : 'INFO', source, ...(requestId ? { requestId } : {}), message, fields };
}

/** An API's access-log line (lib/petstore-http-api.ts ACCESS_LOG_FIELDS); API Gateway writes `-` for what it lacks. */
function accessLine(source: string, time: string, entry: Record<string, unknown>): LogLine {
  const status = Number(entry.status);
  const requestId = stringOf(entry.requestId);
  return {
    time,
    level: status >= 500 ? 'ERROR' : status >= 400 ? 'WARN' : 'INFO',
    source,
    ...(requestId ? { requestId } : {}),
    message: `${String(entry.routeKey)} ${String(entry.path)} → ${String(entry.status)} in ${String(entry.responseLatencyMs)} ms`,
    fields: withoutKeys(
      entry,
      (key, value) => value === '-' || ['requestId', 'routeKey', 'path', 'status', 'responseLatencyMs'].includes(key),
    ),
  };
}

/** Node's text log format: `<time>\t<request id>\t<LEVEL>\t<message>`; Lambda's `START RequestId: <id> …`. */
function textLine(source: string, time: string, text: string): LogLine {
  const parts = text.split('\t');
  if (parts.length >= 4 && /^[0-9a-f-]{36}$/.test(parts[1] ?? '')) {
    return {
      time: parts[0] ?? time,
      level: parts[2] ?? 'INFO',
      source,
      requestId: parts[1] as string,
      message: parts.slice(3).join('\t'),
      fields: {},
    };
  }
  const lambda = /^(START|END|REPORT) RequestId: ([0-9a-f-]+)/.exec(text);
  return { time, level: 'INFO', source, ...(lambda?.[2] ? { requestId: lambda[2] } : {}), message: text, fields: {} };
}

/** One log event of `source` as a LogLine. */
export function shapeLogEvent(source: string, event: LogEvent): LogLine {
  const text = (event.message ?? '').trimEnd();
  const received = new Date(event.timestamp ?? 0).toISOString();
  const entry = parseJson(text);
  if (!entry) return textLine(source, received, text);
  const time = stringOf(entry.timestamp) ?? stringOf(entry.time) ?? received;
  const type = stringOf(entry.type);
  if (type?.startsWith('platform.') && isRecord(entry.record)) return platformLine(source, time, type, entry.record);
  if ('routeKey' in entry && 'status' in entry) return accessLine(source, time, entry);
  const requestId = stringOf(entry.requestId) ?? stringOf(entry.function_request_id) ?? stringOf(entry.awsRequestId);
  return {
    time,
    level: (stringOf(entry.level) ?? 'INFO').toUpperCase(),
    source,
    ...(requestId ? { requestId } : {}),
    message: stringOf(entry.message) ?? stringOf(entry.msg) ?? '',
    fields: withoutKeys(entry, (key) => REPEATED_FIELDS.has(key) || key === 'awsRequestId' || key === 'msg'),
  };
}

/** The text form: time, level, source, request id, message, the other fields as JSON but the trace id and `_aws` (long, no help). */
export function formatLogLine(line: LogLine): string {
  const { xray_trace_id: _trace, _aws: _metrics, ...fields } = line.fields;
  const rest = Object.keys(fields).length > 0 ? ` ${JSON.stringify(fields)}` : '';
  return `${line.time} ${line.level.padEnd(5)} ${line.source} ${line.requestId ?? '-'} ${line.message}${rest}`;
}
