import { currentScope } from './request-scope';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

const RANK: Readonly<Record<LogLevel | 'silent', number>> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

/** POWERTOOLS_LOG_LEVEL (set per stage), read on every call so tests can change it; INFO when unset or unknown. */
function threshold(): number {
  const configured = process.env.POWERTOOLS_LOG_LEVEL?.toLowerCase();
  if (configured === 'critical') return RANK.error;
  return configured !== undefined && configured in RANK ? RANK[configured as LogLevel] : RANK.info;
}

const isLogged = (level: LogLevel): boolean => RANK[level] >= threshold();

/**
 * The sink every line goes through (tests capture it): our own JSON lines, not Powertools Logger, which every cold
 * start would load (`npm run bench`). Built on first use. Never log keys, Authorization headers or bodies.
 */
let sink: { readonly console: Console } | undefined;
const sinkOf = () =>
  (sink ??= { console: new (process.getBuiltinModule('node:console').Console)({ stdout: process.stdout, stderr: process.stderr }) });
export const logger = () => Promise.resolve(sinkOf());

/** `file:line` an error was thrown at, as Powertools Logger reports it. */
const locationOf = (stack: string): string =>
  /\(?([^\s()]+?):(\d+):\d+\)?\s*$/m
    .exec(stack.split('\n')[1] ?? '')
    ?.slice(1, 3)
    .join(':') ?? '';

/** An error's stack as TypeScript positions: see source-mapped-stack.ts, loaded only when an error is logged. */
async function serialised(fields: Record<string, unknown>): Promise<Record<string, unknown>> {
  const errors = Object.entries(fields).filter((entry): entry is [string, Error] => entry[1] instanceof Error);
  if (errors.length === 0) return fields;
  const { sourceMappedStack } = await import('./source-mapped-stack');
  const out = { ...fields };
  for (const [key, error] of errors) {
    const stack = typeof error.stack === 'string' ? sourceMappedStack(error.stack) : '';
    out[key] = { name: error.name, location: locationOf(stack), message: error.message, stack };
  }
  return out;
}

/** What ties a line to its request: the operation (named as its metric dimension), Lambda's, API Gateway's and X-Ray's ids. */
function correlation(): Record<string, unknown> {
  const scope = currentScope();
  if (!scope) return {};
  return {
    Operation: scope.operation,
    function_request_id: scope.awsRequestId,
    ...(scope.apigwRequestId === undefined ? {} : { apigw_request_id: scope.apigwRequestId }),
    ...(scope.trace === undefined ? {} : { xray_trace_id: scope.trace.traceId }),
  };
}

/** Writes a line whatever the level: `level` and `timestamp` are what Lambda's log-level filtering reads. */
export function write(level: LogLevel, message: string, fields: Record<string, unknown>): void {
  const line = { level: level.toUpperCase(), message, timestamp: new Date().toISOString(), ...correlation(), ...fields };
  sinkOf().console[level](JSON.stringify(line));
}

/** `level`, or the configured one when higher: Lambda must not drop the request line (it carries the metrics). */
export const kept = (level: LogLevel): LogLevel =>
  (['error', 'warn', 'info', 'debug'] as const).find((candidate) => RANK[candidate] <= Math.max(threshold(), RANK[level])) ?? level;

/** Awaited by callers on failure paths: a line written after the invocation returns could be lost when Lambda freezes it. */
export async function log(level: LogLevel, message: string, fields: Record<string, unknown> = {}): Promise<void> {
  if (!isLogged(level)) return;
  write(level, message, await serialised(fields));
}

/** A DEBUG line with no error in it; its fields are built only when DEBUG is on. */
export function debug(message: string, fields?: () => Record<string, unknown>): void {
  if (isLogged('debug')) write('debug', message, fields ? fields() : {});
}

/** An INFO line with no error in it, written at once. */
export function info(message: string, fields: Record<string, unknown>): void {
  if (isLogged('info')) write('info', message, fields);
}
